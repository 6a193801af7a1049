// A matrix drawn as one picture: a canvas with one pixel per cell (or per block of cells the
// engine's side averaged), scaled to the grid's area. Hover names the cell under the pointer.
import * as d3 from 'd3';
import { formatValue } from '../format.js';
import { hideTooltip, showTooltip } from '../tooltip.js';
import { pixels } from './pixels.js';
import { colorTable, fillsOf, packed } from './cell-style.js';
import { arrowStep, putAttrs } from './dom.js';
import { roomFor } from './fit.js';

const MASKED_CSS = '#c8c8c8';
const MASKED_PIXEL = packed(MASKED_CSS);
// Pictures up to this many pixels are painted in the keystroke's own task, so that the frame
// showing its new token shows them too (32 × 8 takes microseconds); larger ones a task later.
const NOW_PIXELS = 128 * 128;
// Colours a table holds over a scale's whole domain (finer than the 256 over the data's range
// it replaces wherever the data spans a quarter of the domain or more).
const DOMAIN_TABLE = 1024;

/**
 * The pixels of a rows × cols grid whose cell (i, j) is data[i·rowStride + j·colStride], into
 * `canvas` (else a new one): one typed loop through a lookup table of
 * colours (a CSS colour per pixel cost about a second for two 1024×1024 heatmaps; closures per
 * pixel, half a second for sixteen 512×512 ones). The table spans the scale's domain where the
 * scale has one and a key (the same table every keystroke), else the data's range.
 */
function paint({ data, rows, cols, rowStride, colStride }, color, masked, canvas) {
  canvas = canvasFor(canvas, rows, cols);
  const context = canvas.getContext('2d');
  const image = context.createImageData(cols, rows);
  let lo = Infinity;
  let hi = -Infinity;
  let size = 256;
  if (color.key !== undefined && color.domain?.[1] > color.domain[0]) {
    [lo, hi] = color.domain;
    size = DOMAIN_TABLE;
  } else {
    for (let k = 0; k < data.length; k++) {
      const v = data[k];
      if (v - v === 0) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
    if (!(hi > lo)) hi = lo === Infinity ? (lo = 0) + 1 : lo + 1;
  }
  const table = colorTable(color, lo, hi, size);
  const last = size - 1;
  const toIndex = last / (hi - lo);
  const special = new Map();
  const out = new Uint32Array(image.data.buffer);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const v = data[i * rowStride + j * colStride];
      let c;
      if (masked?.(i, j)) c = MASKED_PIXEL;
      else if (v - v === 0) c = table[Math.max(0, Math.min(last, Math.round((v - lo) * toIndex)))];
      else {
        if (!special.has(v)) special.set(v, packed(color(v)));
        c = special.get(v);
      }
      out[i * cols + j] = c;
    }
  }
  context.putImageData(image, 0, 0);
  return canvas;
}

/**
 * The grid as cells of `cell` px with a 1 px gap after each, as SVG cells are drawn (the
 * panel shows through the gaps), at the screen's density: one fillRect a cell, colours from
 * `fill` (v → css, cell-style.js fillsOf). For a grid whose cells are large enough to see as
 * cells and to print numbers on (drawMatrix's `picture`).
 */
function paintCells({ data, rows, cols, rowStride, colStride }, fill, masked, canvas, cell) {
  const scale = Math.min(2, globalThis.devicePixelRatio || 1);
  const px = cell * scale;
  const last = canvas;
  canvas = canvasFor(canvas, rows, cols, px);
  const context = canvas.getContext('2d');
  // Only the cells whose colour changed: a keystroke adds a row to most of these grids and
  // leaves the rest of their cells as they were (canvas.colors: the css each cell shows; the
  // scales' colours are opaque, so a new one covers the old).
  let colors = canvas.colors;
  if (canvas !== last || colors?.cols !== cols) {
    context.clearRect(0, 0, canvas.width, canvas.height);
    colors = canvas.colors = Object.assign([], { cols });
  } else if (colors.length > rows * cols) {
    context.clearRect(0, rows * px, canvas.width, canvas.height - rows * px);
    colors.length = rows * cols;
  }
  const size = (cell - 1) * scale;
  let style = null;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const css = masked?.(i, j) ? MASKED_CSS : fill(data[i * rowStride + j * colStride]);
      const k = i * cols + j;
      if (colors[k] === css) continue;
      colors[k] = css;
      // Setting the same style again still parses the colour: only when it changes.
      if (css !== style) context.fillStyle = style = css;
      context.fillRect(j * px, i * px, size, size);
    }
  }
  return canvas;
}

