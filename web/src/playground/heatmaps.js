// Every layer's and head's attention weights of one sequence, as a grid of small heatmaps: one
// <canvas> per head (T × T cells, one pixel each, scaled up by CSS; canvas, not SVG, because
// they redraw ten times a second while training). Each canvas carries an aria-label with the
// head's strongest link per query. Short sequences (T ≤ LABEL_MAX) get the example's tokens
// beside the rows (queries, down) and above the columns (keys, across). Hovering a cell, or
// moving over the cells with the arrow keys once the canvas has focus, shows the cell's query,
// key and weight under the heatmap (readout.js), and keeps it current as new snapshots come.
//
// A model of the engine's limits has 6 × 64 heads of 256 × 256 cells: drawn at once, that froze
// the page for most of a minute. The grid shows one page of at most MAX_MAPS heatmaps
// (heatmapPages: whole layers while a layer's heads fit a page, else part of one layer), and
// paints them a few per frame: a call stops at its deadline and says whether it is done.
//   drawHeatmaps(container, snapshot, label, page, deadline) → done
//     snapshot: { tokens, layers, heads, length: T, weights: Float32Array [L × H × T × T] }
import { rgb } from 'd3';
import { weightScale } from '../scales.js';
import { labelAxes, pointAt, showCell, wireCells } from './readout.js';

export const MAX_MAPS = 16;
const CELL_MAX = 18;
/** Sequences up to this long are labelled with their tokens, in cells of at least LABEL_CELL px. */
export const LABEL_MAX = 24;
const LABEL_CELL = 11;
const SIZE = 148;
const color = weightScale();
// The colour of each weight in 1/256 steps as an RGBA pixel (little-endian: 0xAABBGGRR),
// computed once: 10 redraws/s of thousands of cells.
const LUT = Uint32Array.from({ length: 257 }, (_, i) => {
  const { r, g, b } = rgb(color(i / 256));
  return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
});

/** The newest snapshot each container was given, for its hover texts: { snap, cell, key, cursor }
 * (cursor: the figure to paint first next time, so that snapshots arriving faster than a page
 * paints still reach every figure). */
const shown = new WeakMap();
/** What each figure shows: { snap, label } (a new language rewrites its texts). */
const pictured = new WeakMap();

/**
 * The pages of a layers × heads grid, each at most MAX_MAPS heatmaps: { layers: [first, last],
 * heads: [first, last] } (0-based, inclusive). A preset's 2 × 4 is one page; 6 × 4 is pages of
 * 4 layers; 6 × 64 is 4 pages of 16 heads per layer.
 */
export function heatmapPages(layers, heads) {
  const pages = [];
  if (heads <= MAX_MAPS) {
    const span = Math.floor(MAX_MAPS / heads);
    for (let l = 0; l < layers; l += span)
      pages.push({ layers: [l, Math.min(layers, l + span) - 1], heads: [0, heads - 1] });
  } else {
    for (let l = 0; l < layers; l++) {
      for (let h = 0; h < heads; h += MAX_MAPS)
        pages.push({ layers: [l, l], heads: [h, Math.min(heads, h + MAX_MAPS) - 1] });
    }
  }
  return pages;
}

/** Per query: the key of its largest weight (for text alternatives and tests). */
export function strongestKeys(weights, offset, T) {
  return Array.from({ length: T }, (_, q) => {
    let best = 0;
    for (let k = 1; k < T; k++) if (weights[offset + q * T + k] > weights[offset + q * T + best]) best = k;
    return best;
  });
}

