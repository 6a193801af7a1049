// A trace's heads on threads: `engine.open()` of one self-attention trace (the
// explorer's computation: embeddings, Q/K/V, every head's scores, softmax and A·V, W_O) in the
// single-threaded WASM build (dist/engine, what the explorer's worker runs on a page without
// cross-origin isolation) against the threaded one (dist/engine-mt, every core: its Trace::Run
// runs Q, K and V at once from (n + 2m)·d·width ≥ Trace::kMinProjectionWork = 2^20 and spreads the
// heads over a pool once n·m·heads ≥ Trace::kMinSpreadWork = 65,536). Both traces
// are checked equal bit for bit (output, concat) before timing. The sizes straddle the threshold
// (at n 64 with 8 heads the heads are not spread, only Q, K and V) up to the explorer's longest
// input (2,048 tokens, 8 heads, d_model 512), and a narrow case (d_model 16, d_k 2) where the
// softmax is most of a head's work.
//   node bench/trace-threads.mjs [--quick]   (--quick: n ≤ 256)
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { createEngine as createSingle } from '../dist/engine/engine.js';
import { createEngine as createThreaded } from '../dist/engine-mt/engine.js';
import { summarize, timeSamples } from './timing.mjs';
import { effectiveCores } from './train/threads.mjs';

export const TRACE_SIZES = [
  { n: 64, d: 512, heads: 8 },
  { n: 96, d: 512, heads: 8 },
  { n: 128, d: 512, heads: 8 },
  { n: 192, d: 16, heads: 8 },
  { n: 256, d: 512, heads: 8 },
  { n: 512, d: 512, heads: 8 },
  { n: 2048, d: 512, heads: 8 },
];
const MIN_SPREAD_WORK = 65536; // Trace::kMinSpreadWork (trace.hpp): n·m·heads
const MIN_PROJECTION_WORK = 1 << 20; // Trace::kMinProjectionWork: (n + 2m)·d·width

const optionsOf = ({ n, d, heads }) => ({
  tokens: Array.from({ length: n }, (_, i) => `t${i % 257}`),
  dModel: d,
  heads,
  mask: { type: 'causal' },
  seed: 1,
});

const sameBits = (a, b) =>
  a.length === b.length && new Uint32Array(a.buffer).every((v, i) => v === new Uint32Array(b.buffer)[i]);

function checkEqual(single, threaded, options) {
  const read = (engine) => {
    const live = engine.open(options);
    try {
      return ['output', 'concat'].map((name) => live.step(name).data);
    } finally {
      live.dispose();
    }
  };
  const [a, b] = [read(single), read(threaded)];
  if (!a.every((data, i) => sameBits(data, b[i]))) throw new Error(`n ${options.tokens.length}: the traces differ`);
}

/** { cores, available, load, rows: [{ n, d, heads, spread, single, threaded, ratio }] } (ms medians). */
export async function runTraceThreads({ quick = false } = {}) {
  const single = await createSingle();
  const threaded = await createThreaded();
  const rows = [];
  for (const size of TRACE_SIZES.filter((s) => !quick || s.n <= 256)) {
    const options = optionsOf(size);
    checkEqual(single, threaded, options);
    const protocol = { warmup: size.n >= 1024 ? 2 : 1, minSamples: size.n >= 1024 ? 5 : 7, minSeconds: 2 };
    const time = async (engine) =>
      summarize((await timeSamples(() => engine.open(options).dispose(), protocol)).samples);
    const a = await time(single);
    const b = await time(threaded);
    rows.push({
      ...size,
      spread: [
        3 * size.n * size.d * size.d >= MIN_PROJECTION_WORK && 'Q K V',
        size.n * size.n * size.heads >= MIN_SPREAD_WORK && 'heads',
      ]
        .filter(Boolean)
        .join(', '),
      single: a,
      threaded: b,
      ratio: a.median / b.median,
    });
  }
  return {
    cores: threaded.threads,
    available: await effectiveCores(threaded.threads),
    load: os.loadavg()[0],
    rows,
  };
}

/** The table's lines (markdown). */
export function traceThreadsTable({ cores, rows }) {
  const fmt = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
  return [
    `| n | d_model | heads | on threads | single-threaded build, ms | threaded build (${cores} threads), ms | speed-up |`,
    '| ---: | ---: | ---: | --- | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.n} | ${r.d} | ${r.heads} | ${r.spread || '—'} | ${fmt(r.single.median)} (±${(r.single.spread * 50).toFixed(0)}%) | ` +
        `${fmt(r.threaded.median)} (±${(r.threaded.spread * 50).toFixed(0)}%) | ${r.ratio.toFixed(2)}× |`,
    ),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await runTraceThreads({ quick: process.argv.includes('--quick') });
  console.log(traceThreadsTable(result).join('\n'));
  console.log(
    `cores ${result.cores}, cores the machine gave ${result.available.toFixed(2)}, load average ${result.load.toFixed(2)}`,
  );
}
