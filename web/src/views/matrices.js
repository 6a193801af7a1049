// The matrices view: every matrix of the computation in order (with cross-attention's second
// sentence after X'), one head's output, on two shared and stated colour scales (activations
// X … O on one, the weights W_Q … W_O on another), so that a colour means the same number in
// every matrix it is compared with; Q, K, V and Concat banded by head; PE's waves below them.
import * as d3 from 'd3';
import { FIGURE_LABEL_ROOM, measureMatrix } from './matrix.js';
import { drawColumnLegend, measureColumnLegend } from './legend.js';
import { drawStage, NUMBER_CELL } from './stage.js';
import { drawPositional } from './positional.js';
import { headColor, signedColor, stepMaxAbs } from '../scales.js';
import { putAttrs } from '../dom.js';
import { fitSvg } from './fit.js';
import { addsPositionalEncoding } from '../state.js';
import { cellIn, drawArithmetic, pickedFrom } from './arithmetic.js';
import { nodeLocal } from '../node-local.js';
import { stepAt } from '../steps.js';
import { STEPS } from '../catalog.js';
import { traceHas } from '../step-shapes.js';
import { stepRequest } from '../requests.js';

// A cell was picked here since the last draw: its arithmetic panel is scrolled into view.
const reveal = nodeLocal();

// The title of each step the view draws. Which of them a trace has and their order are the
// engine's catalog (catalog.js): cross-attention's second sentence after X', linear attention's
// own matrices (one head's each) after V.
const TITLES = {
  x: 'X',
  pe: 'PE',
  xPe: "X'",
  xKv: 'X_kv',
  peKv: 'PE_kv',
  xPeKv: "X'_kv",
  wQ: 'W_Q',
  wK: 'W_K',
  wV: 'W_V',
  q: 'Q',
  k: 'K',
  v: 'V',
  phiQ: 'φ(Q)',
  phiK: 'φ(K)',
  kvSummary: 'S = φ(K)ᵀV',
  keySum: 'Σ φ(k)',
  normaliser: 'z',
  headOutput: 'head',
  concat: 'Concat',
  wO: 'W_O',
  output: 'O',
};
const DRAWN = STEPS.filter((step) => Object.hasOwn(TITLES, step.name));

/**
 * The matrices of this trace (or its sizes), in order (name, title): with the second sentence's
 * in cross-attention, linear attention's own, and without W_O where the run has no output
 * projection (tutorial mode: O = Concat; the engine still draws a W_O it does not use).
 */
export function matricesOf(trace) {
  const noWO = trace.flops?.outputProjection === 0;
  return DRAWN.filter(({ name }) => traceHas(name, trace) && !(noWO && name === 'wO')).map(({ name }) => [
    name,
    TITLES[name],
  ]);
}

const BANDED = new Set(['q', 'k', 'v', 'concat']);
// Numbers the view prints at most: past them, the matrices with a token axis (X … O, whose
// size grows with the sentence) show colours only, hover still naming each cell's value. Each
// number is a <text> that Chromium styles, lays out and paints anew when it changes.
const NUMBER_BUDGET = 1024;
const WEIGHTS = new Set(['wQ', 'wK', 'wV', 'wO']);
const SUMS = new Set(['kvSummary', 'keySum', 'normaliser']);

/** The head each matrix is read for: only the head output (and linear attention's own) is per head. */
const PER_HEAD = new Set(DRAWN.filter((step) => step.perHead).map((step) => step.name));
export const matrixHead = (name, head) => (PER_HEAD.has(name) ? head : 0);

/**
 * o: { head, width, positionalEncoding, strings, picked: the cell { name, head, i, j } whose
 *      arithmetic the view shows (outlined), or null, onCell(operand, row, col): a cell clicked }
 */