function makeFigure(container, l, h) {
  const figure = document.createElement('figure');
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.tabIndex = 0; // the arrow keys then walk its cells
  canvas.dataset.layer = l;
  canvas.dataset.head = h;
  // map: the column labels above, the row labels left of the canvas (readout.js labelAxes).
  const map = document.createElement('div');
  map.className = 'pg-map';
  const cols = Object.assign(document.createElement('div'), { className: 'pg-cols' });
  const rows = Object.assign(document.createElement('div'), { className: 'pg-rows' });
  const plot = Object.assign(document.createElement('div'), { className: 'pg-plot' });
  const cursor = Object.assign(document.createElement('div'), { className: 'pg-cursor', hidden: true });
  plot.append(canvas, cursor);
  map.append(document.createElement('span'), cols, rows, plot);
  const readout = Object.assign(document.createElement('output'), { className: 'pg-readout' });
  figure.append(map, readout, document.createElement('figcaption'));
  // The cell under the pointer or the keyboard's cursor, read from the newest snapshot drawn.
  wireCells(figure, () => {
    const { snap, cell } = shown.get(container);
    return { snap, cell, offset: (l * snap.heads + h) * snap.length * snap.length };
  });
  return figure;
}

/** Draws head (l, h) of `snap` into `canvas`: one pixel per cell. */
function paint(canvas, snap, offset) {
  const { length: T, weights } = snap;
  if (canvas.width !== T) {
    canvas.width = T;
    canvas.height = T;
  }
  const image = new ImageData(T, T);
  const pixels = new Uint32Array(image.data.buffer);
  for (let i = 0; i < T * T; i++) {
    const v = (weights[offset + i] * 256 + 0.5) | 0; // rounded; NaN → 0
    pixels[i] = LUT[v < 0 ? 0 : v > 256 ? 256 : v];
  }
  canvas.getContext('2d').putImageData(image, 0, 0);
}

/**
 * Draws `page` of `snap` into `container`, figures first, then their pictures in order until
 * `deadline` (a performance.now() time; at least one per call); true once all are painted.
 */
export function drawHeatmaps(
  container,
  snap,
  label,
  page = heatmapPages(snap.layers, snap.heads)[0],
  deadline = Infinity,
) {
  const { heads, length: T, weights, tokens } = snap;
  const [l0, l1] = page.layers;
  const [h0, h1] = page.heads;
  const key = `${snap.layers}x${heads}x${T}:${l0}-${l1}:${h0}-${h1}`;
  if (container.dataset.shape !== key) {
    container.dataset.shape = key;
    container.replaceChildren();
    // Rows are layers while whole layers fit a page; part of one layer wraps, four to a row.
    container.style.setProperty('--heads', h1 - h0 + 1 === heads ? heads : 4);
    for (let l = l0; l <= l1; l++) for (let h = h0; h <= h1; h++) container.append(makeFigure(container, l, h));
  }
  const labelled = T <= LABEL_MAX;
  const cell = Math.max(labelled ? LABEL_CELL : 1, Math.min(CELL_MAX, Math.floor(SIZE / T)));
  const px = `${cell * T}px`;
  const figures = container.querySelectorAll('figure');
  const last = shown.get(container);
  const cursor = last?.key === key ? last.cursor : 0;
  shown.set(container, { snap, cell, key, cursor });
  let painted = 0;
  for (let n = 0; n < figures.length; n++) {
    const figure = figures[(cursor + n) % figures.length];
    const was = pictured.get(figure);
    if (was?.snap === snap && was.label === label) continue;
    if (painted > 0 && performance.now() > deadline) {
      shown.set(container, { snap, cell, key, cursor: (cursor + n) % figures.length });
      return false;
    }
    painted++;
    pictured.set(figure, { snap, label });
    const canvas = figure.querySelector('canvas');
    const l = Number(canvas.dataset.layer);
    const h = Number(canvas.dataset.head);
    const offset = (l * heads + h) * T * T;
    if (canvas.style.width !== px) {
      canvas.style.width = px;
      canvas.style.height = px;
    }
    paint(canvas, snap, offset);
    labelAxes(figure, labelled ? tokens : null, cell);
    showCell(figure, pointAt(figure), { snap, cell, offset });
    const strongest = strongestKeys(weights, offset, T);
    const title = label(l, h);
    if (figure.lastChild.textContent !== title) figure.lastChild.textContent = title;
    canvas.dataset.strongest = strongest.join(' ');
    const text = `${title}: ${tokens.map((t, q) => `${t}→${tokens[strongest[q]]}`).join(', ')}`;
    if (canvas.getAttribute('aria-label') !== text) canvas.setAttribute('aria-label', text);
  }
  return true;
}
