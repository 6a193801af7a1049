// A matrix painted on a canvas, one block of `cell` pixels per value (rows × cols, row-major).
import * as d3 from 'd3';

// Scale → its 256 colours over its domain, kept by the scale's interpolator where it has one:
// the block makes a scale a step on every keystroke (signedScale of the step's largest value),
// and parsing 256 colours for each of its eight steps took 1.5 ms. (Both scales drawn here,
// signedScale and weightColor, are linear over their domain: the table depends on nothing else.)
const tables = new WeakMap();

function colorTable(color, low, span) {
  const key = color.interpolator?.() ?? color;
  if (!tables.has(key)) {
    const table = new Uint8Array(256 * 3);
    for (let k = 0; k < 256; k++) {
      const { r, g, b } = d3.rgb(color(low + (span * k) / 255));
      table.set([r, g, b], 3 * k);
    }
    tables.set(key, table);
  }
  return tables.get(key);
}

/**
 * `canvas` (a new one if none) showing a rows × cols matrix. A keystroke redraws the model panel:
 * its sixteen canvases are kept (the grid's and the block's, grid.js and block.js), since a new
 * canvas's context cost 0.1 ms each.
 */
export function matrixCanvas(data, rows, cols, color, cell = 4, cellHeight = cell, canvas = null) {
  // One pixel per value, scaled by CSS: filling rectangles with colour strings took 100 ms for
  // a 4-layer model's grid and block. Colours come from a 256-step table of the scale.
  canvas ??= document.createElement('canvas');
  if (canvas.width !== cols) canvas.width = cols;
  if (canvas.height !== rows) canvas.height = rows;
  canvas.style.width = `${cols * cell}px`;
  canvas.style.height = `${rows * cellHeight}px`;
  const domain = color.domain();
  const low = domain[0];
  const span = domain[domain.length - 1] - low || 1;
  const table = colorTable(color, low, span);
  const context = canvas.getContext('2d');
  const image = context.createImageData(cols, rows);
  for (let k = 0; k < rows * cols; k++) {
    const v = data[k];
    if (!Number.isFinite(v)) continue; // transparent: no colour stands for a missing value
    const t = 3 * Math.max(0, Math.min(255, Math.round(((v - low) / span) * 255)));
    const pixel = image.data;
    pixel[4 * k] = table[t];
    pixel[4 * k + 1] = table[t + 1];
    pixel[4 * k + 2] = table[t + 2];
    pixel[4 * k + 3] = 255;
  }
  context.putImageData(image, 0, 0);
  return canvas;
}

/** Weights in [0, 1], light to dark (the explorer's heatmap scale). */
export const weightColor = d3.scaleSequential(d3.interpolateYlGnBu).domain([0, 1]);

/** A token as shown: white space and line breaks made visible (a bare "\n" shows nothing). */
export const visible = (token) => token.replace(/\n/g, '↵').replace(/^ $/, '␣');

/** The element `tag` with `className` and `text`, built without innerHTML (text may be user data). */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
