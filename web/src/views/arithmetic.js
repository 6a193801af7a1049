// A picked cell's arithmetic with the engine's numbers (the stage's and the matrices view's
// cells are picked by click or Enter). A score S[i, j] of head h: q_i · k_j term by term,
// ÷√d_k and ÷T as the state has them, the mask, and softmax over row i with its sum. An output
// cell head_h[i, c]: the value rows V[j] weighted by A[i, j], summing to the engine's output
// row. Every other matrix: arithmetic-inputs.js. One table, KINDS, says what each step's
// cells read and how they are explained.
import { rowRequest, stepRequest, WHOLE } from '../requests.js';
import { formatValue } from '../format.js';
import { el, line, num, section, table } from './arithmetic-dom.js';
import { INPUT_KINDS } from './arithmetic-inputs.js';
import { LINEAR_KINDS } from './arithmetic-linear.js';
import { stepInfo, stepShape, traceHas } from '../step-shapes.js';

// Past this many value rows the output's sum lists the strongest ones and totals the rest.
const MAX_ROWS = 32;

const score = {
  kind: 'score',
  requests: ({ head: h, i, j }) => [
    rowRequest('qHead', h, i),
    rowRequest('kHead', h, j),
    rowRequest('scores', h, i),
    rowRequest('scaled', h, i),
    rowRequest('masked', h, i),
    rowRequest('weights', h, i),
  ],
  draw: (trace, s, cell, state) => scoreArithmetic(trace, state, s, cell),
};

const output = {
  kind: 'output',
  requests: ({ head: h, i }) => [
    rowRequest('weights', h, i),
    stepRequest('vHead', h, WHOLE),
    rowRequest('headOutput', h, i),
  ],
  draw: (trace, s, cell) => outputArithmetic(trace, s, cell),
};

/**
 * Step name → { requests(cell, sizes), draw(trace, strings, cell, state) }; a step's shape and
 * whether it has a matrix per head are the engine's catalog's (step-shapes.js).
 */
const KINDS = new Map(
  Object.entries({
    scores: score,
    scaled: score,
    masked: score,
    weights: score,
    headOutput: output,
    ...INPUT_KINDS,
  }),
);

const LINEAR = new Map(Object.entries(LINEAR_KINDS));

/** The kind of a step's cells in a trace of these sizes: linear attention's own where it has one. */
const kindOf = (name, sizes) => (sizes?.attention === 'linear' && LINEAR.get(name)) || KINDS.get(name);

/**
 * Whether `cell` is inside a trace of these sizes ({ heads, nQuery, nKey, dModel, dK, cross }):
 * a cell set through the store (window.attentionExplorer.store) may be anything.
 */
function inside(cell, sizes) {
  // A cell of a step this trace lacks (cross-attention's, once the second sentence is gone) is let go.
  if (!kindOf(cell.name, sizes) || !traceHas(cell.name, sizes)) return false;
  const [rows, cols] = stepShape(cell.name, sizes);
  const index = (k, n) => Number.isInteger(k) && k >= 0 && k < n;
  return index(cell.head, stepInfo(cell.name).perHead ? sizes.heads : 1) && index(cell.i, rows) && index(cell.j, cols);
}

/** What the picked cell's arithmetic reads; cell: { name, head, i, j } or null. */
export function arithmeticRequests(cell, sizes) {
  return cell && inside(cell, sizes) ? kindOf(cell.name, sizes).requests(cell, sizes) : [];
}

/**
 * The cell { name, head, i, j, view } that a click on (row, col) of a drawn operand (stage.js)
 * picks, or null where its step has no arithmetic. view: where its panel is shown, 'stage' (under
 * the stage) or a view's key (in that view, e.g. 'matrices').
 */
export function pickedFrom(operand, row, col, view) {
  const { step } = operand;
  if (!KINDS.has(step.name) && !LINEAR.has(step.name)) return null;
  // A transposed operand (Kᵀ) is drawn with rows and columns swapped.
  const [i, j] = operand.transpose ? [col, row] : [row, col];
  return { name: step.name, head: step.head ?? 0, i, j, view };
}

/** state.cell if its panel is shown in `view` ('stage' when it names none), else null. */
export const cellIn = (state, view) => (state.cell && (state.cell.view ?? 'stage') === view ? state.cell : null);

