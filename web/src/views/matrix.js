// A matrix as a grid of coloured cells with its name, shape and token labels. Small
// matrices are SVG cells (numbers printed when they fit); large ones one <image> drawn on a
// canvas. Hovering or focusing a cell shows its exact value and index.
import * as d3 from 'd3';
import { formatExact, formatFit, textColorOn } from '../scales.js';
import { hideTooltip, showTooltip } from '../tooltip.js';
import { duration } from '../motion.js';
import { pixels } from './pixels.js';
import { put, setTexts } from './dom.js';

const SVG_CELL_LIMIT = 4096;
// Past this many cells, a grid too small to print numbers is drawn as one image: thousands of
// SVG cells cost a keystroke tens of milliseconds and show nothing more.
const SMALL_CELL_LIMIT = 400;
const MASKED_PIXEL = '#c8c8c8';
const LABEL_FONT = 11;
// Below this cell size token labels would overlap: a 2,048-token axis gets none (hover names
// the token), not 2,048 unreadable text nodes.
const MIN_LABEL_CELL = 6;

// Layout measures the same labels dozens of times per draw (2,048 of them at the limit).
const widths = new WeakMap();

function labelWidth(labels) {
  if (!labels) return 0;
  if (!widths.has(labels)) {
    const longest = labels.reduce((m, l) => Math.max(m, [...l].length), 0);
    widths.set(labels, Math.min(90, 8 + longest * 9));
  }
  return widths.get(labels);
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
export function measureMatrix(step, { cell, showRowLabels = true, showColLabels = true, transpose = false }) {
  const rows = transpose ? step.cols : step.rows;
  const cols = transpose ? step.rows : step.cols;
  const rowLabels = transpose ? step.colLabels : step.rowLabels;
  const colLabels = transpose ? step.rowLabels : step.colLabels;
  const readable = cell >= MIN_LABEL_CELL;
  const tokenRows = readable && showRowLabels && isTokenAxis(transpose ? step.colsAxis : step.rowsAxis);
  const tokenCols = readable && showColLabels && isTokenAxis(transpose ? step.rowsAxis : step.colsAxis);
  const left = tokenRows ? labelWidth(rowLabels) : 4;
  const top = 18 + (tokenCols ? Math.min(60, labelWidth(colLabels)) : 4);
  return { rows, cols, left, top, width: left + cols * cell + 2, height: top + rows * cell + 2, tokenRows, tokenCols };
}

function isTokenAxis(axis) {
  return axis === 'query' || axis === 'key';
}

/**
 * Draws into the <g> selection `g`:
 *  step: { name, rows, cols, data, rowLabels, colLabels, rowsAxis, colsAxis }
 *  options: { cell, color(v) → css, title, transpose, animation: 'none'|'fade'|'rows'|'cols'|'sweep',
 *             numbers: bool, masked(i, j) → bool, columnColor(j) → css|null, onCell(i, j, event) }
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
    .text((d) => `${d}  [${m.rows} × ${m.cols}]`);

  g.selectAll('text.row-label')
    .data(m.tokenRows ? rowLabels : [])
    .join('text')
    .attr('class', 'row-label')
    .attr('x', m.left - 4)
    .attr('y', (_, i) => m.top + i * cell + cell / 2)
    .attr('font-size', Math.min(LABEL_FONT + 2, Math.max(8, cell * 0.6)))
    .call(setTexts, (d) => d);
  g.selectAll('text.col-label')
    .data(m.tokenCols ? colLabels : [])
    .join('text')
    .attr('class', 'col-label')
    .attr('transform', (_, j) => `translate(${m.left + j * cell + cell / 2},${m.top - 4}) rotate(-50)`)
    .attr('font-size', Math.min(LABEL_FONT + 2, Math.max(8, cell * 0.6)))
    .call(setTexts, (d) => d);

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
      `${title}[${i}, ${j}] = ${formatExact(v)}`,
      `${m.tokenRows ? rowLabels[i] : `row ${i}`} → ${m.tokenCols ? colLabels[j] : `col ${j}`}${masked ? ' (masked)' : ''}`,
    ];
  };

  if (step.pooled) {
    drawPooled(cellsGroup, m, step, { color, cell, title, transpose, labelOf, tokenAxes, rowLabels, colLabels });
    g.selectAll('rect.band').remove();
    return m;
  }
  const cellCount = m.rows * m.cols;
  if (cellCount > SVG_CELL_LIMIT || (cellCount > SMALL_CELL_LIMIT && (cell < 24 || !numbers))) {
    drawAsImage(cellsGroup, m, step, transpose, color, cell, tooltipLines, options.masked);
    return m;
  }
  cellsGroup.selectAll('.pixels').remove();

  const cells = [];
  for (let i = 0; i < m.rows; i++) for (let j = 0; j < m.cols; j++) cells.push({ i, j, v: value(i, j) });
  const delay = delayOf(animation, m.rows, m.cols);
  const t = duration(animation === 'none' ? 350 : 450);
  const showNumbers = numbers && cell >= 24;
  const fontSize = Math.min(12, Math.max(8, cell * 0.36));
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
    const ink = masked ? '#555' : textColorOn(fill);
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
        `${title}[${i}, ${j}] ≈ ${formatExact(value(bi, bj))} (mean of a ${Math.ceil(m.rows / rows)} × ${Math.ceil(m.cols / cols)} block)`,
        `${labelOf(tokenAxes[0], rowLabels, i, 'row')} → ${labelOf(tokenAxes[1], colLabels, j, 'col')}`,
      ];
    },
    step,
  );
}
