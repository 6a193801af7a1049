// The worker's side of the cost panel (cost-panel.js): opens one trace of n tokens of an
// attention kind (cost-kinds.js) a few times and answers the median time and the memory its
// attention holds. Timed here, not on the page, so that a message's round trip and the page's
// own work are not in the number.
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

/** Bytes the attention holds beyond Q, K, V: the computed scores, or linear attention's φ(Q), φ(K) and summary. */
function attentionBytes(live) {
  const { heads, dK, nQuery, nKey } = live;
  if (live.attention === 'linear') return 4 * heads * (nQuery * dK + nKey * dK + dK * dK + dK);
  return 4 * heads * live.computedScores;
}

export function costHandlers(engine) {
  return {
    /**
     * { kind, n, minRuns, minMs } → { n, ms (the fastest run), medianMs, runs, bytes, scores }: at
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
      // the next (WASM tiering), and the first trace of a new length grows the heap.
      engine.open(options).dispose();
      const start = performance.now();
      while (times.length < minRuns || (performance.now() - start < minMs && times.length < 50)) {
        const t0 = performance.now();
        const live = engine.open(options);
        times.push(performance.now() - t0);
        bytes = attentionBytes(live);
        scores = live.attention === 'linear' ? 0 : live.computedScores * live.heads;
        live.dispose();
      }
      return { kind, n, ms: Math.min(...times), medianMs: median(times), runs: times.length, bytes, scores };
    },
  };
}
