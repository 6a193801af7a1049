// Colours shared by every view (numbers: format.js). All scales are colour-blind safe
// (ColorBrewer YlGnBu and PuOr, Okabe–Ito for heads) and always come with a legend.
import * as d3 from 'd3';

// Okabe & Ito's palette: distinguishable with every common colour-vision deficiency.
const HEAD_COLORS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#8c6d31', '#000000'];

export function headColor(head) {
  return HEAD_COLORS[head % HEAD_COLORS.length];
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

/** v → colour on a signed scale of ±maxAbs, with its `domain` [lo, hi] for the legend. */
export function signedColor(maxAbsValue) {
  const scale = signedScale(maxAbsValue);
  const color = (v) => scale(v);
  color.domain = [scale.domain()[0], scale.domain()[2]];
  return color;
}

/** v → colour of a weight in [0, 1], with its `domain` for the legend. */
export function weightColor() {
  const scale = weightScale();
  const color = (v) => scale(v);
  color.domain = [0, 1];
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
