// What a view pays after the forward pass: copying a trace's steps out of WebAssembly through
// the public API (dist/engine/engine.js), and the WASM heap a full trace needs at its peak.
import { createEngine } from '../dist/engine/engine.js';
import { benchModule } from './contenders.mjs';
import { summarize } from './timing.mjs';

let engine;

function givenOptions({ n, d, heads, x, wQ, wK, wV, wO }) {
  const matrix = (data, rows) => ({ data, rows, cols: d });
  return {
    tokens: Array.from({ length: n }, (_, i) => `t${i}`),
    dModel: d,
    heads,
    positionalEncoding: false,
    embedding: 'given',
    given: { x: matrix(x, n), wQ: matrix(wQ, d), wK: matrix(wK, d), wV: matrix(wV, d), wO: matrix(wO, d) },
  };
}

/**
 * Every step of an open trace copied into JS, in engine.run()'s order, `repeats` times:
 * { totalMs (median), reads, stepMs: { name: median ms of one read } }. n×m steps (scores,
 * scaled, masked, weights) are recomputed for their head on read (trace.hpp); that is included.
 */
export async function measureTransfer(work, { repeats = 5 } = {}) {
  engine ??= await createEngine();
  const live = engine.open(givenOptions(work));
  try {
    const totals = [];
    const perStep = new Map();
    let reads = 0;
    for (let r = 0; r < repeats; r++) {
      let total = 0;
      reads = 0;
      for (const name of live.stepNames) {
        const heads = live.info(name).perHead ? live.heads : 1;
        for (let h = 0; h < heads; h++) {
          const t = performance.now();
          live.step(name, h);
          const ms = performance.now() - t;
          total += ms;
          reads++;
          if (!perStep.has(name)) perStep.set(name, []);
          perStep.get(name).push(ms);
        }
      }
      totals.push(total);
    }
    const stepMs = Object.fromEntries([...perStep].map(([name, times]) => [name, summarize(times).median]));
    return { totalMs: summarize(totals).median, reads, stepMs, stepNames: live.stepNames, heads: live.heads };
  } finally {
    live.dispose();
  }
}

/**
 * The high-water mark of malloc'ed WASM memory (bytes) in a fresh module for one forward pass
 * with the complete trace, then every step read once: what the page needs at that size.
 */
export async function measureHeapPeak(work, stepNames) {
  const module = await benchModule('simd', { fresh: true });
  const before = module.heapPeakBytes();
  const forward = new module.Forward(work.n, work.d, work.heads);
  for (const name of ['x', 'wQ', 'wK', 'wV', 'wO']) forward.setMatrix(name, work[name]);
  const output = forward.run();
  if (typeof output === 'string') throw new Error(output);
  for (const name of stepNames) {
    for (let h = 0; h < work.heads; h++) if (forward.step(name, h) === null) break;
  }
  forward.delete();
  return { peakBytes: module.heapPeakBytes(), startBytes: before };
}
