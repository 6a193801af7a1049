// npm run bench: every contender on the same attention layer, side by side, in one run; then
// the GEMM alone, the cost of moving a trace into JS, the WASM heap peak, and (bench/browser.mjs)
// the keystroke budget in Chromium; then training (bench/train/run.mjs). Prints the tables and
// rewrites docs/benchmarks.md, docs/benchmarks.svg and docs/benchmarks-dk.svg. Run with nothing
// else busy on the machine.
//   node bench/run.mjs [--quick]   (--quick: n ≤ 64 only, for trying the script)
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { engineWasm, native, onnxruntime, root, tfjs } from './contenders.mjs';
import { machine } from './machine.mjs';
import { measureHeapPeak, measureTransfer } from './transfer.mjs';
import { relativeError, summarize } from './timing.mjs';
import { seededValues } from '../tests/node/support.mjs';
import { referenceForward } from './reference.mjs';
import { renderChart, renderReport } from './report.mjs';
import { runTraining, writeTrainingDocs } from './train/run.mjs';
import { runTraceThreads, traceThreadsTable } from './trace-threads.mjs';

const quick = process.argv.includes('--quick');
const TOLERANCE = 1e-4; // normwise relative, against the engine's output (float32 sums of 512)

// The product size (d 512, 8 heads of 64) at four lengths, and the page's default teaching size.
const SIZES = [
  { n: 8, d: 64, heads: 4, label: 'teaching' },
  { n: 16, d: 512, heads: 8 },
  { n: 64, d: 512, heads: 8 },
  { n: 256, d: 512, heads: 8 },
  { n: 1024, d: 512, heads: 8 },
].filter((s) => !quick || s.n <= 64);
const GEMM_ROWS = [16, 64, 256, 1024].filter((n) => !quick || n <= 64);

const CONTENDERS = [engineWasm('simd'), engineWasm('nosimd'), native, onnxruntime('plain'), onnxruntime('fused'), tfjs];

function workload({ n, d, heads }) {
  const w = (seed) => seededValues(d * d, seed, 1 / Math.sqrt(d));
  return { n, d, heads, x: seededValues(n * d, 1000 + n, 1), wQ: w(1), wK: w(2), wV: w(3), wO: w(4) };
}

/** FLOPs of the layer as docs/computation.md counts them (no biases). */
function forwardFlops({ n, d, heads }) {
  const dK = d / heads;
  const p = heads * dK;
  return 3 * 2 * n * d * p + 2 * n * n * dK * heads * 2 + 7 * n * n * heads + 2 * n * p * d;
}

function log(line) {
  process.stdout.write(`${line}\n`);
}

async function measure(contender, kind, work, reference) {
  let instance;
  try {
    instance = await contender[kind](work);
    const error = reference ? relativeError(instance.output, reference) : 0;
    if (!(error <= TOLERANCE)) {
      return { contender: contender.name, error, failed: `output differs from the engine's (relative error ${error})` };
    }
    const timing = await instance.time();
    return {
      contender: contender.name,
      error,
      ...summarize(timing.samples),
      batch: timing.batch,
      output: instance.output,
    };
  } catch (e) {
    return {
      contender: contender.name,
      failed: String(e.message ?? e)
        .split('\n')[0]
        .slice(0, 160),
    };
  } finally {
    instance?.dispose?.();
  }
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3));