// A grid grows by a row (and a heatmap by a column) on every keystroke. A canvas made anew, or
// resized, for it is a new resource that the frame must produce and commit (the matrices view's
// nine pictures at 32 tokens: a trace's commit 2.8 → 0.7 ms with their canvases kept). So a
// canvas has more room than its grid, which is drawn from its top left and scaled so
// that it alone fills the picture (its holder clips the rest); it is made anew only where the
// grid outgrows it or shrinks under half of it (fit.js roomFor, as for an svg).

/**
 * `canvas` if its room fits a rows × cols grid (fit.js roomFor), else a new one, with `px`
 * canvas pixels a cell; its `shown` part set.
 */
function canvasFor(canvas, rows, cols, px = 1) {
  const last = canvas?.room;
  const room = {
    cols: roomFor(cols, last?.px === px ? last.cols : 0),
    rows: roomFor(rows, last?.px === px ? last.rows : 0),
    px,
  };
  if (!canvas || !last || last.cols !== room.cols || last.rows !== room.rows || last.px !== px) {
    canvas = document.createElement('canvas');
    [canvas.width, canvas.height] = [room.cols * px, room.rows * px];
    canvas.room = room;
  }
  // The grid's part of the canvas (pixels.js exports only that) fills its holder.
  canvas.shown = { width: cols * px, height: rows * px };
  const width = `${(100 * room.cols) / cols}%`;
  const height = `${(100 * room.rows) / rows}%`;
  if (canvas.style.width !== width) canvas.style.width = width;
  if (canvas.style.height !== height) canvas.style.height = height;
  return canvas;
}

/** A row-major rows × cols matrix as paint() reads it, transposed or not. */
function gridOf(data, rows, cols, transpose) {
  return transpose
    ? { data, rows: cols, cols: rows, rowStride: 1, colStride: cols }
    : { data, rows, cols, rowStride: cols, colStride: 1 };
}

/**
 * One picture over the grid's area (m: measureMatrix's sizes), its pixels from `paint(canvas)`;
 * `tooltipAt(i, j)` gives the lines under the pointer.
 */
function imageOf(group, m, cell, paint, tooltipAt, source, grid) {
  const holder = pixels(group, paint, source, { now: grid.rows * grid.cols <= NOW_PIXELS }).call(putAttrs, {
    width: m.cols * cell,
    height: m.rows * cell,
  });
  // Listeners made once, reading what the last draw left on the node.
  const node = holder.node();
  node.__hover = { m, cell, tooltipAt };
  node.figure = null; // (drawAsImage's cells give it one)
  if (node.__listening) return holder;
  node.__listening = true;
  // One tab stop, as an SVG grid is: arrow keys move a cursor from cell to cell, whose value
  // the tooltip names (and the picture's label, for a screen reader).
  holder.attr('tabindex', 0);
  const cursorAt = (i, j) => {
    const now = node.__hover;
    node.__cursor = { i: Math.min(now.m.rows - 1, Math.max(0, i)), j: Math.min(now.m.cols - 1, Math.max(0, j)) };
    const lines = now.tooltipAt(node.__cursor.i, node.__cursor.j);
    node.setAttribute('aria-label', lines.join(', '));
    const cursor = group
      .selectAll('rect.cursor')
      .data([0])
      .join((enter) => enter.append('rect').attr('class', 'cursor'))
      .call(putAttrs, {
        x: node.__cursor.j * now.cell,
        y: node.__cursor.i * now.cell,
        width: now.cell - 1,
        height: now.cell - 1,
      });
    showTooltip(null, lines, cursor.node());
  };
  holder
    .on('pointermove', (event) => {
      const now = node.__hover;
      const [x, y] = d3.pointer(event);
      const i = Math.min(now.m.rows - 1, Math.max(0, Math.floor(y / now.cell)));
      const j = Math.min(now.m.cols - 1, Math.max(0, Math.floor(x / now.cell)));
      showTooltip(event, now.tooltipAt(i, j));
    })
    .on('pointerleave', hideTooltip)
    .on('focus', () => cursorAt(node.__cursor?.i ?? 0, node.__cursor?.j ?? 0))
    .on('blur', () => {
      group.selectAll('rect.cursor').remove();
      hideTooltip();
    })
    .on('keydown', (event) => {
      const step = arrowStep(event);
      if (step) cursorAt(node.__cursor.i + step[0], node.__cursor.j + step[1]);
    });
  return holder;
}

