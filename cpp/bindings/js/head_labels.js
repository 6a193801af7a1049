// What a head does, measured on one input (the label under a head in the model view's grid, and
// after a heatmap's name in the playground): the mean attention weight each head puts on a kind
// of key, and a label when one of them clears its threshold.
//
//   previous      w[i][i−1], query rows 1 … T−1
//   previousLine  w[i][j], j the same position in the previous line (below), over the rows
//                 that have one
//   first         w[i][0], rows 2 … T−1 (at row 1 the first token is also the previous one)
//   self          w[i][i], rows 1 … T−1
//   broad         not a weight: the row's entropy over the most it could be, −Σⱼ wᵢⱼ ln wᵢⱼ /
//                 ln(keys the row sees), rows 1 … T−1 (1 for a uniform row)
//
// Lines: a line ends after a run of tokens that are newlines or ，。！？； (a poem's line
// ends), so 床前明月光，疑是地上霜。 has two lines of six tokens and 疑's counterpart is 床;
// "。\n" at the end of a poem ends one line, not two (no empty line).
// A query at offset c of line L ≥ 1 looks back to offset c of line L − 1, if that line has one,
// unless that is the first token and a line end: the ↵ a model reads before the text, a sink
// many heads park on whatever follows, is no line of the text.
// Each score is null when no row defines it (a short input, a single line).

import { LINE_MARKS } from './catalog.js';

/** The labels, in the order that breaks a tie between two that clear their thresholds. */
export const HEAD_LABELS = Object.freeze(['previous', 'previousLine', 'first', 'self', 'broad']);

/**
 * A weight label needs most of a row's weight (more than every other key together) on its key,
 * on average; broad needs an entropy close to a uniform row's. Broad is the label only when no
 * weight label clears its threshold.
 */
export const HEAD_LABEL_THRESHOLDS = Object.freeze({
  previous: 0.5,
  previousLine: 0.5,
  first: 0.5,
  self: 0.5,
  broad: 0.85,
});

/** The tokens that end a line: a poem's line ends of the engine's marks (kLineMarks' verse rows). */
export const LINE_ENDS = Object.freeze(LINE_MARKS.filter((m) => m.verse).map((m) => m.text));

/** For each position, the position at the same offset in the previous line, or −1. */
export function previousLinePositions(tokens) {
  const out = new Array(tokens.length).fill(-1);
  let previousStart = -1;
  let start = 0;
  for (let i = 0; i < tokens.length; i++) {
    const counterpart = previousStart + (i - start);
    const sink = counterpart === 0 && LINE_ENDS.includes(tokens[0]);
    if (previousStart >= 0 && counterpart < start && !sink) out[i] = counterpart;
    if (LINE_ENDS.includes(tokens[i]) && !LINE_ENDS.includes(tokens[i + 1])) {
      previousStart = start;
      start = i + 1;
    }
  }
  return out;
}

const mean = (values) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);

/**
 * The scores of one head. `weights` [T × T] row-major; `causal`: row i sees keys 0 … i.
 * @returns {{ previous, previousLine, first, self, broad }} each a number or null
 */
export function headScores(weights, length, counterparts, causal = true) {
  const t = length;
  const w = (i, j) => weights[i * t + j];
  const rows = (from, value) => Array.from({ length: Math.max(0, t - from) }, (_, k) => value(from + k));
  const entropy = (i) => {
    const keys = causal ? i + 1 : t;
    let h = 0;
    for (let j = 0; j < keys; j++) if (w(i, j) > 0) h -= w(i, j) * Math.log(w(i, j));
    return h / Math.log(keys);
  };
  const lined = counterparts.map((j, i) => (j >= 0 ? w(i, j) : null)).filter((v) => v !== null);
  return {
    previous: mean(rows(1, (i) => w(i, i - 1))),
    previousLine: mean(lined),
    first: mean(rows(2, (i) => w(i, 0))),
    self: mean(rows(1, (i) => w(i, i))),
    broad: mean(rows(1, entropy)),
  };
}

/** The label of a head's scores and the score behind it; both null when none clears its threshold. */
export function labelOf(scores) {
  let best = null;
  for (const label of HEAD_LABELS) {
    if (label === 'broad') continue;
    const score = scores[label];
    if (score !== null && score >= HEAD_LABEL_THRESHOLDS[label] && (best === null || score > scores[best])) {
      best = label;
    }
  }
  if (best === null && scores.broad !== null && scores.broad >= HEAD_LABEL_THRESHOLDS.broad) best = 'broad';
  return { label: best, score: best === null ? null : scores[best] };
}

/**
 * Every head of a model trace (the whole model, with its "weights" steps):
 * [{ layer, head, label, score, scores }] in layer, then head, order.
 */
export function labelHeads(trace, causal = true) {
  const counterparts = previousLinePositions(trace.tokens);
  return trace.layers.flatMap((layer) =>
    Array.from({ length: layer.heads }, (_, head) => {
      const step = layer.step('weights', head);
      const scores = headScores(step.data, step.rows, counterparts, causal);
      return { layer: layer.layer, head, ...labelOf(scores), scores };
    }),
  );
}
