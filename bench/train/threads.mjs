// The threaded engine against the single-threaded one: one training step of the
// same model on the same batches, through the public API as the playground runs it (a corpus
// trainer on a text of 16 symbols, character level: the configuration's vocabulary, context,
// layers, width and batch). The single-threaded build (dist/engine) with threads = 1 is what a
// page without cross-origin isolation runs; the threaded one (dist/engine-mt) with one shard per
// core is what an isolated page runs. Same seed, same batches: the losses are checked equal
// before timing (threads = 1 in both builds: bit for bit).
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { createEngine as createSingle } from '../../dist/engine/engine.js';
import { createEngine as createThreaded } from '../../dist/engine-mt/engine.js';
import { summarize, timeSamples } from '../timing.mjs';

const PROTOCOL = { warmup: 1, minSamples: 7, minSeconds: 2 };
const TEXT_SYMBOLS = 'abcdefghijklmnop'; // 16
const TEXT_LENGTH = 200_000;
const CHECK_STEPS = 3;

/** A text of seeded random symbols (a linear congruential generator: no Math.random). */
function randomText(seed = 1) {
  let state = seed >>> 0;
  let text = '';
  for (let i = 0; i < TEXT_LENGTH; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    text += TEXT_SYMBOLS[state >>> 28];
  }
  return text;
}

function trainerOf(engine, spec, threads, text) {
  return engine.createCorpusTrainer(text, {
    level: 'character',
    contextLength: spec.context,
    layers: spec.layers,
    heads: spec.heads,
    dModel: spec.dModel,
    dFF: spec.dFF,
    batchSize: spec.batch,
    positionalEncoding: 'learned',
    scale: spec.scale,
    learningRate: 1e-3,
    seed: 1,
    threads,
  });
}

// A fixed amount of arithmetic, run on worker threads: alone, then `cores` copies at once.
const PROBE = `
const { parentPort } = require('node:worker_threads');
let x = 0;
const t = performance.now();
for (let i = 0; i < 4e8; i++) x += i * 0.5;
parentPort.postMessage([performance.now() - t, x]);
`;
const probe = () =>
  new Promise((resolve, reject) => {
    const worker = new Worker(PROBE, { eval: true });
    worker.once('message', ([ms]) => resolve(ms));
    worker.once('error', reject);
  });

/**
 * The cores the machine gives this process now (the shared machine's other jobs take some):
 * `cores` copies of a job at once against one alone; cores × (one alone) / (all at once).
 */
export async function effectiveCores(cores) {
  const alone = await probe();
  const began = performance.now();
  await Promise.all(Array.from({ length: cores }, probe));
  return (cores * alone) / (performance.now() - began);
}

/**
 * Rows { contender, threads, median, spread, cpuMedian, tokensPerSecond, losses } for `spec`
 * (bench/train/run.mjs CONFIGS): single-threaded 1 thread, threaded 1 thread, threaded every core.
 */
export async function runThreads(spec) {
  const single = await createSingle();
  const threaded = await createThreaded();
  const text = randomText();
  const cores = threaded.threads;
  const contenders = [
    { contender: 'engine WASM, single-threaded build', engine: single, threads: 1 },
    { contender: 'engine WASM, threaded build, 1 thread', engine: threaded, threads: 1 },
    { contender: `engine WASM, threaded build, ${cores} threads`, engine: threaded, threads: cores },
  ];
  const tokensPerStep = spec.batch * spec.context;
  const rows = [];
  for (const { contender, engine, threads } of contenders) {
    const trainer = trainerOf(engine, spec, threads, text);
    try {
      const losses = [];
      for (let i = 0; i < CHECK_STEPS; i++) losses.push(trainer.step(1).loss);
      const timing = await timeSamples(() => trainer.step(1), PROTOCOL);
      const wall = summarize(timing.samples);
      rows.push({
        contender,
        threads,
        ...wall,
        cpuMedian: summarize(timing.cpu).median,
        tokensPerSecond: (tokensPerStep / wall.median) * 1000,
        losses,
        vocabulary: trainer.vocabulary.length,
      });
    } finally {
      trainer.dispose();
    }
  }
  const available = await effectiveCores(cores);
  return { cores, available, load: os.loadavg()[0], cpu: os.cpus()[0]?.model ?? 'unknown', tokensPerStep, rows };
}
