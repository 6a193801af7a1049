// A matrix as a grid of coloured cells with its name, shape and token labels. Small
// matrices are SVG cells (numbers printed when they fit); large ones one <image> drawn on a
// canvas. Hovering or focusing a cell shows its exact value and index.
import * as d3 from 'd3';
import { formatValue } from '../format.js';
import { hideTooltip, showTooltip } from '../tooltip.js';
import { duration, typing } from '../motion.js';
import { afterFrame, drawNowOrLater } from '../frames.js';
import { fitText, textWidth, writesVertically } from './text.js';
import { arrowStep, forgetOne, put, putAttrs, putClass, remember, setTexts } from '../dom.js';
import { cellText, fillsOf, inkOn } from './cell-style.js';
import { drawAsImage, drawPooled, removePicture } from './matrix-image.js';
import { roomFor } from './fit.js';
import { nodeLocal } from '../node-local.js';
import { setFigure } from './figures.js';
import { wordsAt } from './cell-words.js';

// What a grid's draw leaves for later and for its listeners (made once), per node (node-local.js): a
// cell <g>'s last look { look, v, masked, picked, tab, fill }, a number's ink, and on the cells'
// <g> the numbers' sizes, the cells whose numbers wait for the next frame, the cells in order
// { rows, cols, nodes }, the listeners' { m, onCell, tooltipLines }, whether they are made, and
// the keyboard's cell { i, j } (the grid's one tab stop).
const cellDrawn = nodeLocal();
const inkOf = nodeLocal();
const numbersOf = nodeLocal();
const pendingOf = nodeLocal();
const cellsOf = nodeLocal();
const gridOf = nodeLocal();
const listening = nodeLocal();
const currentOf = nodeLocal();
// The numbers layer's height with room to spare (fit.js roomFor).
const numberRooms = nodeLocal();

// A digit is at most 0.64 em wide in the page's fonts (DejaVu Sans, the widest); a cell's room is
// counted in digit widths (format.js digitWidths: a minus is 1.32). NUMBER_ROOM is what a cell
// needs to print two significant digits of any value from −9.9 to 99 ("−4.2", "−.42", "<.01";
// stage.js NUMBER_CELL is the cell that holds them). Counting a minus as one digit let "−.37"
// and "6e−3" overflow their cells.
const DIGIT_EM = 0.64;
export const NUMBER_ROOM = 3.82;

/** The room (digit widths, to 0.1) inside a cell of `cell` px for numbers of `fontSize` px. */
const roomIn = (cell, fontSize) => Math.floor(((cell - 3) / (fontSize * DIGIT_EM)) * 10) / 10;

/**
 * Whether every number of `step` prints in `room` (no "…"): checked on its extremes, the values
 * whose text is widest. A grid prints all its numbers or none, never some of them as "…".
 */
