// What the page keeps of a training run, as plain data the charts are drawn from: metric series
// ([[step, value], …]), the attention snapshots the slider scrubs through, and the head-score
// series of every layer and head. Bounded: snapshots are thinned by half when full.

export const MAX_SNAPSHOTS = 240;
/** The held-out exact match the page calls learned: its first crossing is marked on the curves. */
export const TARGET = 0.95;

/** The step of the first held-out measurement at or above `target`, or null (none yet). */
export function reachedAt(history, target = TARGET) {
  return history.heldOut.find(([, value]) => value >= target)?.[0] ?? null;
}

/** How far (nats per token) the held-out loss must climb from its lowest before it is said to rise. */
export const RISE = 0.1;

const meanBefore = (series, step, count = 5) => {
  const rows = series.filter(([s]) => s <= step).slice(-count);
  return rows.length ? rows.reduce((sum, [, v]) => sum + v, 0) / rows.length : null;
};

/**
 * Whether a text model is memorising its text: its held-out loss has climbed (by RISE) from its
 * lowest and now lies above the text's unigram line, while its training loss kept falling since
 * that lowest point. On a short text the sample then recites the text: the page says so.
 */
export function memorising({ loss, heldOutLoss, baselines }) {
  if (!baselines || heldOutLoss.length < 2 || !loss.length) return false;
  const [lowStep, low] = heldOutLoss.reduce((best, point) => (point[1] < best[1] ? point : best));
  const now = heldOutLoss.at(-1)[1];
  if (now <= baselines.unigram || now < low + RISE) return false;
  const trainAtLow = meanBefore(loss, lowStep);
  const trainNow = meanBefore(loss, Infinity);
  return trainAtLow !== null && trainNow < trainAtLow;
}

export function emptyHistory() {
  return {
    loss: [],
    accuracy: [],
    heldOut: [],
    // A text model's: the held-out loss over steps, and the text's unigram and bigram baselines.
    heldOutLoss: [],
    baselines: null,
    snapshots: [],
    induction: [],
    previousToken: [],
    lastEvaluation: null,
  };
}

/** Adds a progress message of the worker (rows of metrics, a snapshot, head scores, an evaluation). */
export function record(history, { rows, snapshot, step, heads, evaluation }) {
  for (const row of rows) {
    history.loss.push([row.step, row.loss]);
    history.accuracy.push([row.step, row.accuracy]);
  }
  if (evaluation) {
    if (evaluation.heldOutLoss !== undefined) history.heldOutLoss.push([evaluation.step, evaluation.heldOutLoss]);
    else history.heldOut.push([evaluation.step, evaluation.exactMatch]);
    history.lastEvaluation = evaluation;
  }
  if (snapshot) {
    const last = history.snapshots.at(-1);
    if (last && last.step === step) history.snapshots[history.snapshots.length - 1] = { step, snapshot };
    else history.snapshots.push({ step, snapshot });
    if (history.snapshots.length > MAX_SNAPSHOTS) {
      // Keep the first, every second one after it, and the newest.
      history.snapshots = history.snapshots.filter((_, i, all) => i % 2 === 0 || i === all.length - 1);
    }
  }
  if (heads) {
    for (const [name, grid] of [
      ['induction', heads.induction],
      ['previousToken', heads.previousToken],
    ]) {
      // The engine's induction grid is null for modular addition (no answer is in the input).
      grid?.forEach((row, l) =>
        row.forEach((value, h) => {
          const i = l * row.length + h;
          history[name][i] ??= { layer: l, head: h, points: [] };
          history[name][i].points.push([step, value]);
        }),
      );
    }
  }
}
