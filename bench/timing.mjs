// The timing protocol, the same for every contender (and mirrored in bench/cpp/native_bench.cpp):
// warm up for at least `warmup` seconds (V8 tiers JS and WASM up; shorter warm-ups make JS
// libraries look 2–4x slower), then take samples of `batch` runs each, the batch chosen so that
// a sample lasts about 20 ms, until there are at least 7 samples and 1 s has passed.

/**
 * Milliseconds per run of each sample, for `run` (sync or async): { samples (wall clock), cpu
 * (this process's user + system CPU time, every thread: on a shared machine it counts the work
 * done, not the waiting for a core), batch }.
 */
export async function timeSamples(run, { warmup = 1, minSamples = 7, minSeconds = 1 } = {}) {
  let runs = 0;
  const warm = performance.now();
  while (performance.now() - warm < warmup * 1000 || runs < 2) {
    await run();
    runs++;
  }
  const perRun = (performance.now() - warm) / runs;
  const batch = Math.max(1, Math.floor(20 / perRun));
  const samples = [];
  const cpu = [];
  const start = performance.now();
  while (samples.length < minSamples || performance.now() - start < minSeconds * 1000) {
    const t = performance.now();
    const c = process.cpuUsage();
    for (let i = 0; i < batch; i++) await run();
    const used = process.cpuUsage(c);
    samples.push((performance.now() - t) / batch);
    cpu.push((used.user + used.system) / 1000 / batch);
  }
  return { samples, cpu, batch };
}

function quantile(sorted, q) {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (at - lo);
}

/**
 * The middle of `xs`, not interpolated (of an even count the upper middle): one measured value,
 * for the benchmarks that take a few runs or processes rather than timeSamples' samples.
 */
export const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];

/** { median, min, max, spread } in ms; spread is the interquartile range over the median. */
export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = quantile(sorted, 0.5);
  return {
    median,
    min: sorted[0],
    max: sorted.at(-1),
    spread: (quantile(sorted, 0.75) - quantile(sorted, 0.25)) / median,
    samples: sorted.length,
  };
}

/** Normwise relative error max|a − b| / max|b|. */
export function relativeError(actual, expected) {
  if (actual.length !== expected.length) return Infinity;
  let worst = 0;
  let largest = 1e-30;
  for (let i = 0; i < expected.length; i++) {
    largest = Math.max(largest, Math.abs(expected[i]));
    const difference = Math.abs(actual[i] - expected[i]);
    worst = Number.isNaN(difference) ? Infinity : Math.max(worst, difference);
  }
  return worst / largest;
}