function printsAll(step, room) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of step.data) {
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo > hi || (cellText(lo, room) !== '…' && cellText(hi, room) !== '…');
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const SVG_CELL_LIMIT = 4096;
// Past this many cells, a grid too small to print numbers is drawn as one image: thousands of
// SVG cells cost a keystroke tens of milliseconds and show nothing more. (The stage sets its own,
// lower: options.smallCells.)
const SMALL_CELL_LIMIT = 400;
// A picture with cells (drawMatrix's `picture`) covers at most this many px; past them, it is
// one canvas pixel a cell, with no numbers printed.
const PICTURE_PIXELS = 2048 * 1024;
// Cells smaller than this (px) are drawn without gaps: a 1 px gap would be most of the cell.
const MIN_GAP_CELL = 6;
// No text under 11 px (a phone's smallest readable size): labels are 11–13 px whatever the
// cell, and where cells are smaller than a label, only every k-th row or column is labelled.
const LABEL_FONT = 11;
const MAX_LABEL_FONT = 13;
// Rows (and columns, whose labels stand upright) this far apart keep labels from touching.
const LABEL_PITCH = 1.3;
// Below this cell size an axis gets no labels at all (hover names the token): a 2,048-token
// axis would still need hundreds of them (thirteen such matrices: thousands of nodes).
const MIN_LABEL_CELL = 6;

// A figure's column token labels stand up to this tall (px, measureMatrix's labelRoom): scaled as
// a whole, it has the room, and the page's 60 cut "because" to "becau…".
export const FIGURE_LABEL_ROOM = 90;

// Layout measures the same labels dozens of times per draw (2,048 of them at the limit).
const widths = new WeakMap();

function labelWidth(labels) {
  if (!labels) return 0;
  if (!widths.has(labels)) {
    const longest = labels.reduce((m, l) => Math.max(m, textWidth(l, MAX_LABEL_FONT)), 0);
    widths.set(labels, Math.min(90, 8 + longest));
  }
  return widths.get(labels);
}

/** The label font for cells of `cell` px, and every how many rows a label fits. */
function labelSpacing(cell) {
  const font = Math.min(MAX_LABEL_FONT, Math.max(LABEL_FONT, cell * 0.6));
  return { font, every: Math.max(1, Math.ceil((font * LABEL_PITCH) / cell)) };
}

/** Entry delay of cell (i, j) for each kind of animation. */
function delayOf(animation, rows, cols) {
  const total = 900;
  switch (animation) {
    case 'rows':
      return (i) => (i * total) / Math.max(1, rows);
    case 'cols':
      return (i, j) => (j * total) / Math.max(1, cols);
    case 'sweep':
      return (i, j) => ((i * cols + j) * 1600) / Math.max(1, rows * cols);
    default:
      return () => 0;
  }
}

/**
 * drawMatrix's `picked` for one cell (i, j) of the drawn grid: the test, with the cell listed
 * (matrix-image.js drawPicked outlines it on a picture without asking every cell).
 */
export function pickedCell(i, j) {
  const picked = (a, b) => a === i && b === j;
  picked.cells = [{ i, j }];
  return picked;
}

/**
 * Size of the drawing for `step` with `options` (see drawMatrix), without drawing it.
 * labelRoom: the most px a column's token label stands (60).
 */
export function measureMatrix(
  step,
  { cell, title, showRowLabels = true, showColLabels = true, transpose = false, labelRoom = 60 },
) {
  const rows = transpose ? step.cols : step.rows;
  const cols = transpose ? step.rows : step.cols;
  const rowLabels = transpose ? step.colLabels : step.rowLabels;
  const colLabels = transpose ? step.rowLabels : step.colLabels;
  const readable = cell >= MIN_LABEL_CELL;
  const tokenRows = readable && showRowLabels && isTokenAxis(transpose ? step.colsAxis : step.rowsAxis);
  const tokenCols = readable && showColLabels && isTokenAxis(transpose ? step.rowsAxis : step.colsAxis);
  const left = tokenRows ? labelWidth(rowLabels) : 4;
  // (Column labels stand at most `labelRoom` px tall: a figure, scaled as a whole, gives them more.)
  const top = 18 + (tokenCols ? Math.min(labelRoom, labelWidth(colLabels)) : 4);
  // A narrow matrix (Q of d_k 2) is as wide as its title, or the next operand covers the title.
  const titled = title === undefined ? 0 : textWidth(titleText(title, rows, cols), TITLE_FONT) + 6;
  const width = Math.max(left + cols * cell + 2, left + titled);
  return { rows, cols, left, top, width, height: top + rows * cell + 2, tokenRows, tokenCols };
}

// Titles are 12 px bold: estimated a size larger.
const TITLE_FONT = 13;
const titleText = (title, rows, cols) => `${title}  [${rows} × ${cols}]`;

function isTokenAxis(axis) {
  return axis === 'query' || axis === 'key';
}

/**
 * Draws into the <g> selection `g`:
 *  step: { name, rows, cols, data, rowLabels, colLabels, rowsAxis, colsAxis }
 *  options: { cell, color(v) → css, title, transpose, animation: 'none'|'fade'|'rows'|'cols'|'sweep',
 *             numbers: bool, masked(i, j) → bool, columnColor(j) → css|null, onCell(i, j, event),
 *             image: bool (one image whatever the size: the caller's budget of SVG cells is spent),
 *             smallCells: past this many cells, a grid too small for numbers is an image (400),
 *             gaps: such an image keeps the gaps between its cells where the cells are ≥ 6 px }
 */
export function drawMatrix(g, step, options) {
  const { cell, color, title, transpose = false, animation = 'none', numbers = true } = options;
  const m = measureMatrix(step, options);
  const value = transpose ? (i, j) => step.data[j * step.cols + i] : (i, j) => step.data[i * step.cols + j];
  const rowLabels = transpose ? step.colLabels : step.rowLabels;
  const colLabels = transpose ? step.rowLabels : step.colLabels;

  // Through putAttrs and setTexts: a keystroke rewrites no label or title that stays.
  g.selectAll('text.matrix-title')
    .data([title])
    .join((enter) => enter.append('text').attr('class', 'matrix-title').attr('y', 12))
    .call(putAttrs, { x: m.left })
    .call(setTexts, (d) => titleText(d, m.rows, m.cols));

  // Labels as { k, text }: every `every`-th one, cut to the room there is. Column labels stand
  // upright (rotate −90), so that their room is the same whatever their length.
  const { font, every } = labelSpacing(cell);
  // A sparse pattern's global tokens (options.globalTokens): their labels stand out, as their
  // whole row and column are kept.
  const isGlobal = (d) => Boolean(options.globalTokens?.includes(d.k));
  const thinned = (labels, room) =>
    labels.flatMap((text, k) => (k % every ? [] : [{ k, text: fitText(text, room, font) }]));
  g.selectAll('text.row-label')
    .data(m.tokenRows ? thinned(rowLabels, m.left - 6) : [], (d) => d.k)
    .join((enter) => enter.append('text').attr('class', 'row-label'))
    .call(putAttrs, { x: m.left - 4, y: (d) => m.top + d.k * cell + cell / 2, 'font-size': font })
    .call(setTexts, (d) => d.text)
    .call(putClass, 'global', isGlobal);
  g.selectAll('text.col-label')
    .data(m.tokenCols ? thinned(colLabels, m.top - 22) : [], (d) => d.k)
    .join((enter) => enter.append('text').attr('class', 'col-label'))
    .call(putAttrs, {
      // A CJK label is written vertically instead (writesVertically): turned, it lay on its side.
      class: (d) => (writesVertically(d.text) ? 'col-label cjk' : 'col-label'),
      transform: (d) =>
        `translate(${m.left + d.k * cell + cell / 2},${m.top - 4})${writesVertically(d.text) ? '' : ' rotate(-90)'}`,
      'font-size': font,
    })
    .call(putClass, 'global', isGlobal)
    .call(setTexts, (d) => d.text);

  const cellsGroup = g
    .selectAll('g.cells')
    .data([0])
    .join((enter) => enter.append('g').attr('class', 'cells'))
    .call(putAttrs, { transform: `translate(${m.left},${m.top})` });
  const tokenAxes = [transpose ? step.colsAxis : step.rowsAxis, transpose ? step.rowsAxis : step.colsAxis];
  // In the page's language, read when a cell is hovered or focused (never on a keystroke's draw).
  const labelOf = (axis, labels, k, which) =>
    isTokenAxis(axis) ? labels[k] : wordsAt(g.node())[which === 'row' ? 'cellRow' : 'cellCol'](k);
  const tooltipLines = (i, j) => {
    const v = value(i, j);
    const masked = options.masked?.(i, j);
    const w = wordsAt(g.node());
    return [
      `${title}[${i}, ${j}] = ${formatValue(v)}`,
      `${m.tokenRows ? rowLabels[i] : w.cellRow(i)} → ${m.tokenCols ? colLabels[j] : w.cellCol(j)}${masked ? w.cellMasked : ''}`,
    ];
  };

  if (step.pooled) {
    removeCells(cellsGroup.node());
    drawPooled(cellsGroup, m, step, { color, cell, title, transpose, labelOf, tokenAxes, rowLabels, colLabels });
    g.selectAll('rect.band').remove();
    return m;
  }
  // Up to 13 px, but no larger than lets NUMBER_ROOM fit ("−1.2", "−.37": two significant
  // digits) where 11 px does.
  const fontSize = Math.max(11, Math.min(13, cell * 0.36, (cell - 3) / (NUMBER_ROOM * DIGIT_EM)));
  // (The room in digit widths, passed on as `chars`.)
  const chars = roomIn(cell, fontSize);
  const showNumbers = numbers && cell >= 24 && printsAll(step, chars);
  const cellCount = m.rows * m.cols;
  // Cells with gaps where numbers are printed on them; else (a long sentence) one pixel a cell.
  const picture = options.picture && showNumbers && cellCount * cell * cell <= PICTURE_PIXELS;
  // A picture without numbers keeps the gaps between its cells where they show (options.gaps: the
  // stage's, which were SVG cells with gaps up to 400 cells), else it is one pixel a cell.
  const gapped = picture || (options.gaps && cell >= MIN_GAP_CELL && cellCount * cell * cell <= PICTURE_PIXELS);
  if (
    options.picture ||
    options.image ||
    cellCount > SVG_CELL_LIMIT ||
    (cellCount > (options.smallCells ?? SMALL_CELL_LIMIT) && (cell < 24 || !numbers))
  ) {
    removeCells(cellsGroup.node());
    drawAsImage(cellsGroup, m, step, transpose, color, cell, tooltipLines, options.masked, {
      cells: Boolean(gapped),
      onCell: options.onCell,
      picked: options.picked,
    });
    drawNumbers(cellsGroup, m, value, fillsOf(color), options.masked, {
      cell,
      fontSize,
      chars,
      show: Boolean(picture),
    });
    // (Not over cells too small to label: a band a column would be 512 rects at d_model 512.)
    drawBands(g, m, cell, cell >= MIN_LABEL_CELL ? options.columnColor : null);
    return m;
  }
  removePicture(cellsGroup);

  const delay = delayOf(animation, m.rows, m.cols);
  const t = duration(animation === 'none' ? 350 : 450);

  const { nodes, entered } = cellNodes(cellsGroup.node(), m.rows, m.cols);
  for (const node of nodes) node.__data__.v = value(node.__data__.i, node.__data__.j);
  for (const node of entered) node.setAttribute('opacity', t ? 0 : 1);
  if (t)
    d3.selectAll(entered)
      .transition()
      .duration(t)
      .delay((d) => delay(d.i, d.j))
      .attr('opacity', 1);
  const groups = d3.selectAll(nodes);
  const fill = fillsOf(color);
  const fillOf = (d) => (options.masked?.(d.i, d.j) ? 'url(#hatch)' : fill(d.v));
  // Colours glide to their new values on small grids; large ones change at once (cheaper).
  const glide = t && nodes.length <= 600;
  if (glide)
    groups
      .select('rect')
      .transition()
      .duration(t)
      .attr('fill', fillOf)
      // Once there, the fill is what put() would write: the next draw (a keystroke) skips it.
      // (An interrupted glide ends with no 'end': its fill stays unknown, and is written.)
      .on('end', function arrived() {
        remember(this, 'fill');
      });
  // A clickable grid is one tab stop (a roving tabindex, see listen): this cell.
  const focusable = Boolean(options.onCell);
  const current = currentOf.get(cellsGroup.node()) ?? { i: 0, j: 0 };
  const [ci, cj] = [Math.min(current.i, m.rows - 1), Math.min(current.j, m.cols - 1)];
  // All that a cell's drawing depends on besides its value, mask, pick and tab stop: a cell
  // whose five are those it was drawn with is skipped (on a keystroke, nearly every cell).
  // A colour function without a key (scales.js) may change with every draw: no skipping.
  const look = glide || color.key === undefined ? null : `${cell}:${fontSize}:${showNumbers}:${chars}:${color.key}`;
  // What a keystroke's redraw writes after its frame (frames.js): the numbers and data-* of the
  // cells it changed, about half of its cost in the matrices view, so that the frame showing
  // the new token (its cells' colours and labels) does not wait for them.
  const gridNode = cellsGroup.node();
  numbersOf.set(gridNode, { cell, fontSize, chars, showNumbers });
  const pending = pendingOf.get(gridNode) ?? pendingOf.set(gridNode, new Set());
  const later = typing();
  groups.each(function update(d) {
    const masked = Boolean(options.masked?.(d.i, d.j));
    const picked = Boolean(options.picked?.(d.i, d.j));
    const tab = focusable ? (d.i === ci && d.j === cj ? 0 : -1) : null;
    const drawn = cellDrawn.get(this);
    if (
      look &&
      drawn?.look === look &&
      drawn.v === d.v &&
      drawn.masked === masked &&
      drawn.picked === picked &&
      drawn.tab === tab
    )
      return;
    const [rect] = this.children;
    const cellFill = fillOf(d);
    cellDrawn.set(this, { look, v: d.v, masked, picked, tab, fill: cellFill });
    // Every write goes through put(): what a cell keeps costs no style, layout or paint.
    this.classList.toggle('masked', masked);
    this.classList.toggle('picked', picked);
    if (focusable) {
      put(this, 'tabindex', tab);
      put(this, 'role', 'button');
    }
    // Placed by x and y, not by a transform on the <g>: each transform is a paint property node of
    // its own, so that every cell was a paint chunk that each frame's paint and layerize walked
    // (the matrices view at 8 tokens, traced: layerize 1.9 → 0.8 ms, paint 6.8 → 5.6 ms).
    put(rect, 'x', d.j * cell);
    put(rect, 'y', d.i * cell);
    put(rect, 'width', cell - 1);
    put(rect, 'height', cell - 1);
    // A transition writes the fill itself: the next write must not trust what is cached.
    if (glide) forgetOne(rect, 'fill');
    else {
      if (rect.__transition) d3.interrupt(rect);
      put(rect, 'fill', cellFill);
    }
    // A number only where it is readable: a <text> per cell costs layout and paint even empty.
    if (!showNumbers) this.children[1]?.remove();
    if (later) pending.add(this);
    else {
      pending.delete(this);
      writeNumber(this, numbersOf.get(gridNode));
    }
  });
  if (pending.size)
    afterFrame(gridNode, () => {
      // The cells as they are now: a newer draw may have changed or removed some.
      for (const node of pending) if (node.parentNode === gridNode) writeNumber(node, numbersOf.get(gridNode));
      pending.clear();
    });

  // One set of listeners on the grid, made once: they read what this draw leaves on the node.
  gridOf.set(gridNode, { m, onCell: options.onCell, tooltipLines });
  if (!listening.get(gridNode)) {
    listening.set(gridNode, true);
    listen(cellsGroup);
  }

  drawBands(g, m, cell, options.columnColor);
  return m;
}

/** A strip of colour over each column (columnColor(j) → css, e.g. its head's), or none. */
function drawBands(g, m, cell, columnColor) {
  const bands = columnColor ? d3.range(m.cols).map((j) => ({ j, color: columnColor(j) })) : [];
  g.selectAll('rect.band')
    .data(bands)
    .join((enter) => enter.append('rect').attr('class', 'band').attr('height', 3))
    .call(putAttrs, { x: (d) => m.left + d.j * cell, y: m.top - 3, width: cell - 1, fill: (d) => d.color });
}

/**
 * The numbers printed over a picture's cells (drawMatrix's `picture`): a <g class="numbers"> of
 * <text class="cell-number">, one a cell, kept by place as SVG cells are (cellNodes). A
 * keystroke's redraw writes them after its frame, as it does an SVG cell's (frames.js).
 * sizes: { cell, fontSize, chars, show } (no numbers unless `show`).
 *
 * They lie in a layer of their own, a <foreignObject class="numbers-layer"> holding an <svg>:
 * Chromium paints an svg's elements again, one by one, whenever any of them changes (about
 * 2.4 µs a <text>), but keeps the paint of a foreignObject whose content did not change. A
 * keystroke changes the pictures, and their numbers only a frame later: the matrices view at
 * 8 tokens painted its 800 numbers again in the frame that shows the token (docs/benchmarks.md,
 * "What changed up to 06cda59"). In a figure, the layer is its numbers (figure(),
 * explorer/export.js).
 */
function drawNumbers(cellsGroup, m, value, fill, masked, { cell, fontSize, chars, show }) {
  const layer = cellsGroup
    .selectAll('foreignObject.numbers-layer')
    .data(show ? [0] : [])
    .join((enter) => {
      // Under the keyboard's cursor and a picked cell's outline, where they are drawn already.
      const holder = enter.insert('foreignObject', 'rect.cursor, rect.picked-cell').attr('class', 'numbers-layer');
      holder.append('svg').attr('class', 'numbers-layer').append('g').attr('class', 'numbers');
      holder.each(function keep() {
        setFigure(this, () => this.querySelector('g.numbers').cloneNode(true));
      });
      return holder;
    });
  if (!show) return;
  // Sized with room to spare, as the views' svgs are (fit.js): a new size lays its texts out again.
  const holder = layer.node();
  const [width, height] = [m.cols * cell, numberRooms.set(holder, roomFor(m.rows * cell, numberRooms.get(holder)))];
  putAttrs(layer, { width, height });
  putAttrs(layer.select('svg'), { width, height });
  const node = holder.querySelector('g.numbers');
  const write = () => {
    const { nodes } = cellNodes(node, m.rows, m.cols, makeNumber);
    for (const text of nodes) {
      const { i, j } = text.__data__;
      const v = value(i, j);
      const isMasked = Boolean(masked?.(i, j));
      text.classList.toggle('masked', isMasked);
      put(text, 'x', j * cell + (cell - 1) / 2);
      put(text, 'y', i * cell + (cell - 1) / 2);
      put(text, 'font-size', fontSize);
      const ink = isMasked ? '' : inkOn(fill(v));
      if (inkOf.get(text) !== ink) text.style.fill = inkOf.set(text, ink);
      const label = cellText(v, chars);
      if (text.textContent !== label) text.textContent = label;
    }
  };
  // A grid that lost rows or columns loses their numbers at once, not a frame after its cells.
  const last = cellsOf.get(node);
  const shrank = last && (m.rows < last.rows || m.cols < last.cols);
  drawNowOrLater(node, write, typing() && !shrank);
}

function makeNumber() {
  const text = document.createElementNS(SVG_NS, 'text');
  text.setAttribute('class', 'cell-number');
  return text;
}

/**
 * A cell's data-* attributes and its number (a <text> after its <rect>), as its datum and its
 * last draw (cellDrawn) say, at the grid's sizes `numbers` ({ cell, fontSize, chars,
 * showNumbers }): written in the draw, or after a keystroke's frame (drawMatrix).
 */
function writeNumber(node, { cell, fontSize, chars, showNumbers }) {
  const d = node.__data__;
  const { masked, fill } = cellDrawn.get(node);
  put(node, 'data-i', d.i);
  put(node, 'data-j', d.j);
  put(node, 'data-value', d.v);
  let text = node.children[1];
  if (!showNumbers) {
    text?.remove();
    return;
  }
  if (!text) text = node.appendChild(document.createElementNS(SVG_NS, 'text'));
  put(text, 'x', d.j * cell + (cell - 1) / 2);
  put(text, 'y', d.i * cell + (cell - 1) / 2);
  put(text, 'font-size', fontSize);
  // A style, not an attribute: the page's CSS colours svg text, and styles win over attributes.
  // Masked cells take theirs from the CSS (--masked-ink, one for light and one for dark).
  const ink = masked ? '' : inkOn(fill);
  if (inkOf.get(text) !== ink) text.style.fill = inkOf.set(text, ink);
  const label = cellText(d.v, chars);
  if (text.textContent !== label) text.textContent = label;
}

/**
 * The node of each (i, j) of a rows × cols grid in `parent` (a <g class="cell"> from makeCell, or
 * what `make` makes), row by row, with its datum { i, j } (d3's __data__): the cells of the last draw that are still in the grid keep their
 * nodes, new ones are made, the rest removed. A keyed d3 join did the same through a string key
 * per cell, the largest cost of a keystroke's redraw of 800 cells. Returns { nodes, entered }.
 */
function cellNodes(parent, rows, cols, make = makeCell) {
  const last = cellsOf.get(parent) ?? { rows: 0, cols: 0, nodes: [] };
  const nodes = new Array(rows * cols);
  const entered = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      let node = i < last.rows && j < last.cols ? last.nodes[i * last.cols + j] : null;
      // (A node someone else removed is made again.)
      if (node?.parentNode !== parent) {
        node = make();
        entered.push(node);
      }
      // Checked on every draw: d3's select() from the grid hands a child the grid's own datum.
      // A cell that kept its own keeps the object (a thousand allocations a keystroke less).
      const d = node.__data__;
      if (d?.i !== i || d.j !== j) node.__data__ = { i, j };
      nodes[i * cols + j] = node;
    }
  }
  for (let i = 0; i < last.rows; i++)
    for (let j = 0; j < last.cols; j++) if (i >= rows || j >= cols) last.nodes[i * last.cols + j].remove();
  // Row-major in the document too (a later cell paints over an earlier one's focus ring, as
  // before): from the last cell back, a node moves only where the next cell does not follow it.
  if (entered.length)
    for (let k = nodes.length - 1, next = null; k >= 0; next = nodes[k--]) {
      if (next === null) {
        if (!nodes[k].parentNode) parent.append(nodes[k]);
      } else if (nodes[k].nextSibling !== next) parent.insertBefore(nodes[k], next);
    }
  cellsOf.set(parent, { rows, cols, nodes });
  return { nodes, entered };
}