function scoreArithmetic(trace, state, s, { head: h, i, j }) {
  const q = trace.row('qHead', h, i);
  const k = trace.row('kHead', h, j);
  const scores = trace.row('scores', h, i);
  const scaled = trace.row('scaled', h, i);
  const masked = trace.row('masked', h, i);
  const weights = trace.row('weights', h, i);
  const dK = q.length;
  const products = Array.from(q, (v, m) => v * k[m]);
  const parts = [];
  // Sections numbered as they are shown: no "3. Mask" when nothing is masked.
  let shown = 0;
  const numbered = (title) => `${++shown}. ${title}`;

  parts.push(
    section(
      numbered(s.dotProduct(dK)),
      table([
        { label: s.termIndex, values: products.map((_, m) => String(m)), cls: 'index' },
        { label: `q (${trace.tokens[i]})`, values: Array.from(q) },
        { label: `k (${trace.kvTokens[j]})`, values: Array.from(k) },
        { label: s.product, values: products },
      ]),
      line(`${s.sum}: S[${i}, ${j}] = `, num('strong', scores[j], { 'data-term': 'score' })),
    ),
  );

  // ÷√d_k and ÷T as the engine applied them (docs/computation.md: scaled = scores · α).
  const t = state.temperature;
  const title = state.scale
    ? t !== 1
      ? s.scaleOnTemperature(dK)
      : s.scaleOn(dK)
    : t !== 1
      ? s.scaleOffTemperature
      : s.scaleOff;
  const steps = [num('span', scores[j])];
  if (state.scale) steps.push(` ÷ √${dK} (${formatValue(Math.sqrt(dK))})`);
  if (t !== 1) steps.push(` ÷ T (${formatValue(t)})`);
  steps.push(' = ', num('strong', scaled[j], { 'data-term': 'scaled' }));
  parts.push(section(numbered(title), line(...steps)));

  if (state.mask !== 'none' || masked[j] === -Infinity) {
    const isMasked = masked[j] === -Infinity;
    parts.push(
      section(
        numbered(s.maskTitle),
        line(
          num('span', scaled[j]),
          isMasked ? ' + (−∞) = ' : ' + 0 = ',
          num('strong', masked[j], { 'data-term': 'masked' }),
          ` — ${isMasked ? s.maskedNote : s.visibleNote}`,
        ),
      ),
    );
  }

  // Softmax recomputed here in float64 from the engine's masked scores, beside the engine's weights.
  let max = -Infinity;
  for (const v of masked) if (v > max) max = v;
  const shifted = Array.from(masked, (v) => (v === -Infinity ? -Infinity : v - max));
  const exps = shifted.map((v) => (v === -Infinity ? 0 : Math.exp(v)));
  const sum = exps.reduce((a, b) => a + b, 0);
  parts.push(
    section(
      numbered(s.softmaxTitle(masked.length)),
      table(
        [
          { label: s.keyRow, values: trace.kvTokens.slice(0, masked.length), cls: 'index' },
          { label: s.scoreRow, values: Array.from(masked) },
          { label: s.shiftedRow, values: shifted },
          { label: s.expRow, values: exps },
          { label: s.weightRow, values: Array.from(weights) },
        ],
        { mark: j },
      ),
      line(s.softmaxSum(formatValue(sum), formatValue(exps[j])), num('strong', weights[j], { 'data-term': 'weight' })),
    ),
  );
  return { title: s.scoreTitle(h + 1, trace.tokens[i], trace.kvTokens[j]), parts };
}

function outputArithmetic(trace, s, { head: h, i, j: c }) {
  const weights = trace.row('weights', h, i);
  const v = trace.step('vHead', h, WHOLE);
  const out = trace.row('headOutput', h, i);
  const dK = v.cols;
  const order = Array.from(weights, (_, j) => j);
  if (order.length > MAX_ROWS) order.sort((a, b) => weights[b] - weights[a]);
  const shown = order.slice(0, MAX_ROWS).sort((a, b) => a - b);
  const rest = order.slice(MAX_ROWS);
  const head = [s.weightCol, ...Array.from({ length: dK }, (_, m) => `V[j, ${m}]`)];
  const t = el('table', { class: 'arith-table output' });
  const tr = el('tr', { class: 'index' });
  tr.append(el('th', {}, 'j'), ...head.map((text, k) => el('th', { class: k - 1 === c ? 'marked' : '' }, text)));
  t.append(tr);
  for (const j of shown) {
    const row = el('tr', { 'data-j': j });
    row.append(el('th', { scope: 'row' }, `${j} ${trace.kvTokens[j]}`), num('td', weights[j]));
    for (let m = 0; m < dK; m++) {
      const cell = num('td', v.data[j * dK + m]);
      if (m === c) cell.classList.add('marked');
      row.append(cell);
    }
    t.append(row);
  }
  const total = el('tr', { class: 'total' });
  total.append(el('th', { scope: 'row' }, s.resultRow), el('td', {}, ''));
  for (let m = 0; m < dK; m++) {
    const cell = num('td', out[m], m === c ? { 'data-term': 'output' } : {});
    if (m === c) cell.classList.add('marked');
    total.append(cell);
  }
  t.append(total);
  const parts = [
    section(s.outputFormula(h + 1), el('div', { class: 'arith-scroll' }).appendChild(t).parentNode),
    section(
      `head${h + 1}[${i}, ${c}]`,
      line(
        shown.map((j, k) => `${formatValue(weights[j])} × ${formatValue(v.data[j * dK + c])}`).join(' + '),
        rest.length ? ' + …' : '',
        ' = ',
        num('strong', out[c]),
      ),
      ...(rest.length ? [line(s.rowsLeft(rest.length, formatValue(rest.reduce((a, j) => a + weights[j], 0))))] : []),
    ),
  ];
  return { title: s.outputTitle(h + 1, trace.tokens[i]), parts };
}

/**
 * Fills `root` with the arithmetic of `state.cell` when it is shown in `view` (cellIn), else hides it.
 * @param onClose called by the panel's close button
 */
export function drawArithmetic(root, trace, state, s, onClose, view = 'stage') {
  const cell = cellIn(state, view);
  const valid = cell && trace && inside(cell, trace);
  // (Each keystroke draws here: a closed panel is left as it is.)
  if (root.hidden === Boolean(valid)) root.hidden = !valid;
  if (!valid) {
    if (root.firstChild) root.replaceChildren();
    return;
  }
  const kind = kindOf(cell.name, trace);
  const { title, parts } = kind.draw(trace, s, cell, state);
  const close = el('button', { type: 'button', class: 'arith-close' }, s.closeArithmetic);
  close.addEventListener('click', onClose);
  const header = el('div', { class: 'arith-header' });
  header.append(el('h3', { class: 'arith-title' }, title), close);
  root.dataset.kind = kind.kind ?? 'input';
  root.dataset.step = cell.name;
  root.dataset.head = cell.head;
  root.dataset.i = cell.i;
  root.dataset.j = cell.j;
  root.replaceChildren(header, ...parts);
}
