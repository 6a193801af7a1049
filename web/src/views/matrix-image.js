// A matrix drawn as one picture: a canvas with one pixel per cell (or per block of cells the
// engine's side averaged), scaled to the grid's area. Hover names the cell under the pointer.
import * as d3 from 'd3';
import { formatValue } from '../format.js';
import { wordsAt } from './cell-words.js';
import { hideTooltip, showTooltip } from '../tooltip.js';
import { pixels, setShownPart } from './pixels.js';
import { setFigure } from './figures.js';
import { colorTable, fillsOf, packed, pixelOf } from './cell-style.js';
import { arrowStep, put, putAttrs } from '../dom.js';
import { roomFor } from './fit.js';
import { bmpURL } from './bmp.js';
import { nodeLocal } from '../node-local.js';

// Kept on the nodes (node-local.js): the part of the shared image an <image> shows, and for a
// picture's holder the last draw's { m, cell, tooltipAt, onCell } that its listeners (made once)
// read, whether they are made, and the keyboard's cursor { i, j }.
const imageShows = nodeLocal();
const hover = nodeLocal();
const listening = nodeLocal();
const keyCursor = nodeLocal();
// Whether a group holds a picture (removePicture searches only those).
const pictured = nodeLocal();
// A canvas's size with room to spare ({ cols, rows }, fit.js roomFor).
const canvasRooms = nodeLocal();

const MASKED_PIXEL = packed('#c8c8c8');
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

// The pictures with cells drawn in one task share one image, side by side, made in a microtask
// after them (still before the frame): an image of a new data: URL costs the next layout about
// 0.2 ms once loaded, and a keystroke changes nine pictures (2.1 ms for nine URLs, 0.4 ms for
// one, timed in the page). Map: image → { pixels, rows, cols }.
let atlas = null;
// The image's rows, with room to spare (fit.js roomFor): an <image> whose size changes costs
// the keystroke's layout more than its new URL.
let atlasRows = 0;

function drawAtlas() {
  const pictures = [...atlas].filter(([image]) => image.isConnected);
  atlas = null;
  if (!pictures.length) return;
  // Each picture with a copy of its edge pixels on its left, right and below: scaled up, a
  // picture shows a sliver past its edges where they do not fall on a pixel, which must be its
  // own colour.
  const cols = pictures.reduce((sum, [, p]) => sum + p.cols + 2, 0);
  const rows = (atlasRows = roomFor(Math.max(...pictures.map(([, p]) => p.rows)) + 1, atlasRows));
  const pixels = new Uint32Array(rows * cols);
  let left = 0;
  for (const [, p] of pictures) {
    for (let i = 0; i <= p.rows; i++) {
      const from = Math.min(i, p.rows - 1) * p.cols;
      const row = p.pixels.subarray(from, from + p.cols);
      pixels.set(row, i * cols + left + 1);
      pixels[i * cols + left] = row[0];
      pixels[i * cols + left + p.cols + 1] = row[p.cols - 1];
    }
    p.left = left + 1;
    left += p.cols + 2;
  }
  const url = bmpURL(pixels, rows, cols);
  for (const [image, p] of pictures) {
    putAttrs(d3.select(image), { x: -p.left, width: cols, height: rows });
    put(image, 'href', url);
    imageShows.set(image, p);
  }
}

/** The grid's values, row by row. */
function valuesOf({ data, rows, cols, rowStride, colStride }) {
  const values = new Float32Array(rows * cols);
  for (let i = 0; i < rows; i++)
    for (let j = 0; j < cols; j++) values[i * cols + j] = data[i * rowStride + j * colStride];
  return values;
}

/**
 * Whether `image` shows `drawn` already (its part of an earlier image), by its `pixels`, or by
 * its `values` in the colours of the scale `drawn.key` (scales.js; a scale without one may colour
 * anew on each draw). A trained model's weights, 4 × 64 × 64 cells, are the same on every
 * keystroke, and their colours cost ~5 ms to compute again.
 */
function showsAlready(image, drawn, by) {
  const shown = imageShows.get(image);
  if (!shown || shown.rows !== drawn.rows || shown.cols !== drawn.cols || !image.isConnected) return false;
  if (by === 'values' && (drawn.key === undefined || shown.key !== drawn.key)) return false;
  return drawn[by].every((v, k) => Object.is(v, shown[by][k]));
}

