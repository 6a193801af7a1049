// Colours shared by every view (numbers: format.js). All scales are colour-blind safe
// (ColorBrewer YlGnBu and PuOr, Okabe–Ito for heads) and always come with a legend.
import * as d3 from 'd3';

// Okabe & Ito's palette: distinguishable with every common colour-vision deficiency. On the
// light page (white panels, #f7f7f4 around them) its orange, pink and sky blue reached only
// 2.1–2.9:1: those three are darkened in CIE LCh (same hue and chroma, lower lightness) to at
// least 3:1 (WCAG 1.4.11, graphics; tests/node/head-colors.test.mjs), keeping the palette's hues.
export const OKABE_ITO = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#8c6d31', '#000000'];
export const HEAD_COLORS = ['#0072B2', '#B87800', '#009E73', '#B86694', '#2A93C6', '#D55E00', '#8c6d31', '#000000'];
// The same hues for a dark panel (#1f2028): each lightened until it has at least 3:1 contrast
// there (WCAG 1.4.11, graphics); black, head 8, becomes near-white. tests/e2e/readable.test.mjs
// computes the contrast of every head's swatch and line.
export const HEAD_COLORS_DARK = [
  '#3D9BE9',
  '#E69F00',
  '#00B386',
  '#E08DBE',
  '#9AD4F5',
  '#F07A2A',
  '#C9A15A',
  '#E9E9EE',
];

const darkScheme = globalThis.matchMedia?.('(prefers-color-scheme: dark)');

/** Whether the page is drawn in its dark colours (the views re-render when this changes). */
export function prefersDark() {
  return Boolean(darkScheme?.matches);
}

/** Calls `onChange` whenever the colour scheme changes; returns the function that stops it. */
export function watchColorScheme(onChange) {
  darkScheme?.addEventListener('change', onChange);
  return () => darkScheme?.removeEventListener('change', onChange);
}

/** A head's colour (0-based) for the page's scheme, or for a light background (`dark` false). */
export function headColor(head, dark = prefersDark()) {
  const colors = dark ? HEAD_COLORS_DARK : HEAD_COLORS;
  return colors[head % colors.length];
}

/** Weights in [0, 1]: light for 0, dark blue for 1. */
export function weightScale() {
  return d3.scaleSequential(d3.interpolateYlGnBu).domain([0, 1]);
}

/** Signed values: symmetric around 0 (purple positive, orange negative). */
export function signedScale(maxAbs) {
  const m = maxAbs > 0 ? maxAbs : 1;
  return d3.scaleDiverging(d3.interpolatePuOr).domain([-m, 0, m]);
}

/**
 * v → colour on a signed scale of ±maxAbs, with its `domain` [lo, hi] for the legend and a
 * `key` that names the scale (two functions with one key give every value the same colour: the
 * grids remember colours by it across redraws, views/cell-style.js).
 */
export function signedColor(maxAbsValue) {
  const scale = signedScale(maxAbsValue);
  const color = (v) => scale(v);
  color.domain = [scale.domain()[0], scale.domain()[2]];
  color.key = `signed:${color.domain[1]}`;
  return color;
}

/** v → colour of a weight in [0, 1], with its `domain` for the legend and its `key`. */
export function weightColor() {
  const scale = weightScale();
  const color = (v) => scale(v);
  color.domain = [0, 1];
  color.key = 'weight';
  return color;
}

export function maxAbs(data) {
  let m = 0;
  for (const v of data) if (Number.isFinite(v) && Math.abs(v) > m) m = Math.abs(v);
  return m;
}

/** maxAbs of a whole step, also when the page holds only its block means (step.range). */
export function stepMaxAbs(step) {
  return step.range?.maxAbs ?? maxAbs(step.data);
}

/** Black or white text, whichever reads on `color`. */
export function textColorOn(color) {
  const { r, g, b } = d3.rgb(color);
  const luminance = (0.299 * r + 0.587 * g + 0.114 * b) / 255;
  return luminance > 0.55 ? '#111' : '#fff';
}
