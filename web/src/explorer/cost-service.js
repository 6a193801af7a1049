// The worker's side of the cost panel (cost-panel.js): computes the layer's output for n tokens
// of an attention kind (cost-kinds.js) a few times with engine.attend() (no trace: one head's
// buffers at a time, so n reaches limits.maxAttendTokens) and answers the fastest time and the
// bytes its attention holds. Timed here, not on the page, so that a message's round trip and the
// page's own work are not in the number.
import { COST_KINDS, COST_MODEL } from './cost-kinds.js';
import { median } from './cost-fit.js';

/** n token labels from a small vocabulary, seeded: the same tokens every run and every machine. */
function tokensOf(n) {
  let state = 12345;
  return Array.from({ length: n }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return `t${state % 97}`;
  });
}

export function costHandlers(engine) {
  return {
    /**
     * { kind, n, minRuns, minMs } → { n, ms (the fastest run), medianMs, runs, bytes (one head's
     * buffers at their peak, attend.hpp), scores (every head's computed scores) }: at
     * least minRuns runs, and more (up to 50) until minMs have passed, so a short trace is not one
     * clock tick. The fastest, not the median: other work on a shared machine only ever adds time,
     * and a burst of it longer than the runs moved the median of a length off the line (traced:
     * 19.5 ms at n = 512 between 10 and 49 ms).
     */
    costMeasure({ kind, n, minRuns = 3, minMs = 150 }) {
      const row = Object.hasOwn(COST_KINDS, kind) ? COST_KINDS[kind] : null;
      if (!row)
        throw new Error(
          `costMeasure: kind ${JSON.stringify(kind)} is not one of ${Object.keys(COST_KINDS).join(', ')}`,
        );
      const options = { tokens: tokensOf(n), ...COST_MODEL, seed: 1, ...row.options };
      const times = [];
      let bytes = 0;
      let scores = 0;
      // One untimed run first: the first call of a kind's code in a fresh engine took ten times
      // the next (WASM tiering), and the first run of a new length grows the heap.
      engine.attend(options);
      const start = performance.now();
      while (times.length < minRuns || (performance.now() - start < minMs && times.length < 50)) {
        const t0 = performance.now();
        const result = engine.attend(options);
        times.push(performance.now() - t0);
        bytes = result.scoreBytes;
        scores = result.computedScores * COST_MODEL.heads;
      }
      return { kind, n, ms: Math.min(...times), medianMs: median(times), runs: times.length, bytes, scores };
    },
  };
}
