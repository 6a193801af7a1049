// The training benchmark (npm run bench:train alone, or part of npm run bench):
// tokens per second of one training step (forward, backward, AdamW) for two configurations,
// the engine in WASM (SIMD, no SIMD) and native against TensorFlow.js training the same model
// from the same weights on the same batches; the memory each configuration needs; and the √dK
// experiment (the same model trained with and without ÷√dK at dK = 64, every step logged).
//   node bench/train/run.mjs [--quick]   rewrites the Training section of docs/benchmarks.md
//   and docs/benchmarks-dk.svg (raw: build/bench-results.json, key "training")
//   node bench/train/run.mjs --render    the same from the saved results, without measuring
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { root } from '../contenders.mjs';
import { relativeError, summarize } from '../timing.mjs';
import { CHECK_STEPS, engineReference, engineWasm, native, specText, tfjs } from './contenders.mjs';
import { renderDkChart, renderTrainingSection, spliceTrainingSection } from './report.mjs';
import { runThreads } from './threads.mjs';

const LOSS_TOLERANCE = 1e-4; // relative, the first loss from the same weights and batch
// Losses after a few AdamW steps: float32 gradients summed in different orders, amplified by
// Adam's division by √v for near-zero gradients; a wrong gradient or optimizer is off by far more.
const STEP_TOLERANCE = 1e-3;

export const CONFIGS = [
  {
    label: 'reference',
    spec: { vocab: 16, layers: 2, dModel: 64, heads: 4, dFF: 256, context: 32, batch: 32, scale: true },
  },
  {
    label: 'larger',
    spec: { vocab: 16, layers: 4, dModel: 128, heads: 4, dFF: 512, context: 64, batch: 16, scale: true },
  },
];

const CONTENDERS = [
  engineWasm('simd'),
  engineWasm('nosimd'),
  native,
  tfjs('wasm', 'plain'),
  tfjs('wasm', 'best'),
  tfjs('cpu', 'plain'), // no transposeA/B slow path to avoid: as written is its best
];

// The √dK experiment: sort (length 8, alphabet 10) with the reference width, dK = 64 per head,
// trained with and without scaling, from GPT-2's initialisation (0.02) and from one that gives
// q and k unit variance (1/√dModel = 0.125), the setting of the textbook argument.
const DK_STEPS = 1000;
const DK_RUNS = [
  { initStd: 0.02, scale: true },
  { initStd: 0.02, scale: false },
  { initStd: 0.125, scale: true },
  { initStd: 0.125, scale: false },
];
const DK = 64;
const DK_SPEC = `layers=2 dModel=64 heads=4 dK=${DK} dFF=256 batch=32 data=sort`;

function log(line) {
  process.stdout.write(`${line}\n`);
}

const short = (e) =>
  String(e?.message ?? e)
    .split('\n')[0]
    .slice(0, 160);

// The loss check runs from weights of std 0.3, where attention changes the loss: from GPT-2's
// 0.02, tfjs without ÷√dK, or with 2 heads instead of 4, still matched the first loss within
// 4e-5 and 1e-6 (attention's output is then a tiny part of the residual stream); from 0.3 they
// are off by 6e-3 and 1e-2, the right model by 1e-7. The timed run starts from 0.02.
const CHECK_INIT_STD = 0.3;

async function measure(contender, spec, check, reference) {
  let prepared;
  try {
    prepared = await contender.prepare(check.spec, check.reference);
    const engineLosses = check.engineLosses;
    const firstError = Math.abs(prepared.firstLoss - engineLosses.first) / Math.abs(engineLosses.first);
    const stepsError = relativeError(Float32Array.from(prepared.losses), Float32Array.from(engineLosses.steps));
    if (!(firstError <= LOSS_TOLERANCE) || !(stepsError <= STEP_TOLERANCE)) {
      return {
        contender: contender.name,
        firstError,
        stepsError,
        failed: `loss differs from the engine's (first ${firstError.toExponential(1)}, after ${CHECK_STEPS} steps ${stepsError.toExponential(1)})`,
      };
    }
    prepared.dispose?.();
    prepared = null;
    prepared = await contender.prepare(spec, reference);
    const timing = await prepared.time();
    return {
      contender: contender.name,
      firstError,
      stepsError,
      ...summarize(timing.samples),
      cpuMedian: timing.cpu ? summarize(timing.cpu).median : null,
      batch: timing.batch,
    };
  } catch (e) {
    return { contender: contender.name, failed: short(e) };
  } finally {
    prepared?.dispose?.();
  }
}

