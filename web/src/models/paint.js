// A matrix painted on a canvas, one block of `cell` pixels per value (rows × cols, row-major).
import * as d3 from 'd3';

export function matrixCanvas(data, rows, cols, color, cell = 4, cellHeight = cell) {
  const canvas = document.createElement('canvas');
  canvas.width = cols * cell;
  canvas.height = rows * cellHeight;
  const context = canvas.getContext('2d');
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      context.fillStyle = color(data[i * cols + j]);
      context.fillRect(j * cell, i * cellHeight, cell, cellHeight);
    }
  }
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