async function main() {
  const info = machine();
  log(`bench: ${info.cpu}, ${info.cores} cores, node ${info.node}; load ${info.loadBefore}`);

  log('\n== forward: X → Q, K, V → heads → softmax(QKᵀ/√dK)·V → concat → W_O (medians, ms)');
  const forward = [];
  for (const size of SIZES) {
    const work = workload(size);
    const rows = [];
    let reference = null;
    for (const contender of CONTENDERS) {
      const { output, ...row } = await measure(contender, 'forward', work, reference);
      // The engine's own output is the reference every other contender must reproduce.
      if (!reference && output && size.n <= 256) {
        row.errorVsDouble = relativeError(output, referenceForward(work));
        if (!(row.errorVsDouble <= TOLERANCE)) throw new Error(`the engine is wrong: ${row.errorVsDouble}`);
      }
      reference ??= output;
      row.gflops = row.median ? forwardFlops(size) / row.median / 1e6 : null;
      rows.push(row);
      log(
        `  n ${String(size.n).padStart(4)} d ${size.d} ${row.contender.padEnd(38)} ` +
          (row.failed
            ? `skipped: ${row.failed}`
            : `${fmt(row.median).padStart(8)} ms ±${(100 * row.spread).toFixed(0)}%`),
      );
    }
    forward.push({ size, flops: forwardFlops(size), rows });
  }

  log('\n== GEMM [n × 512]·[512 × 512] (medians)');
  const gemm = [];
  for (const m of GEMM_ROWS) {
    const work = { m, k: 512, n: 512, a: seededValues(m * 512, 7 + m, 1), b: seededValues(512 * 512, 8, 0.05) };
    const rows = [];
    let reference = null;
    for (const contender of CONTENDERS.filter((c) => c.gemm)) {
      if (contender.name.includes('MultiHeadAttention')) continue;
      const { output, ...row } = await measure(contender, 'gemm', work, reference);
      reference ??= output;
      row.gflops = row.median ? (2 * m * 512 * 512) / row.median / 1e6 : null;
      rows.push(row);
      log(
        `  n ${String(m).padStart(4)} ${row.contender.padEnd(38)} ` +
          (row.failed ? `skipped: ${row.failed}` : `${row.gflops.toFixed(1).padStart(6)} GFLOP/s`),
      );
    }
    gemm.push({ m, rows });
  }

  log('\n== moving a trace into JS (public API, every step) and the WASM heap peak');
  const transfer = [];
  for (const size of SIZES) {
    const work = workload(size);
    const t = await measureTransfer(work, { repeats: size.n >= 1024 ? 2 : 5 });
    const heap = await measureHeapPeak(work, t.stepNames);
    transfer.push({ size, ...t, ...heap });
    log(
      `  n ${String(size.n).padStart(4)} d ${size.d}: ${t.reads} reads, ${fmt(t.totalMs)} ms in all ` +
        `(output ${fmt(t.stepMs.output)} ms, weights per head ${fmt(t.stepMs.weights)} ms); heap peak ${(heap.peakBytes / 2 ** 20).toFixed(1)} MiB`,
    );
  }

  log("\n== a trace's heads on threads: single-threaded WASM build against the threaded one (bench/trace-threads.mjs)");
  const traceThreads = await runTraceThreads({ quick });
  for (const line of traceThreadsTable(traceThreads)) log(`  ${line}`);
  log(`  cores the machine gave: ${traceThreads.available.toFixed(2)} of ${traceThreads.cores}`);

  let browser = null;
  try {
    const { measureBrowser } = await import('./browser.mjs');
    log('\n== Chromium: engine.run + every step copied, at teaching sizes (performance marks)');
    browser = await measureBrowser();
    for (const r of browser.rows) log(`  n ${r.n} d ${r.d} heads ${r.heads}: ${fmt(r.median)} ms (max ${fmt(r.max)})`);
  } catch (e) {
    log(`  browser benchmark skipped: ${e.message.split('\n')[0]}`);
  }

  const training = await runTraining({ quick });

  info.loadAfter = os.loadavg()[0].toFixed(2);
  const results = { info, forward, gemm, transfer, traceThreads, browser, training, quick };
  const docs = path.join(root, 'docs');
  writeFileSync(path.join(docs, 'benchmarks.svg'), renderChart(results));
  // The page's long-task section is written by bench/page-longtask.mjs: keep it.
  const previous = readFileSync(path.join(docs, 'benchmarks.md'), 'utf8');
  const kept = previous.match(/<!-- page-section:start -->[\s\S]*<!-- page-section:end -->/)?.[0];
  writeFileSync(path.join(docs, 'benchmarks.md'), renderReport(results) + (kept ? `\n${kept}\n` : ''));
  writeTrainingDocs(training, info);
  writeFileSync(path.join(root, 'build/bench-results.json'), JSON.stringify(results, null, 1));
  log(
    `\nbench: wrote docs/benchmarks.md, docs/benchmarks.svg and docs/benchmarks-dk.svg (raw: build/bench-results.json)`,
  );
}

await main();