function runDkExperiment(steps) {
  const program = path.join(root, 'build/bench-native/bench/train_native');
  return DK_RUNS.map((run) => {
    const text = `${DK_SPEC} initStd=${run.initStd} scale=${Number(run.scale)}`;
    const lines = execFileSync(program, ['log', text, String(steps)], { encoding: 'utf8', maxBuffer: 1 << 28 })
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const accuracy = lines.pop().accuracy;
    log(
      `  initStd ${run.initStd}, ${run.scale ? 'scaled  ' : 'unscaled'}: loss ${lines.at(-1).loss.toFixed(4)}, ` +
        `held-out exact match ${(100 * accuracy).toFixed(1)}%`,
    );
    return { ...run, dK: DK, spec: text, accuracy, steps: lines };
  });
}

/** Every training measurement: { configs: [{ label, spec, parameters, memory, rows }], dk }. */
export async function runTraining({ quick = false } = {}) {
  log('\n== training: one step = forward + backward + AdamW (medians)');
  const configs = [];
  for (const { label, spec } of quick ? CONFIGS.slice(0, 1) : CONFIGS) {
    const reference = await engineReference(spec);
    // The engine's own losses (WASM SIMD) are what every contender must reproduce.
    const checkSpec = { ...spec, initStd: CHECK_INIT_STD };
    const checkReference = await engineReference(checkSpec);
    const engine = await engineWasm('simd').prepare(checkSpec, checkReference);
    const check = {
      spec: checkSpec,
      reference: checkReference,
      engineLosses: { first: engine.firstLoss, steps: engine.losses },
    };
    engine.dispose();
    const rows = [];
    for (const contender of CONTENDERS) {
      if (quick && contender.backend === 'cpu') continue;
      const row = await measure(contender, spec, check, reference);
      row.tokensPerSecond = row.median ? (reference.tokensPerStep / row.median) * 1000 : null;
      row.cpuTokensPerSecond = row.cpuMedian ? (reference.tokensPerStep / row.cpuMedian) * 1000 : null;
      rows.push(row);
      log(
        `  ${label.padEnd(9)} ${row.contender.padEnd(34)} ` +
          (row.failed
            ? `skipped: ${row.failed}`
            : `${row.median.toFixed(1).padStart(8)} ms/step ±${(50 * row.spread).toFixed(0)}% ` +
              `${Math.round(row.tokensPerSecond).toString().padStart(7)} tokens/s (CPU ${row.cpuMedian?.toFixed(1)} ms)`),
      );
    }
    // The threaded engine against the single-threaded one, through the public API.
    const threads = await runThreads(spec);
    for (const row of threads.rows) {
      log(
        `  ${label.padEnd(9)} ${row.contender.padEnd(34)} ${row.median.toFixed(1).padStart(8)} ms/step ` +
          `±${(50 * row.spread).toFixed(0)}% ${Math.round(row.tokensPerSecond).toString().padStart(7)} tokens/s ` +
          `(CPU ${row.cpuMedian.toFixed(1)} ms; losses ${row.losses.map((l) => l.toFixed(5)).join(' ')})`,
      );
    }
    configs.push({
      label,
      spec,
      threads,
      text: specText(spec),
      parameters: reference.layout.parameters,
      tokensPerStep: reference.tokensPerStep,
      memory: reference.memory,
      rows,
    });
  }
  log(`\n== √dK experiment: sort, dK = 64, ${quick ? 100 : DK_STEPS} steps per run (native)`);
  const dk = runDkExperiment(quick ? 100 : DK_STEPS);
  return { configs, dk, quick };
}

/** Rewrites the Training section of docs/benchmarks.md (and its chart) from `training`. */
export function writeTrainingDocs(training, info) {
  const docs = path.join(root, 'docs');
  const file = path.join(docs, 'benchmarks.md');
  const section = renderTrainingSection(training, info);
  writeFileSync(file, spliceTrainingSection(readFileSync(file, 'utf8'), section));
  writeFileSync(path.join(docs, 'benchmarks-dk.svg'), renderDkChart(training.dk));
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--render')) {
  // Re-renders the section from the last saved results (after a change to the report only).
  const saved = path.join(root, 'build/bench-results.json');
  const { info, trainingInfo, training } = JSON.parse(readFileSync(saved, 'utf8'));
  writeTrainingDocs(training, trainingInfo ?? info);
  log(`bench: re-rendered the Training section from ${saved}`);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { machine } = await import('../machine.mjs');
  const info = machine();
  log(`bench: ${info.cpu}, ${info.cores} cores, node ${info.node}; load ${info.loadBefore}`);
  const training = await runTraining({ quick: process.argv.includes('--quick') });
  info.loadAfter = (await import('node:os')).default.loadavg()[0].toFixed(2);
  writeTrainingDocs(training, info);
  // The same file as bench/run.mjs writes; a training-only run keeps its other results.
  const saved = path.join(root, 'build/bench-results.json');
  const previous = existsSync(saved) ? JSON.parse(readFileSync(saved, 'utf8')) : {};
  writeFileSync(saved, JSON.stringify({ ...previous, training, trainingInfo: info }, null, 1));
  log('\nbench: wrote the Training section of docs/benchmarks.md and docs/benchmarks-dk.svg');
}