/**
 * The matrix `step` as one picture (see drawMatrix for the arguments): one pixel a cell, or with
 * `cells`, cells of `cell` px with gaps, as SVG cells look, and as SVG rects in a figure.
 */
export function drawAsImage(group, m, step, transpose, color, cell, tooltipLines, masked, { cells = false } = {}) {
  const grid = gridOf(step.data, step.rows, step.cols, transpose);
  const fill = cells ? fillsOf(color) : null;
  const holder = imageOf(
    group,
    m,
    cell,
    cells ? (canvas) => paintCells(grid, fill, masked, canvas, cell) : (canvas) => paint(grid, color, masked, canvas),
    tooltipLines,
    // Cells also change with the colour scale and the cell size: painted on every draw (a
    // few small canvases); one pixel a cell only for new data.
    cells ? null : step,
    grid,
  );
  // A figure leaving the page gets the cells as vectors, sharp at any size (explorer/export.js).
  holder.node().figure = cells ? () => cellsFigure(grid, fill, masked, cell) : null;
}

/** The grid as SVG rects in a <g> (drawn where the picture was), for a figure. */
function cellsFigure({ data, rows, cols, rowStride, colStride }, fill, masked, cell) {
  const g = d3.create('svg:g');
  g.selectAll('rect')
    .data(d3.range(rows * cols))
    .join('rect')
    .attr('x', (k) => (k % cols) * cell)
    .attr('y', (k) => Math.floor(k / cols) * cell)
    .attr('width', cell - 1)
    .attr('height', cell - 1)
    .attr('fill', (k) => {
      const [i, j] = [Math.floor(k / cols), k % cols];
      return masked?.(i, j) ? 'url(#hatch)' : fill(data[i * rowStride + j * colStride]);
    });
  return g.node();
}

/**
 * A step the engine's side averaged in blocks (reduce.js gridOf): one pixel per block; hover
 * names the cell under the pointer and the mean of its block.
 */
export function drawPooled(
  group,
  m,
  step,
  { color, cell, title, transpose, labelOf, tokenAxes, rowLabels, colLabels },
) {
  const grid = gridOf(step.data, step.pooled.rows, step.pooled.cols, transpose);
  const { rows, cols } = grid;
  const value = (i, j) => step.data[i * grid.rowStride + j * grid.colStride];
  imageOf(
    group,
    m,
    cell,
    (canvas) => paint(grid, color, null, canvas),
    (i, j) => {
      const bi = Math.floor((i * rows) / m.rows);
      const bj = Math.floor((j * cols) / m.cols);
      return [
        `${title}[${i}, ${j}] ≈ ${formatValue(value(bi, bj))} (mean of a ${Math.ceil(m.rows / rows)} × ${Math.ceil(m.cols / cols)} block)`,
        `${labelOf(tokenAxes[0], rowLabels, i, 'row')} → ${labelOf(tokenAxes[1], colLabels, j, 'col')}`,
      ];
    },
    step,
    grid,
  );
}
