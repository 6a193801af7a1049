// A matrix as a grid of coloured cells with its name, shape and token labels. Small
// matrices are SVG cells (numbers printed when they fit); large ones one <image> drawn on a
// canvas. Hovering or focusing a cell shows its exact value and index.
import * as d3 from 'd3';
import { textColorOn } from '../scales.js';
import { formatFit, formatValue } from '../format.js';
import { hideTooltip, showTooltip } from '../tooltip.js';
import { duration } from '../motion.js';
import { pixels } from './pixels.js';
import { fitText, textWidth } from './text.js';
import { put, setTexts } from './dom.js';

const SVG_CELL_LIMIT = 4096;
// Past this many cells, a grid too small to print numbers is drawn as one image: thousands of
// SVG cells cost a keystroke tens of milliseconds and show nothing more.
const SMALL_CELL_LIMIT = 400;
const MASKED_PIXEL = '#c8c8c8';
// No text under 11 px (a phone's smallest readable size): labels are 11–13 px whatever the
// cell, and where cells are smaller than a label, only every k-th row or column is labelled.
const LABEL_FONT = 11;
const MAX_LABEL_FONT = 13;
// Rows (and columns, whose labels stand upright) this far apart keep labels from touching.
const LABEL_PITCH = 1.3;
// Below this cell size an axis gets no labels at all (hover names the token): a 2,048-token
// axis would still need hundreds of them (thirteen such matrices: thousands of nodes).
const MIN_LABEL_CELL = 6;

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
 * Size of the drawing for `step` with `options` (see drawMatrix), without drawing it.
 */
