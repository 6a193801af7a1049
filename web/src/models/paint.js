// A matrix as an image, one block of `cell` pixels per value (rows × cols, row-major).
import * as d3 from 'd3';
import { bmpURL } from '../views/bmp.js';
import { packed } from '../views/cell-style.js';
import { visibleToken } from '../visible-token.js';

// Scale → its 256 colours over its domain, kept by the scale's interpolator where it has one:
// the block makes a scale a step on every keystroke (signedScale of the step's largest value),
// and parsing 256 colours for each of its eight steps took 1.5 ms. (Both scales drawn here,
// signedScale and weightColor, are linear over their domain: the table depends on nothing else.)
const tables = new WeakMap();

function colorTable(color, low, span) {
  const key = color.interpolator?.() ?? color;
  if (!tables.has(key))
    tables.set(
      key,
      Uint32Array.from({ length: 256 }, (_, k) => packed(color(low + (span * k) / 255))),
    );
  return tables.get(key);
}

// A value that is not finite (none in a model that loaded: its weights are checked) shows grey.
const NOT_FINITE = packed('#c8c8c8');

/**
 * An <img> (`image`, else a new one) showing a rows × cols matrix, one pixel per value scaled by
 * CSS (filling rectangles with colour strings took 100 ms for a 4-layer model's grid and
 * block); colours from a 256-step table of the scale. An image, not a canvas: Chromium made each
 * of the panel's sixteen canvases a compositing layer, 4.5 ms of every frame's commit while a
 * model is shown (English prose, traced), and a keystroke redraws them all.
 */
export function matrixImage(data, rows, cols, color, cell = 4, cellHeight = cell, image = null) {
  image ??= Object.assign(document.createElement('img'), { alt: '' });
  image.width = cols * cell;
  image.height = rows * cellHeight;
  const domain = color.domain();
  const low = domain[0];
  const span = domain[domain.length - 1] - low || 1;
  const table = colorTable(color, low, span);
  const pixels = Uint32Array.from({ length: rows * cols }, (_, k) => {
    const v = data[k];
    return Number.isFinite(v) ? table[Math.max(0, Math.min(255, Math.round(((v - low) / span) * 255)))] : NOT_FINITE;
  });
  image.src = bmpURL(pixels, rows, cols);
  return image;
}

/** Weights in [0, 1], light to dark (the explorer's heatmap scale). */
export const weightColor = d3.scaleSequential(d3.interpolateYlGnBu).domain([0, 1]);

/** A token as shown: white space, controls, joiners and lone marks made visible (visible-token.js). */
export const visible = visibleToken;

/** The element `tag` with `className` and `text`, built without innerHTML (text may be user data). */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