/** A grid cell: <g class="cell"> with its <rect> (and, once written, its number's <text>). */
function makeCell() {
  const node = document.createElementNS(SVG_NS, 'g');
  node.setAttribute('class', 'cell');
  put(node, 'tabindex', -1);
  node.append(document.createElementNS(SVG_NS, 'rect'));
  return node;
}

/** Removes the cells of cellNodes() from `parent` (the grid is drawn as an image instead). */
function removeCells(parent) {
  for (const node of cellsOf.get(parent)?.nodes ?? []) node.remove();
  cellsOf.set(parent, null);
}

/**
 * The grid's pointer and keyboard handling, on its <g class="cells"> (gridOf: { m,
 * onCell, tooltipLines } of the last draw). Hover or focus shows a cell's tooltip, click picks
 * it. A clickable grid is one tab stop (a roving tabindex): arrow keys move between cells, and
 * Enter or Space picks one as a click does.
 */
function listen(cellsGroup) {
  const grid = () => gridOf.get(cellsGroup.node());
  const cellOf = (event) => {
    const node = event.target.closest?.('g.cell');
    return node ? { node, i: node.__data__.i, j: node.__data__.j } : null;
  };
  // From the datum, not data-i and data-j: a keystroke writes those after its frame.
  const at = (i, j) => {
    const { nodes, cols } = cellsOf.get(cellsGroup.node()) ?? { nodes: [] };
    return nodes[i * cols + j] ?? null;
  };
  cellsGroup
    .on('pointerover', (event) => {
      const hit = cellOf(event);
      if (!hit) return;
      hit.node.classList.add('hover');
      showTooltip(event, grid().tooltipLines(hit.i, hit.j), hit.node);
    })
    .on('pointerout', (event) => {
      cellOf(event)?.node.classList.remove('hover');
      hideTooltip();
    })
    .on('click', (event) => {
      const hit = cellOf(event);
      if (hit) grid().onCell?.(hit.i, hit.j, event);
    })
    // The label is written when a cell takes focus: thousands of labels per keystroke cost time.
    .on('focusin', (event) => {
      const node = event.target.closest?.('g.cell');
      if (!node || !grid().onCell) return;
      const lines = grid().tooltipLines(node.__data__.i, node.__data__.j);
      node.setAttribute('aria-label', lines.join(', '));
      showTooltip(null, lines, node);
    })
    .on('focusout', hideTooltip)
    .on('keydown', (event) => {
      const node = event.target.closest?.('g.cell');
      const { m, onCell } = grid();
      if (!node || !onCell) return;
      const { i, j } = node.__data__;
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        event.stopPropagation();
        onCell(i, j, event);
        return;
      }
      const step = arrowStep(event);
      if (!step) return;
      const [di, dj] = step;
      const ni = Math.max(0, Math.min(m.rows - 1, i + di));
      const nj = Math.max(0, Math.min(m.cols - 1, j + dj));
      currentOf.set(cellsGroup.node(), { i: ni, j: nj });
      // Written here, not by a draw: the next draw must not trust what it remembers of them.
      node.setAttribute('tabindex', -1);
      const next = at(ni, nj);
      next?.setAttribute('tabindex', 0);
      for (const moved of [node, next]) {
        if (moved) forgetOne(moved, 'tabindex');
        if (moved) cellDrawn.set(moved, null);
      }
      next?.focus();
    });
}