export function measureMatrix(step, { cell, title, showRowLabels = true, showColLabels = true, transpose = false }) {
  const rows = transpose ? step.cols : step.rows;
  const cols = transpose ? step.rows : step.cols;
  const rowLabels = transpose ? step.colLabels : step.rowLabels;
  const colLabels = transpose ? step.rowLabels : step.colLabels;
  const readable = cell >= MIN_LABEL_CELL;
  const tokenRows = readable && showRowLabels && isTokenAxis(transpose ? step.colsAxis : step.rowsAxis);
  const tokenCols = readable && showColLabels && isTokenAxis(transpose ? step.rowsAxis : step.colsAxis);
  const left = tokenRows ? labelWidth(rowLabels) : 4;
  const top = 18 + (tokenCols ? Math.min(60, labelWidth(colLabels)) : 4);
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
 *             image: bool (one image whatever the size: the caller's budget of SVG cells is spent) }
 */
export function drawMatrix(g, step, options) {
  const { cell, color, title, transpose = false, animation = 'none', numbers = true } = options;
  const m = measureMatrix(step, options);
  const value = transpose ? (i, j) => step.data[j * step.cols + i] : (i, j) => step.data[i * step.cols + j];
  const rowLabels = transpose ? step.colLabels : step.rowLabels;
  const colLabels = transpose ? step.rowLabels : step.colLabels;

  g.selectAll('text.matrix-title')
    .data([title])
    .join('text')
    .attr('class', 'matrix-title')
    .attr('x', m.left)
    .attr('y', 12)
    .text((d) => titleText(d, m.rows, m.cols));

  // Labels as { k, text }: every `every`-th one, cut to the room there is. Column labels stand
  // upright (rotate −90), so that their room is the same whatever their length.
  const { font, every } = labelSpacing(cell);
  const thinned = (labels, room) =>
    labels.flatMap((text, k) => (k % every ? [] : [{ k, text: fitText(text, room, font) }]));
  g.selectAll('text.row-label')
    .data(m.tokenRows ? thinned(rowLabels, m.left - 6) : [], (d) => d.k)
    .join('text')
    .attr('class', 'row-label')
    .attr('x', m.left - 4)
    .attr('y', (d) => m.top + d.k * cell + cell / 2)
    .attr('font-size', font)
    .call(setTexts, (d) => d.text);
  g.selectAll('text.col-label')
    .data(m.tokenCols ? thinned(colLabels, m.top - 22) : [], (d) => d.k)
    .join('text')
    .attr('class', 'col-label')
    .attr('transform', (d) => `translate(${m.left + d.k * cell + cell / 2},${m.top - 4}) rotate(-90)`)
    .attr('font-size', font)
    .call(setTexts, (d) => d.text);

  const cellsGroup = g
    .selectAll('g.cells')
    .data([0])
    .join('g')
    .attr('class', 'cells')
    .attr('transform', `translate(${m.left},${m.top})`);
  const tokenAxes = [transpose ? step.colsAxis : step.rowsAxis, transpose ? step.rowsAxis : step.colsAxis];
  const labelOf = (axis, labels, k, word) => (isTokenAxis(axis) ? labels[k] : `${word} ${k}`);
  const tooltipLines = (i, j) => {
    const v = value(i, j);
    const masked = options.masked?.(i, j);
    return [
      `${title}[${i}, ${j}] = ${formatValue(v)}`,
      `${m.tokenRows ? rowLabels[i] : `row ${i}`} → ${m.tokenCols ? colLabels[j] : `col ${j}`}${masked ? ' (masked)' : ''}`,
    ];
  };

  if (step.pooled) {
    drawPooled(cellsGroup, m, step, { color, cell, title, transpose, labelOf, tokenAxes, rowLabels, colLabels });
    g.selectAll('rect.band').remove();
    return m;
  }
  const cellCount = m.rows * m.cols;
  if (options.image || cellCount > SVG_CELL_LIMIT || (cellCount > SMALL_CELL_LIMIT && (cell < 24 || !numbers))) {
    drawAsImage(cellsGroup, m, step, transpose, color, cell, tooltipLines, options.masked);
    return m;
  }
  cellsGroup.selectAll('.pixels').remove();

  const cells = [];
  for (let i = 0; i < m.rows; i++) for (let j = 0; j < m.cols; j++) cells.push({ i, j, v: value(i, j) });
  const delay = delayOf(animation, m.rows, m.cols);
  const t = duration(animation === 'none' ? 350 : 450);
  const showNumbers = numbers && cell >= 24;
  const fontSize = Math.min(13, Math.max(11, cell * 0.36));
  const chars = Math.floor((cell - 4) / (fontSize * 0.62));

  const groups = cellsGroup
    .selectAll('g.cell')
    .data(cells, (d) => `${d.i}:${d.j}`)
    .join(
      (enter) => {
        const e = enter
          .append('g')
          .attr('class', 'cell')
          .attr('tabindex', -1)
          .attr('opacity', t ? 0 : 1);
        e.append('rect');
        e.append('text');
        if (t)
          e.transition()
            .duration(t)
            .delay((d) => delay(d.i, d.j))
            .attr('opacity', 1);
        return e;
      },
      (update) => update,
      (exit) => exit.remove(),
    );
  const fillOf = (d) => (options.masked?.(d.i, d.j) ? 'url(#hatch)' : color(d.v));
  // Colours glide to their new values on small grids; large ones change at once (cheaper).
  const glide = t && cells.length <= 600;
  const rects = groups.select('rect');
  if (glide) rects.transition().duration(t).attr('fill', fillOf);
  else rects.interrupt();
  groups.each(function update(d) {
    const [rect, text] = this.children;
    const masked = Boolean(options.masked?.(d.i, d.j));
    const fill = fillOf(d);
    put(this, 'transform', `translate(${d.j * cell},${d.i * cell})`);
    this.classList.toggle('masked', masked);
    this.classList.toggle('picked', Boolean(options.picked?.(d.i, d.j)));
    put(this, 'data-i', d.i);
    put(this, 'data-j', d.j);
    put(this, 'data-value', d.v);
    put(rect, 'width', cell - 1);
    put(rect, 'height', cell - 1);
    // A transition writes the fill itself: the next write must not trust what is cached.
    if (glide) delete rect.__written?.fill;
    else put(rect, 'fill', fill);
    put(text, 'x', (cell - 1) / 2);
    put(text, 'y', (cell - 1) / 2);
    put(text, 'font-size', fontSize);
    // A style, not an attribute: the page's CSS colours svg text, and styles win over attributes.
    // Masked cells take theirs from the CSS (--masked-ink, one for light and one for dark).
    const ink = masked ? '' : textColorOn(fill);
    if (text.__ink !== ink) text.style.fill = text.__ink = ink;
    const label = showNumbers ? formatFit(d.v, chars) : '';
    if (text.textContent !== label) text.textContent = label;
  });

  // One set of listeners on the grid, not one per cell: cells are re-rendered on every edit.
  const cellOf = (event) => {
    const node = event.target.closest?.('g.cell');
    return node ? { node, d: d3.select(node).datum() } : null;
  };
  cellsGroup
    .on('pointerover', (event) => {
      const hit = cellOf(event);
      if (!hit) return;
      hit.node.classList.add('hover');
      showTooltip(event, tooltipLines(hit.d.i, hit.d.j), hit.node);
    })
    .on('pointerout', (event) => {
      cellOf(event)?.node.classList.remove('hover');
      hideTooltip();
    })
    .on('click', (event) => {
      const hit = cellOf(event);
      if (hit) options.onCell?.(hit.d.i, hit.d.j, event);
    });
  if (options.onCell) keyboardCells(cellsGroup, groups, m, options.onCell, tooltipLines);

  const bands = options.columnColor ? d3.range(m.cols).map((j) => ({ j, color: options.columnColor(j) })) : [];
  g.selectAll('rect.band')
    .data(bands)
    .join('rect')
    .attr('class', 'band')
    .attr('x', (d) => m.left + d.j * cell)
    .attr('y', m.top - 3)
    .attr('width', cell - 1)
    .attr('height', 3)
    .attr('fill', (d) => d.color);
  return m;
}

/**
 * A clickable grid is one tab stop (a roving tabindex): arrow keys move between cells, Enter
 * or Space picks one as a click does, and focus shows the cell's tooltip.
 */
function keyboardCells(cellsGroup, groups, m, onCell, tooltipLines) {
  const current = cellsGroup.property('__current') ?? { i: 0, j: 0 };
  const at = (i, j) => cellsGroup.select(`g.cell[data-i="${i}"][data-j="${j}"]`);
  groups.attr('tabindex', (d) =>
    d.i === Math.min(current.i, m.rows - 1) && d.j === Math.min(current.j, m.cols - 1) ? 0 : -1,
  );
  // The label is written when a cell takes focus: thousands of labels per keystroke cost time.
  groups.attr('role', 'button');
  cellsGroup
    .on('focusin', (event) => {
      const node = event.target.closest?.('g.cell');
      if (!node) return;
      const lines = tooltipLines(+node.dataset.i, +node.dataset.j);
      node.setAttribute('aria-label', lines.join(', '));
      showTooltip(null, lines, node);
    })
    .on('focusout', hideTooltip)
    .on('keydown', (event) => {
      const node = event.target.closest?.('g.cell');
      if (!node) return;
      const i = +node.dataset.i;
      const j = +node.dataset.j;
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        event.stopPropagation();
        onCell(i, j, event);
        return;
      }
      const [di, dj] = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[event.key] ?? [];
      if (di === undefined) return;
      event.preventDefault();
      event.stopPropagation(); // the stepper's arrow keys must not also change the step
      const ni = Math.max(0, Math.min(m.rows - 1, i + di));
      const nj = Math.max(0, Math.min(m.cols - 1, j + dj));
      cellsGroup.property('__current', { i: ni, j: nj });
      node.setAttribute('tabindex', -1);
      const next = at(ni, nj).attr('tabindex', 0).node();
      next?.focus();
    });
}

/**
 * The pixels of a rows × cols grid whose cell (i, j) is data[i·rowStride + j·colStride]:
 * one typed loop through a 256-colour lookup table over the data's range (a CSS colour per
 * pixel cost about a second for two 1024×1024 heatmaps; closures per pixel, half a second
 * for sixteen 512×512 ones).
 */
function paint({ data, rows, cols, rowStride, colStride }, color, masked) {
  const canvas = document.createElement('canvas');
  canvas.width = cols;
  canvas.height = rows;
  const context = canvas.getContext('2d');
  const image = context.createImageData(cols, rows);
  let lo = Infinity;
  let hi = -Infinity;
  for (let k = 0; k < data.length; k++) {
    const v = data[k];
    if (v - v === 0) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  const span = hi > lo ? hi - lo : 1;
  const packed = (css) => {
    const c = d3.rgb(css);
    return ((255 << 24) | (c.b << 16) | (c.g << 8) | c.r) >>> 0; // RGBA bytes, little-endian
  };
  const table = Uint32Array.from({ length: 256 }, (_, k) => packed(color(lo + (k / 255) * span)));
  const special = new Map();
  const maskedColor = packed(MASKED_PIXEL);
  const pixels = new Uint32Array(image.data.buffer);
  const toIndex = 255 / span;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const v = data[i * rowStride + j * colStride];
      let c;
      if (masked?.(i, j)) c = maskedColor;
      else if (v - v === 0) c = table[Math.round((v - lo) * toIndex)];
      else {
        if (!special.has(v)) special.set(v, packed(color(v)));
        c = special.get(v);
      }
      pixels[i * cols + j] = c;
    }
  }
  context.putImageData(image, 0, 0);
  return canvas;
}

