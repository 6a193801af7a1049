// The √d_k experiment: its two settings, its three arms, the committed run over
// several seeds, and what the page says about it, read off the numbers (never written ahead).
//
// Settings, each defined here once (docs/training.md describes them; bench/train/dk-runs.mjs
// trains them and writes dk-runs.json):
// - realistic: the playground's width (sort 8 of 10, 2 layers, 4 heads of d_k 64) from q and k
//   of unit variance (initStd 1/√dModel), learning rate 1e-3;
// - textbook: the setting in which the tutorials' argument shows (1 layer, 1 head of d_k 128,
//   learning rate 3e-3): the unscaled softmax saturates and the gradient through it vanishes.
// Arms: scaled (÷√d_k); unscaled; control: unscaled, with W_Q and W_K drawn d_k^(−1/4) as large
// (queryKeyInit), which makes it the scaled model's function at step 0, so that what still
// differs comes from training (AdamW's steps move the unscaled scores faster), not the start.

export const DK_STEPS = 300;
/** The committed run records every EVERY-th step (and the first). */
export const DK_EVERY = 10;
export const DK_SEEDS = [1, 2, 3];
/** Held-out exact match at the end of a run: this many examples. */
export const DK_EVAL_EXAMPLES = 500;

export const DK_SETTINGS = {
  realistic: {
    task: 'sort',
    length: 8,
    alphabet: 10,
    layers: 2,
    heads: 4,
    dModel: 64,
    dK: 64,
    initStd: 0.125,
    learningRate: 1e-3,
    batchSize: 32,
  },
  textbook: {
    task: 'sort',
    length: 5,
    alphabet: 6,
    layers: 1,
    heads: 1,
    dModel: 128,
    dK: 128,
    initStd: 0.0884,
    learningRate: 3e-3,
    batchSize: 16,
  },
};
export const DK_SETTING_NAMES = Object.keys(DK_SETTINGS);
export const DK_ARMS = ['scaled', 'unscaled', 'control'];

/** The trainer configuration of one arm of a setting, for one seed. */
export function armConfig(setting, arm, seed) {
  const base = DK_SETTINGS[setting];
  if (!base) throw new Error(`setting (${setting}) must be one of ${DK_SETTING_NAMES.join(', ')}`);
  if (!DK_ARMS.includes(arm)) throw new Error(`arm (${arm}) must be one of ${DK_ARMS.join(', ')}`);
  return {
    ...base,
    seed,
    scale: arm === 'scaled',
    ...(arm === 'control' && { queryKeyInit: base.dK ** -0.25 }),
  };
}

/** A step's row as the page plots it: the gradient at the softmax's input is the engine's
 * ‖∂L/∂(q·kᵀ)‖ times √d_k where the model divides by √d_k (the chain rule through the ÷). */
export function armRow(row, config) {
  return {
    step: row.step,
    loss: row.loss,
    entropy: row.attentionEntropy,
    gradient: row.scoreGradientNorm * (config.scale ? Math.sqrt(config.dK) : 1),
  };
}

/** A setting of dk-runs.json with its rows as objects ([step, loss, entropy, gradient] there). */
export function storedRuns(stored) {
  return Object.fromEntries(
    Object.entries(stored.arms).map(([arm, runs]) => [
      arm,
      runs.map((run) => ({
        ...run,
        rows: run.rows.map(([step, loss, entropy, gradient]) => ({ step, loss, entropy, gradient })),
      })),
    ]),
  );
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
};
const range = (values) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });
const geometricMean = (values) =>
  Math.exp(values.reduce((s, v) => s + Math.log(Math.max(v, 1e-30)), 0) / values.length);

/** Per step, for each metric, the range over the seeds: [{ step, loss: {median,min,max}, … }]. */
export function bands(runs) {
  const steps = runs[0].rows.map((r) => r.step);
  return steps.map((step, i) => {
    const at = runs.map((run) => run.rows[i]);
    return {
      step,
      loss: range(at.map((r) => r.loss)),
      entropy: range(at.map((r) => r.entropy)),
      gradient: range(at.map((r) => r.gradient)),
    };
  });
}

/**
 * The numbers the page's sentences are made of, for one setting's runs
 * ({ scaled: [{ seed, rows, exactMatch }], unscaled: […], control: […] }):
 * exact match at the end; the entropy at the first recorded step after 0 and at the end; the
 * gradient at the softmax's input as a geometric mean over the run, per seed.
 */
export function summarize(arms) {
  const out = {};
  for (const arm of DK_ARMS) {
    const runs = arms[arm];
    out[arm] = {
      seeds: runs.length,
      exactMatch: range(runs.map((r) => r.exactMatch)),
      earlyEntropy: range(runs.map((r) => r.rows[1].entropy)),
      earlyStep: runs[0].rows[1].step,
      entropy: range(runs.map((r) => r.rows.at(-1).entropy)),
      loss: range(runs.map((r) => r.rows.at(-1).loss)),
      gradient: range(runs.map((r) => geometricMean(r.rows.slice(1).map((row) => row.gradient)))),
    };
  }
  return out;
}

const pct = (v) => `${Math.round(v * 100)}%`;

/**
 * The held-out exact-match table's body, one row per arm: [its name, the committed seeds' median
 * (range), this run's once it has ended (`view.exactMatch`), else "—"]. `t`: the page's strings.
 */
export function experimentTable(view, summary, t) {
  return DK_ARMS.map((arm) => {
    const m = summary[arm].exactMatch;
    return [
      t.dkArm[arm],
      `${pct(m.median)} (${pct(m.min)}–${pct(m.max)})`,
      view.exactMatch ? pct(view.exactMatch[arm]) : '—',
    ];
  });
}

/** Below this mean entropy (nats) a softmax row is as good as one-hot: saturated. */
export const SATURATED_ENTROPY = 0.1;
/** A gradient this many times smaller than the scaled model's has vanished. */
export const VANISHED_RATIO = 100;

/**
 * What the numbers say, as facts the page words in each language:
 * - faster: does the scaled arm end with more exact matches than the unscaled one for every
 *   seed (its worst above the unscaled arm's best)?
 * - saturated: is the unscaled softmax saturated early (mean entropy < SATURATED_ENTROPY)?
 * - vanished: is the unscaled gradient at the softmax's input VANISHED_RATIO times smaller
 *   (geometric means over the run, medians over seeds)? Else the ratio, "of the same order".
 * - control: which arm the control's exact match is nearer to ('unscaled': the difference comes
 *   from training, the start being the same function; 'scaled': it comes from the start).
 */
export function findings(summary) {
  const { scaled, unscaled, control } = summary;
  const ratio = scaled.gradient.median / unscaled.gradient.median;
  const toScaled = Math.abs(control.exactMatch.median - scaled.exactMatch.median);
  const toUnscaled = Math.abs(control.exactMatch.median - unscaled.exactMatch.median);
  return {
    faster: scaled.exactMatch.min > unscaled.exactMatch.max,
    saturated: unscaled.earlyEntropy.median < SATURATED_ENTROPY,
    vanished: ratio >= VANISHED_RATIO,
    gradientRatio: ratio,
    control: toUnscaled <= toScaled ? 'unscaled' : 'scaled',
  };
}