function drawMatrices(svgElement, trace, { head, width, positionalEncoding, strings, picked, onCell }) {
  const svg = d3.select(svgElement);
  const steps = matricesOf(trace).map(([name, title]) => ({
    name,
    title: name === 'headOutput' ? `head ${head + 1}` : PER_HEAD.has(name) ? `${title} (head ${head + 1})` : title,
    step: trace.step(name, matrixHead(name, head)),
  }));
  // Linear attention's sums over the keys (S, Σφ(k), z) grow with the sentence: on the
  // activations' scale they left X … O pale (z of 4 tokens was 38). A third scale of their own.
  const kindOf = (name) => (WEIGHTS.has(name) ? 'weights' : SUMS.has(name) ? 'sums' : 'activations');
  const shared = (kind) =>
    signedColor(Math.max(0, ...steps.filter((s) => kindOf(s.name) === kind).map((s) => stepMaxAbs(s.step))));
  const colors = { weights: shared('weights'), activations: shared('activations'), sums: shared('sums') };
  const cells = steps.reduce((sum, { step }) => sum + step.rows * step.cols, 0);
  const overBudget = cells > NUMBER_BUDGET;
  const operands = steps.map(({ name, title, step }) => ({
    id: name,
    step,
    title,
    color: colors[kindOf(name)],
    animation: 'none',
    columnColor: BANDED.has(name) ? (j) => headColor(Math.floor(j / trace.dK)) : null,
    // Every matrix is a picture of its cells (matrix-image.js) with the numbers printed over it,
    // in a layer of their own (matrix.js drawNumbers): a keystroke adds a row of cells to the nine
    // with a token axis, and as SVG each cell is elements to make, style, lay out and paint, and
    // to paint again whenever anything in the view changes. The weights, which typing does not
    // change, were SVG cells until 2026-12-01 (04e5830): their 256 cells (d_model 8) were painted
    // again on every keystroke.
    picture: true,
    // (The weights print theirs wherever they fit, and where they do not, keep the gaps between
    // their cells that they had as SVG cells before.)
    numbers: WEIGHTS.has(name) || !overBudget,
    gaps: WEIGHTS.has(name),
  }));
  // The matrices are drawn into a <g>, and the svg is sized for them and the waves by fitSvg.
  const drawing = svg
    .selectAll('g.matrices-stage')
    .data([0])
    .join((enter) => enter.append('g').attr('class', 'matrices-stage'));
  const { width: w, height } = drawStage(drawing, operands, {
    width,
    stepKey: 'matrices',
    // Cells that print two significant digits of every value (stage.js NUMBER_CELL) where each
    // matrix fits its line: at 24 px a minus and two digits did not fit, and most negative
    // numbers were "…".
    maxCell: 32,
    legend: {},
    picked,
    onCell,
  });
  // PE's waves under the matrices, where PE is one of them.
  const waves = svg
    .selectAll('g.matrices-pe')
    .data(positionalEncoding ? [0] : [])
    .join((enter) => enter.append('g').attr('class', 'matrices-pe'))
    .call(putAttrs, { transform: `translate(0,${height + 16})` });
  if (!positionalEncoding) {
    fitSvg(svgElement, w, height);
    return;
  }
  const pe = steps.find((s) => s.name === 'pe').step;
  const extra = drawPositional(waves, pe, { width: Math.min(w, 640), strings, tokens: trace.tokens });
  fitSvg(svgElement, w, height + extra + 24);
}

/**
 * The matrix step `step` makes, of its stage's operands (steps.js): the first after an "=" or
 * "→" (step 2's Q, step 7's weights), else the last; the one marked `result` before all.
 */
export function resultOf(operands) {
  // An operand may say it is the result (linear attention's step 7: softmax's weights ↔ the implied ones).
  const marked = operands.find((o) => o.result);
  if (marked) return marked;
  const at = operands.findIndex((o) => o.op && /[=→]/.test(o.op));
  return operands.slice(at + 1).find((o) => o.step) ?? operands.filter((o) => o.step).at(-1);
}

// A figure's cells at most (px, before the frame scales it): larger than the page's, so that the
// frame scales them up less.
const FIGURE_CELL = 44;
// What the frame keeps besides the drawing: its caption's line and margins (compact-fit.js).
const CAPTION_ROOM = 48;
const MARGINS = 16;
// The gap between the matrix and its legend (px).
const LEGEND_GAP = 28;

/**
 * The compact figure's matrices view: the one matrix the step makes (its head's, the first for
 * all heads, as the stage), with its colour legend a bar beside it, as tall as its cells. All
 * thirteen scaled to a 900 × 506 frame printed 7 px numbers, most of them "…"; a legend at its
 * top right left an empty band under it. Its cells are as large as lets the frame show it at
 * scale 1 or more (its 12 px title at 12 px or more), up to 44 px. Its rows are labelled with their tokens
 * wherever the stage leaves them to the matrix beside it (step 2's Q showed no tokens).
 */