/**
 * A grid whose cells are large enough to see as cells and to print numbers on (drawMatrix's
 * `picture`), as SVG cells look: an <svg class="cells-image"> whose viewBox shows its part of an
 * image of one pixel a cell (drawAtlas), scaled up crisp, under a <path class="cell-gaps"> of
 * 1 px lines in the panel's colour after each row and column. Not a canvas: Chromium makes
 * every 2D canvas a compositing layer of its own, and the numbers printed over it then need a
 * layer more each (the matrices view at 8 tokens: 28 layers instead of 9, about 0.8 ms of every
 * frame's layerize and commit). An image of a data: URL is loaded before the next frame.
 * Returns the selection of a <rect class="picture"> over the grid, which takes the pointer and
 * the focus (the image, wider than its part, would give the picture a box as wide).
 */
function cellsPicture(group, grid, fill, masked, cell, key) {
  const { rows, cols } = grid;
  group.selectAll('foreignObject.pixels').remove();
  const [width, height] = [cols * cell, rows * cell];
  // First in the group, under the numbers and the cursor, whatever the group held before.
  const shown = group
    .selectAll('svg.cells-image')
    .data([0])
    .join((enter) =>
      enter.insert('svg', ':first-child').attr('class', 'cells-image').attr('preserveAspectRatio', 'none'),
    )
    .call(putAttrs, { width, height, viewBox: `0 0 ${cols} ${rows}` });
  const image = shown
    .selectAll('image')
    .data([0])
    .join((enter) => enter.append('image').attr('preserveAspectRatio', 'none'))
    .node();
  // (A masked grid's key says nothing of its mask: its colours are computed each time.)
  const drawn = { values: valuesOf(grid), rows, cols, key: masked ? undefined : key };
  // A picture that shows what it showed (the weights, as one types) keeps its part of the image it
  // has: a new one for it is colours to compute, pixels to encode and an <image> to paint again.
  if (showsAlready(image, drawn, 'values')) atlas?.delete(image);
  else {
    drawn.pixels = new Uint32Array(rows * cols);
    for (let k = 0; k < drawn.values.length; k++)
      drawn.pixels[k] = masked?.(Math.floor(k / cols), k % cols) ? MASKED_PIXEL : pixelOf(fill(drawn.values[k]));
    if (showsAlready(image, drawn, 'pixels')) atlas?.delete(image);
    else {
      if (!atlas) {
        atlas = new Map();
        queueMicrotask(drawAtlas);
      }
      atlas.set(image, drawn);
    }
  }
  // (And one more line past the last row and column: scaled up, the image's edge bleeds a pixel
  // where it does not fall on one.)
  const lines = [`M${width + 0.5},0V${height + 1}M0,${height + 0.5}H${width + 1}`];
  for (let j = 1; j <= cols; j++) lines.push(`M${j * cell - 0.5},0V${height}`);
  for (let i = 1; i <= rows; i++) lines.push(`M0,${i * cell - 0.5}H${width}`);
  const gaps = group
    .selectAll('path.cell-gaps')
    .data([0])
    .join((enter) => enter.append('path').attr('class', 'cell-gaps'))
    .call(putAttrs, { d: lines.join('') });
  const holder = group
    .selectAll('rect.picture')
    .data([0])
    .join((enter) => enter.append('rect').attr('class', 'picture'))
    .call(putAttrs, { width, height });
  if (shown.node().nextSibling !== gaps.node()) shown.node().after(gaps.node());
  if (gaps.node().nextSibling !== holder.node()) gaps.node().after(holder.node());
  return holder;
}

// A grid grows by a row (and a heatmap by a column) on every keystroke. A canvas made anew, or
// resized, for it is a new resource that the frame must produce and commit (the matrices view's
// nine pictures at 32 tokens: a trace's commit 2.8 → 0.7 ms with their canvases kept). So a
// canvas has more room than its grid, which is drawn from its top left and scaled so
// that it alone fills the picture (its holder clips the rest); it is made anew only where the
// grid outgrows it or shrinks under half of it (fit.js roomFor, as for an svg).

