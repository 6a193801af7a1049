// The threaded engine (dist/engine-mt) over many trainers: create, step and dispose a trainer with
// `threads: engine.threads`, and every tenth cycle open and dispose a long trace, in one
// synchronous loop (as a server's request handler would), printing the process's OS threads
// (/proc/self/task), WASM memory and RSS as it goes. Every trainer and trace runs on the engine's
// one pool (SharedPool, parallel.hpp): all three stay flat. Figures in docs/benchmarks.md.
//   node bench/threads-soak.mjs [cycles=10000] [every=1000]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createEngine } from '../dist/engine-mt/engine.js';

const cycles = Number(process.argv[2] ?? 10000);
const every = Number(process.argv[3] ?? 1000);
const MiB = 2 ** 20;

const osThreads = () => (existsSync('/proc/self/task') ? readdirSync('/proc/self/task').length : NaN);
const rssMiB = () => process.memoryUsage.rss() / MiB;

const engine = await createEngine();
const config = {
  task: 'sort',
  length: 4,
  alphabet: 5,
  layers: 1,
  dModel: 16,
  heads: 2,
  batchSize: 8,
  threads: engine.threads,
};
// Heads and projections spread over the pool (Trace::kMinSpreadWork, kMinProjectionWork).
const long = { tokens: Array.from({ length: 160 }, (_, i) => `t${i % 31}`), dModel: 64, heads: 8, seed: 2 };

const rows = [];
function sample(cycle, began) {
  const row = {
    cycle,
    threads: osThreads(),
    wasmMiB: engine.heapStats().memory / MiB,
    rssMiB: rssMiB(),
    seconds: (performance.now() - began) / 1000,
  };
  rows.push(row);
  console.log(
    `${String(cycle).padStart(6)} cycles: ${row.threads} OS threads, WASM memory ${row.wasmMiB.toFixed(0)} MiB, ` +
      `RSS ${row.rssMiB.toFixed(0)} MiB (${row.seconds.toFixed(1)} s)`,
  );
}

console.log(`threads-soak: ${cycles} trainers (threads ${engine.threads}), node ${process.version}`);
const began = performance.now();
sample(0, began);
for (let i = 1; i <= cycles; i++) {
  const trainer = engine.createTrainer(config);
  trainer.step(1);
  trainer.dispose();
  if (i % 10 === 0) engine.open(long).dispose();
  if (i % every === 0) sample(i, began);
}
const [first, second, last] = [rows[0], rows[1] ?? rows[0], rows.at(-1)];
// From the first interval on: the first trainer makes the pool and the allocator's blocks.
console.log(
  `growth after the first ${second.cycle} cycles: ${last.threads - second.threads} threads, ` +
    `${(last.wasmMiB - second.wasmMiB).toFixed(1)} MiB WASM memory, ${(last.rssMiB - second.rssMiB).toFixed(0)} MiB RSS ` +
    `(from the start: ${last.threads - first.threads} threads)`,
);
