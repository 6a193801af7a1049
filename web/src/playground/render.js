// Drawing the playground's data into its markup: the curves, the heatmap grids, the head-score
// charts (the √d_k experiment's are dk-panel.js's). Functions of (root, data, strings); they never talk to the worker.
import { headColor } from '../scales.js';
import { drawLines } from './curves.js';
import { drawHeatmaps } from './heatmaps.js';
import { memorising, reachedAt } from './history.js';
import { drawPager, heatmapPage } from './pager.js';
import { setText } from './text.js';

export { setText };

const SCALED = '#0072B2';
const UNSCALED = '#D55E00';
const HELD_OUT = '#009E73';

const visibleToken = (token) => (token === ' ' ? '␣' : token === '\n' ? '↵' : token);
const $ = (root, role) => root.querySelector(`[data-role="${role}"]`);
const percent = (v) => `${(v * 100).toFixed(1)}%`;

const REFERENCE = '#999999';

/** A text model's curves: its losses against the text's unigram and bigram (flat lines). */
function drawTextCurves(root, history, t) {
  const { unigram, bigram } = history.baselines;
  const last = history.loss.at(-1)?.[0] ?? 0;
  const flat = (value) => [
    [0, value],
    [Math.max(1, last), value],
  ];
  drawLines($(root, 'loss-chart'), {
    title: t.loss,
    series: [
      { label: t.trainLoss, color: SCALED, points: history.loss },
      { label: t.heldOutLoss, color: HELD_OUT, dash: '4 3', dots: true, points: history.heldOutLoss },
      { label: t.unigram, color: REFERENCE, dash: '2 3', points: flat(unigram) },
      { label: t.bigram, color: UNSCALED, dash: '6 3', points: flat(bigram) },
    ],
    log: true,
  });
  drawLines($(root, 'accuracy-chart'), {
    title: t.accuracy,
    yDomain: [0, 1],
    series: [{ label: t.nextTokenRight, color: SCALED, points: history.accuracy }],
  });
  const e = history.lastEvaluation;
  const f = (v) => v.toFixed(3);
  setText(
    $(root, 'held-out'),
    e ? `${t.heldOutLine(f(e.heldOutLoss), f(unigram), f(bigram))} (${t.stepCount(e.step)})` : '',
  );
  // A short text's model learns the text by heart: said beside the held-out loss, not left to the curves.
  const note = $(root, 'memorising');
  note.hidden = !memorising(history);
  setText(note, note.hidden ? '' : t.memorising);
}

/**
 * The curves of a task; where held-out exact match first reached 95%, a mark on the accuracy
 * chart and, while `playing`, the offer to stop beside it.
 */
export function drawCurves(root, history, t, playing = false) {
  const reached = history.baselines ? null : reachedAt(history);
  $(root, 'reached').hidden = reached === null;
  if (reached !== null) setText($(root, 'reached-text'), t.reached(reached));
  $(root, 'stop').hidden = !playing;
  if (history.baselines) return drawTextCurves(root, history, t);
  drawLines($(root, 'loss-chart'), {
    title: t.loss,
    series: [{ label: t.loss, color: SCALED, points: history.loss }],
    log: true,
  });
  drawLines($(root, 'accuracy-chart'), {
    title: t.accuracy,
    yDomain: [0, 1],
    marks: reached === null ? [] : [{ x: reached, label: t.reached(reached) }],
    series: [
      { label: t.trainAccuracy, color: SCALED, points: history.accuracy },
      { label: t.heldOut, color: HELD_OUT, dash: '4 3', dots: true, points: history.heldOut },
    ],
  });
  const e = history.lastEvaluation;
  setText($(root, 'held-out'), e ? `${t.heldOut}: ${percent(e.exactMatch)} (${t.stepCount(e.step)})` : '');
}

/**
 * The snapshot at slider position `index` (the newest when null), with its label; its heatmaps'
 * page `pageIndex` (heatmapPages), painted until `deadline`: true once done.
 */
/** One caption function per snapshot and language (the heatmaps repaint a figure whose caption
 * function changes): "layer 1, head 2", and a text model's head role on the excerpt. */
const captions = new WeakMap();
function labelOf(snapshot, t) {
  if (!snapshot.roles) return t.layerHead;
  const kept = captions.get(snapshot);
  if (kept?.t === t) return kept.label;
  const label = (l, h) => {
    const role = snapshot.roles[l * snapshot.heads + h];
    return role ? `${t.layerHead(l, h)} · ${t.roles[role]}` : t.layerHead(l, h);
  };
  captions.set(snapshot, { t, label });
  return label;
}

export function drawSnapshot(root, history, index, t, pageIndex = 0, deadline = Infinity) {
  const all = history.snapshots;
  if (!all.length) return true;
  const i = index === null ? all.length - 1 : Math.min(index, all.length - 1);
  const scrub = $(root, 'scrub');
  scrub.max = String(all.length - 1);
  scrub.value = String(i);
  const { step, snapshot } = all[i];
  const text = `${t.snapshotAt(step)}${index === null ? ` (${t.live})` : ''}`;
  setText($(root, 'scrub-label'), text);
  scrub.setAttribute('aria-valuetext', text);
  const paged = heatmapPage(snapshot, pageIndex);
  drawPager(root, snapshot, paged, t);
  // A text model's tokens can be a space or a line break: shown as ␣ and ↵.
  setText($(root, 'sequence'), snapshot.tokens.map(visibleToken).join(' '));
  return drawHeatmaps($(root, 'heatmap-grid'), snapshot, labelOf(snapshot, t), paged.page, deadline);
}

export function drawHeadScores(root, history, t) {
  const series = (list) =>
    list.map((s) => ({
      label: t.layerHead(s.layer, s.head),
      color: headColor(s.layer * 4 + s.head),
      dash: s.layer ? null : '4 3',
      points: s.points,
    }));
  drawLines($(root, 'induction-chart'), { title: t.induction, yDomain: [0, 1], series: series(history.induction) });
  drawLines($(root, 'previous-chart'), {
    title: t.previousToken,
    yDomain: [0, 1],
    series: series(history.previousToken),
  });
}

/** The model's answer and its attention: the heatmaps' page `pageIndex`, as the grid above. */
export function drawAnswer(root, message, t, pageIndex = 0, deadline = Infinity) {
  $(root, 'answer').hidden = false;
  const right =
    message.expected &&
    message.expected.length === message.answer.length &&
    message.expected.every((s, i) => s === message.answer[i]);
  const answerText = $(root, 'answer-text');
  answerText.textContent = `${message.answer.join(' ')}${message.expected ? ` — ${right ? t.correct : t.wrong}` : ''}`;
  answerText.dataset.correct = message.expected ? String(right) : '';
  $(root, 'expected-text').textContent = message.expected ? message.expected.join(' ') : '–';
  const { page } = heatmapPage(message.snapshot, pageIndex);
  return drawHeatmaps($(root, 'answer-grid'), message.snapshot, t.layerHead, page, deadline);
}

/** The experiment's rows: [{ step, scaled: { loss, entropy, gradient }, unscaled: { … } }]. */