function drawStepMatrix(svgElement, trace, state, head, width, strings, frame) {
  const svg = d3.select(svgElement);
  svg.selectAll('g.matrices-pe').remove();
  const one = resultOf(stepAt(state.step, state).operands(trace, head, state));
  const drawing = svg
    .selectAll('g.matrices-stage')
    .data([0])
    .join((enter) => enter.append('g').attr('class', 'matrices-stage'));
  const legend = { label: one.title, hatchLabel: one.masked ? strings.masked : null };
  const key = measureColumnLegend(one.color.domain, legend);
  const room = { width: frame.width - MARGINS, height: frame.height - CAPTION_ROOM };
  const at = (cell) =>
    measureMatrix(one.step, { cell, title: one.title, transpose: one.transpose, labelRoom: FIGURE_LABEL_ROOM });
  const fits = (cell) => {
    const m = at(cell);
    return (
      m.width + LEGEND_GAP + key.width <= room.width &&
      Math.max(m.height, m.top + m.rows * cell + key.below + 8) <= room.height
    );
  };
  let most = FIGURE_CELL;
  while (most > NUMBER_CELL && !fits(most)) most -= 2;
  const { cell } = drawStage(drawing, [{ ...one, animation: 'none', labelRoom: FIGURE_LABEL_ROOM, rowLabels: true }], {
    width,
    stepKey: 'figure',
    maxCell: most,
  });
  const matrix = at(cell);
  const beside = drawing
    .selectAll('g.legend-beside')
    .data([0])
    .join((enter) => enter.append('g').attr('class', 'legend-beside'));
  const drawn = drawColumnLegend(beside, one.color, one.color.domain, { ...legend, height: matrix.rows * cell });
  // Level with the cells; the label above them may rise over the matrix's top.
  const top = Math.max(0, drawn.top - matrix.top);
  putAttrs(drawing, { transform: `translate(0,${top})` });
  const x = matrix.width + LEGEND_GAP;
  putAttrs(beside, { transform: `translate(${x},${matrix.top - drawn.top})` });
  fitSvg(
    svgElement,
    x + drawn.width + 4,
    top + Math.max(matrix.height, matrix.top + matrix.rows * cell + drawn.below + 8) + 4,
  );
}

/** The matrices view, drawn from the registry's one context argument (views/registry.js). */
export function drawMatricesView({ trace, state, strings, el, head, width, set, figure }) {
  const panel = el('matrices-arithmetic');
  if (figure) {
    panel.hidden = true;
    drawStepMatrix(el('matrices'), trace, state, head, width, strings, figure);
    return;
  }
  drawMatrices(el('matrices'), trace, {
    head,
    width,
    positionalEncoding: addsPositionalEncoding(state),
    strings,
    // A cell clicked here shows its arithmetic here, under the matrices, not
    // under the stage: an embed may show the views alone.
    picked: cellIn(state, 'matrices'),
    onCell: (operand, row, col) => {
      const cell = pickedFrom(operand, row, col, 'matrices');
      if (!cell) return;
      reveal.set(panel, true);
      set({ cell });
    },
  });
  drawArithmetic(panel, trace, state, strings, () => set({ cell: null }), 'matrices');
  // Under a tall drawing the panel may start below the window: the picked cell's panel is brought into it.
  if (reveal.get(panel) && !panel.hidden) panel.scrollIntoView({ block: 'nearest' });
  reveal.set(panel, false);
}

// The view's descriptor, which views/registry.js lists (the registry describes each field).
export const MATRICES_VIEW = {
  key: 'matrices',
  strings: {
    en: {
      name: 'Matrices',
      hint: 'Every matrix of this run. Hover a cell for its exact value and index; click it (or focus it and press Enter) to see its arithmetic.',
    },
    zh: {
      name: '矩阵',
      hint: '本次计算的所有矩阵。悬停查看精确数值和下标；点击格子（或聚焦后按回车）查看它的计算过程。',
    },
  },
  panel:
    '<p class="hint" data-i18n="matricesHint"></p><p class="hint" data-i18n="sharedScales"></p><svg data-role="matrices" class="matrices-svg" role="img"></svg><div data-role="matrices-arithmetic" class="arithmetic" aria-live="polite" hidden></div>',
  role: 'matrices',
  exported: '[data-role=matrices]',
  requests: ({ trace, head }) => matricesOf(trace).map(([name]) => stepRequest(name, matrixHead(name, head))),
  draw: drawMatricesView,
};
