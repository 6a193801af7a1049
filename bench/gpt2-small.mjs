// GPT-2 small in the engine: opening a checkpoint of its exact shape (12 layers × 12 heads, width
// 768, vocabulary 50,257, context 1,024; 124 M float32 parameters, a 548 MB file made by
// bench/make_gpt2_small.py, randomly initialised and never committed), then tracing it, in the
// single-threaded WASM build (dist/engine: one thread), the threaded one (dist/engine-mt: every
// core) and natively (build/bench-native/bench/gpt2_native, g++ -O3 -march=native, if built by
// bench/build.sh). Each engine runs in a process of its own, so that its peak memory is its own.
//   load     engine.loadCheckpoint of the file's bytes (read beforehand), seconds
//   memory   the WASM memory's size after loading and after the traces (it never shrinks: the
//            peak) and the process's peak resident set
//   trace    model.trace({ tokens }) at 8, 32 and 128 tokens: every layer's attention with every
//            head and step, the block's steps, the logits, all copied into JS (what the CLI's
//            trace --model and a page read)
//   forward  model.layerInput(…, 11): the embedding and all 12 blocks, no logits over the
//            vocabulary (the page's per-keystroke pass), natively ForwardThrough: the ratio
//            WASM / native of the same computation
//   node bench/gpt2-small.mjs [--quick] [--folder DIR]   (--quick: 8 and 32 tokens)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarize, timeSamples } from './timing.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const PROTOCOL = { warmup: 0.5, minSamples: 5, minSeconds: 1 };
const ENGINES = { single: '../dist/engine/engine.js', threaded: '../dist/engine-mt/engine.js' };
const NATIVE = path.join(root, 'build/bench-native/bench/gpt2_native');

/** The same ids as bench/cpp/gpt2_native.cpp: spread over the vocabulary, reproducible. */
export const tokensOf = (n, vocab = 50257) => Array.from({ length: n }, (_, i) => (i * 7919 + 13) % vocab);

const megabytes = (bytes) => Math.round(bytes / 2 ** 20);

/** One engine in this process: { load, memory, rows: [{ tokens, trace, forward }] } (ms medians). */
async function measureEngine(kind, folder, lengths) {
  const { createEngine } = await import(new URL(ENGINES[kind], import.meta.url));
  const engine = await createEngine();
  const before = engine.heapStats();
  const config = readFileSync(path.join(folder, 'config.json'), 'utf8');
  let safetensors = readFileSync(path.join(folder, 'model.safetensors'));
  const began = performance.now();
  const cpu = process.cpuUsage();
  const model = engine.loadCheckpoint({ config, safetensors });
  const load = (performance.now() - began) / 1000;
  const used = process.cpuUsage(cpu);
  const loadCpu = (used.user + used.system) / 1e6;
  safetensors = null;
  const loaded = engine.heapStats();
  const rows = [];
  try {
    for (const n of lengths) {
      const input = { tokens: tokensOf(n) };
      const trace = await timeSamples(() => model.trace(input), PROTOCOL);
      const forward = await timeSamples(() => model.layerInput(input, model.config.layers - 1), PROTOCOL);
      rows.push({
        tokens: n,
        trace: summarize(trace.samples).median,
        forward: summarize(forward.samples).median,
        traceCpu: summarize(trace.cpu).median,
        forwardCpu: summarize(forward.cpu).median,
      });
    }
  } finally {
    model.dispose();
  }
  const after = engine.heapStats();
  return {
    kind,
    threads: kind === 'threaded' ? os.availableParallelism() : 1,
    load,
    loadCpu,
    memory: {
      wasmBeforeMB: megabytes(before.memory),
      wasmLoadedMB: megabytes(loaded.memory),
      inUseLoadedMB: megabytes(loaded.inUse),
      wasmPeakMB: megabytes(after.memory),
      processPeakMB: Math.round(process.resourceUsage().maxRSS / 1024),
    },
    rows,
  };
}

function measureNative(folder, lengths) {
  if (!existsSync(NATIVE)) return null;
  const out = JSON.parse(execFileSync(NATIVE, [folder, ...lengths.map(String)], { encoding: 'utf8' }));
  return {
    kind: 'native',
    threads: 1,
    load: out.loadSeconds,
    loadCpu: out.loadCpuSeconds,
    hasGradients: out.hasGradients,
    memory: { processPeakMB: Math.round(out.peakRssMBEnd), processLoadedMB: Math.round(out.peakRssMB) },
    rows: out.rows.map((r) => ({
      tokens: r.tokens,
      trace: summarize(r.trace.samples).median,
      forward: summarize(r.forward.samples).median,
      traceCpu: summarize(r.trace.cpu).median,
      forwardCpu: summarize(r.forward.cpu).median,
    })),
  };
}

/** Every engine, each in a child process: { machine, results }. */
export function runGpt2Small({ quick = false, folder } = {}) {
  const lengths = quick ? [8, 32] : [8, 32, 128];
  const dir =
    folder ?? execFileSync('/usr/bin/python3', [path.join(here, 'make_gpt2_small.py')], { encoding: 'utf8' }).trim();
  const results = [];
  for (const kind of Object.keys(ENGINES)) {
    const args = [fileURLToPath(import.meta.url), '--child', kind, '--folder', dir, '--lengths', lengths.join(',')];
    results.push(JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 })));
  }
  const native = measureNative(dir, lengths);
  if (native) results.push(native);
  return { load: os.loadavg()[0].toFixed(2), cores: os.availableParallelism(), results };
}

/** The results as the markdown rows docs/benchmarks.md's GPT-2 small section holds. */
export function gpt2SmallTable({ results }) {
  const native = results.find((r) => r.kind === 'native');
  const lengths = results[0].rows.map((row) => row.tokens).join(' / ');
  const lines = [
    `| engine | threads | load: wall (CPU) s | WASM memory after load / peak (MB) | process peak RSS (MB) | trace ${lengths} tokens: wall (CPU) ms | forward ${lengths}: wall (CPU) ms | forward CPU, native ÷ this |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    const ms = (key) => r.rows.map((row) => `${row[key].toFixed(0)} (${row[`${key}Cpu`].toFixed(0)})`).join(' / ');
    // CPU time: on a shared machine wall time counts the waiting for a core too.
    const ratio = native
      ? r.rows.map((row, i) => (native.rows[i].forwardCpu / row.forwardCpu).toFixed(2)).join(' / ')
      : '–';
    const wasm = r.memory.wasmLoadedMB ? `${r.memory.wasmLoadedMB} / ${r.memory.wasmPeakMB}` : '–';
    lines.push(
      `| ${r.kind} | ${r.threads} | ${r.load.toFixed(2)}${r.loadCpu === undefined ? '' : ` (${r.loadCpu.toFixed(2)})`} | ${wasm} | ${r.memory.processPeakMB} | ${ms('trace')} | ${ms('forward')} | ${ratio} |`,
    );
  }
  return lines.join('\n');
}

const argv = process.argv.slice(2);
const option = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (argv.includes('--child')) {
    const lengths = option('--lengths').split(',').map(Number);
    process.stdout.write(JSON.stringify(await measureEngine(option('--child'), option('--folder'), lengths)));
    process.exit(0); // the threaded engine's workers would keep the process alive
  }
  const run = runGpt2Small({ quick: argv.includes('--quick'), folder: option('--folder') });
  process.stdout.write(`${JSON.stringify(run, null, 1)}\n\nload average ${run.load}, ${run.cores} cores\n`);
  process.stdout.write(`${gpt2SmallTable(run)}\n`);
}