/** `canvas` if its room fits a rows × cols grid (fit.js roomFor), else a new one; its `shown` part set. */
function canvasFor(canvas, rows, cols) {
  const last = canvas ? canvasRooms.get(canvas) : undefined;
  const room = { cols: roomFor(cols, last?.cols ?? 0), rows: roomFor(rows, last?.rows ?? 0) };
  if (!canvas || !last || last.cols !== room.cols || last.rows !== room.rows) {
    canvas = document.createElement('canvas');
    [canvas.width, canvas.height] = [room.cols, room.rows];
    canvasRooms.set(canvas, room);
  }
  // The grid's part of the canvas (pixels.js exports only that) fills its holder.
  setShownPart(canvas, { width: cols, height: rows });
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
function imageOf(group, m, cell, paint, tooltipAt, source, grid, onCell = null) {
  group.selectAll('svg.cells-image, path.cell-gaps, rect.picture, rect.picked-cell').remove();
  const holder = pixels(group, paint, source, { now: grid.rows * grid.cols <= NOW_PIXELS }).call(putAttrs, {
    width: m.cols * cell,
    height: m.rows * cell,
  });
  return listenPicture(group, holder, m, cell, tooltipAt, onCell);
}

/**
 * Removes whatever picture `group` holds (a canvas, or an image with cells), its cursor, outline
 * and numbers (matrix.js drawNumbers, drawn only over a picture). A
 * group that never held one is not searched: the stage's three grids at 32 tokens hold 768 SVG
 * cells, and the search visited their every rect and text on each keystroke (0.2 ms).
 */
export function removePicture(group) {
  if (!pictured.get(group.node())) return;
  pictured.set(group.node(), false);
  group
    .selectAll(
      'foreignObject.pixels, svg.cells-image, path.cell-gaps, rect.picture, rect.cursor, rect.picked-cell, foreignObject.numbers-layer',
    )
    .remove();
}

/**
 * Hover, focus and arrow keys on a picture `holder` in `group`: the tooltip names the cell under
 * the pointer, or under the keyboard's cursor. With `onCell(i, j, event)`, a click on a cell, or
 * Enter or Space on the cursor's, picks it, as on SVG cells (matrix.js listen): a long sentence's
 * grids are pictures, and a learner still clicks a score to see its arithmetic or
 * a heatmap's cell to see its link.
 */
function listenPicture(group, holder, m, cell, tooltipAt, onCell = null) {
  pictured.set(group.node(), true); // every picture passes here (removePicture)
  // Listeners made once, reading what the last draw left on the node.
  const node = holder.node();
  hover.set(node, { m, cell, tooltipAt, onCell });
  // Enter picks the cursor's cell, as on an SVG cell (role button, named by its tooltip).
  if (!onCell) node.removeAttribute('role');
  else if (node.getAttribute('role') !== 'button') node.setAttribute('role', 'button');
  if (listening.get(node)) return holder;
  listening.set(node, true);
  // One tab stop, as an SVG grid is: arrow keys move a cursor from cell to cell, whose value
  // the tooltip names (and the picture's label, for a screen reader).
  holder.attr('tabindex', 0);
  /** The cell (i, j) of the grid as it is now, or the nearest (it may have shrunk since). */
  const within = (i, j) => {
    const { m: now } = hover.get(node);
    return { i: Math.min(now.rows - 1, Math.max(0, i)), j: Math.min(now.cols - 1, Math.max(0, j)) };
  };
  const cursorAt = (i, j) => {
    const now = hover.get(node);
    keyCursor.set(node, within(i, j));
    const lines = now.tooltipAt(keyCursor.get(node).i, keyCursor.get(node).j);
    node.setAttribute('aria-label', lines.join(', '));
    const cursor = group
      .selectAll('rect.cursor')
      .data([0])
      .join((enter) => enter.append('rect').attr('class', 'cursor'))
      .call(putAttrs, {
        x: keyCursor.get(node).j * now.cell,
        y: keyCursor.get(node).i * now.cell,
        width: now.cell - 1,
        height: now.cell - 1,
      });
    showTooltip(null, lines, cursor.node());
  };
  /** The cell under the pointer of `event`. */
  const cellAt = (event) => {
    const [x, y] = d3.pointer(event, group.node());
    return within(Math.floor(y / hover.get(node).cell), Math.floor(x / hover.get(node).cell));
  };
  holder
    .on('pointermove', (event) => {
      const { i, j } = cellAt(event);
      showTooltip(event, hover.get(node).tooltipAt(i, j));
    })
    .on('pointerleave', hideTooltip)
    // Before the focus that a press gives: the keyboard's cursor starts at the pressed cell.
    .on('pointerdown', (event) => {
      keyCursor.set(node, cellAt(event));
    })
    .on('click', (event) => {
      const { onCell: pick } = hover.get(node);
      if (!pick) return;
      const { i, j } = cellAt(event);
      // (pointerdown placed the cursor.) Focused already, it gets no focus event to show it there.
      if (node.matches(':focus')) cursorAt(i, j);
      pick(i, j, event);
    })
    .on('focus', () => cursorAt(keyCursor.get(node)?.i ?? 0, keyCursor.get(node)?.j ?? 0))
    .on('blur', () => {
      group.selectAll('rect.cursor').remove();
      hideTooltip();
    })
    .on('keydown', (event) => {
      const { onCell: pick } = hover.get(node);
      if (pick && (event.key === 'Enter' || event.key === ' ')) {
        event.preventDefault();
        event.stopPropagation();
        const { i, j } = within(keyCursor.get(node)?.i ?? 0, keyCursor.get(node)?.j ?? 0);
        pick(i, j, event);
        return;
      }
      const step = arrowStep(event);
      if (step) cursorAt(keyCursor.get(node).i + step[0], keyCursor.get(node).j + step[1]);
    });
  return holder;
}

/**
 * The matrix `step` as one picture (see drawMatrix for the arguments): one pixel a cell, or with
 * `cells`, cells of `cell` px with gaps, as SVG cells look, and as SVG rects in a figure.
 */
export function drawAsImage(
  group,
  m,
  step,
  transpose,
  color,
  cell,
  tooltipLines,
  masked,
  { cells = false, onCell = null, picked = null } = {},
) {
  const grid = gridOf(step.data, step.rows, step.cols, transpose);
  if (!cells) {
    imageOf(group, m, cell, (canvas) => paint(grid, color, masked, canvas), tooltipLines, step, grid, onCell);
  } else {
    const fill = fillsOf(color);
    const picture = cellsPicture(group, grid, fill, masked, cell, color.key);
    const holder = listenPicture(group, picture, m, cell, tooltipLines, onCell);
    // A figure leaving the page gets the cells as vectors, sharp at any size (explorer/export.js).
    setFigure(holder.node(), () => cellsFigure(grid, fill, masked, cell));
  }
  drawPicked(group, grid, cell, picked);
}

// A `picked` test without a list of its cells (picked.cells) is asked of every cell, up to this
// many: the heatmap lists its pair, since sixteen heads of 256 × 256 would be a million calls.
const MAX_PICK_SCAN = 4096;

/**
 * An outline over each cell of the picture that `picked` names (picked.cells: [{ i, j }], or
 * picked(i, j) asked of a small grid), as a picked SVG cell has (app.css `.cell.picked`): at
 * least 5 px, however small the cells.
 */
function drawPicked(group, { rows, cols }, cell, picked) {
  let marks = [];
  // Only cells of this grid, as an SVG cell matches only its own (i, j): a pair set through the
  // store (window.attentionExplorer.store) may be anything.
  const inGrid = ({ i, j }) => Number.isInteger(i) && Number.isInteger(j) && i >= 0 && j >= 0 && i < rows && j < cols;
  if (picked?.cells) marks = picked.cells.filter(inGrid);
  else if (picked && rows * cols <= MAX_PICK_SCAN)
    for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) if (picked(i, j)) marks.push({ i, j });
  const side = Math.max(5, cell - 1);
  const offset = (cell - 1 - side) / 2;
  const outlines = group
    .selectAll(':scope > rect.picked-cell')
    .data(marks.slice(0, 64))
    .join((enter) => enter.append('rect').attr('class', 'picked-cell'))
    .call(putAttrs, {
      x: (d) => d.j * cell + offset,
      y: (d) => d.i * cell + offset,
      width: side,
      height: side,
    });
  // Over the picture and its numbers (moved only when something was drawn after them).
  if (!outlines.empty() && group.node().lastElementChild !== outlines.nodes().at(-1)) outlines.raise();
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
        `${title}[${i}, ${j}] ≈ ${formatValue(value(bi, bj))} ${wordsAt(group.node()).cellBlockMean(Math.ceil(m.rows / rows), Math.ceil(m.cols / cols))}`,
        `${labelOf(tokenAxes[0], rowLabels, i, 'row')} → ${labelOf(tokenAxes[1], colLabels, j, 'col')}`,
      ];
    },
    step,
    grid,
  );
}