/** A row-major rows × cols matrix as paint() reads it, transposed or not. */
function gridOf(data, rows, cols, transpose) {
  return transpose
    ? { data, rows: cols, cols: rows, rowStride: 1, colStride: cols }
    : { data, rows, cols, rowStride: cols, colStride: 1 };
}

/**
 * One <image> over the grid's area, its pixels from `paint()` (soon after, see pixels.js);
 * `tooltipAt(i, j)` gives the lines under the pointer.
 */
function imageOf(group, m, cell, paint, tooltipAt, source) {
  group.selectAll('g.cell').remove();
  pixels(group, paint, source)
    .attr('width', m.cols * cell)
    .attr('height', m.rows * cell)
    .on('pointermove', (event) => {
      const [x, y] = d3.pointer(event);
      const i = Math.min(m.rows - 1, Math.max(0, Math.floor(y / cell)));
      const j = Math.min(m.cols - 1, Math.max(0, Math.floor(x / cell)));
      showTooltip(event, tooltipAt(i, j));
    })
    .on('pointerleave', hideTooltip);
}

function drawAsImage(group, m, step, transpose, color, cell, tooltipLines, masked) {
  const grid = gridOf(step.data, step.rows, step.cols, transpose);
  imageOf(group, m, cell, () => paint(grid, color, masked), tooltipLines, step);
}

/**
 * A step the engine's side averaged in blocks (reduce.js gridOf): one pixel per block; hover
 * names the cell under the pointer and the mean of its block.
 */
function drawPooled(group, m, step, { color, cell, title, transpose, labelOf, tokenAxes, rowLabels, colLabels }) {
  const pr = step.pooled.rows;
  const pc = step.pooled.cols;
  const grid = gridOf(step.data, pr, pc, transpose);
  const { rows, cols } = grid;
  const value = (i, j) => step.data[i * grid.rowStride + j * grid.colStride];
  imageOf(
    group,
    m,
    cell,
    () => paint(grid, color, null),
    (i, j) => {
      const bi = Math.floor((i * rows) / m.rows);
      const bj = Math.floor((j * cols) / m.cols);
      return [
        `${title}[${i}, ${j}] ≈ ${formatValue(value(bi, bj))} (mean of a ${Math.ceil(m.rows / rows)} × ${Math.ceil(m.cols / cols)} block)`,
        `${labelOf(tokenAxes[0], rowLabels, i, 'row')} → ${labelOf(tokenAxes[1], colLabels, j, 'col')}`,
      ];
    },
    step,
  );
}
