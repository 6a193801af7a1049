// What a grid cell shows for a value: its fill on a colour scale, the ink of its number on that
// fill, and the number cut to the cell's width. A keystroke redraws every cell (800 of them at 8
// tokens in the matrices view, 768 in the stage at 32) and nearly all values are those of the
// draw before: a d3 interpolation, a colour parse and up to seven number formats per cell are
// remembered here instead of redone.
import * as d3 from 'd3';
import { textColorOn } from '../scales.js';
import { formatFit } from '../format.js';

// Entries a table holds before it starts over (a long session of typing meets new values).
const LIMIT = 20000;
// Colour scales remembered at once: each keystroke may bring a new one (a new largest |value|).
const SCALES = 32;

const fills = new Map(); // scale key → Map(v → css)
const inks = new Map(); // css → '#111' or '#fff'
const labels = new Map(); // chars → Map(v → text)
const tables = new Map(); // `${scale key}:${size}` → Uint32Array of packed RGBA
const pixels = new Map(); // css → packed RGBA

function remembered(map, key, make, limit = LIMIT) {
  let value = map.get(key);
  if (value === undefined) {
    if (map.size >= limit) map.delete(map.keys().next().value); // the oldest
    value = make(key);
    map.set(key, value);
  }
  return value;
}

/** v → css of `color`, remembered where the scale has a `key` (scales.js), else `color` itself. */
export function fillsOf(color) {
  if (color.key === undefined) return color;
  const byValue = remembered(fills, color.key, () => new Map(), SCALES);
  return (v) => remembered(byValue, v, color);
}

/** The ink that reads on the fill `css` (scales.js textColorOn). */
export const inkOn = (css) => remembered(inks, css, textColorOn);

/** formatFit(v, chars): the number a cell prints, remembered. */
export function cellText(v, chars) {
  const byValue = remembered(labels, chars, () => new Map(), SCALES);
  return remembered(byValue, v, () => formatFit(v, chars));
}

/** A css colour as the little-endian RGBA bytes of one ImageData pixel. */
export function packed(css) {
  const c = d3.rgb(css);
  return ((255 << 24) | (c.b << 16) | (c.g << 8) | c.r) >>> 0;
}

/** packed(css), remembered. */
export const pixelOf = (css) => remembered(pixels, css, packed);

/**
 * `size` colours of `color` evenly over [lo, hi] as packed pixels; remembered for a scale with
 * a `key` over its own domain (the same table every keystroke while the scale stays).
 */
export function colorTable(color, lo, hi, size) {
  const make = () => Uint32Array.from({ length: size }, (_, k) => packed(color(lo + (k / (size - 1)) * (hi - lo))));
  if (color.key === undefined) return make();
  return remembered(tables, `${color.key}:${lo}:${hi}:${size}`, make, SCALES);
}
