// A histogram of the spread of scores (the softmax view and the stage's extra draw it), into
// kept parts (parts.js): a redraw writes the bins that changed; the axis is redrawn only when
// its domain or width changed (d3's axis rewrites every tick's text and lines).
import * as d3 from 'd3';
import { put, setText } from '../dom.js';
import { layer, part } from './parts.js';
import { fitText } from './text.js';
import { nodeLocal } from '../node-local.js';

// The domain, width and ticks an axis was last drawn with (a keystroke that keeps them skips it).
const axisDrawn = nodeLocal();

/** g: a d3 selection of the chart's <g>; bins: [{ x0, x1, length }] as d3.bin makes them (reduce.js spreadOf). */
export function histogram(g, bins, { width, height, title, color }) {
  const node = g.node();
  const x = d3
    .scaleLinear()
    .domain([bins[0]?.x0 ?? 0, bins.at(-1)?.x1 ?? 1])
    .range([0, width]);
  const tallest = d3.max(bins, (b) => b.length) || 1;
  const titleNode = part(node, 'text', 'chart-title');
  put(titleNode, 'y', -8);
  setText(titleNode, fitText(title, width, 12));
  // Bins in the data's units (scores across, counts up) under one transform: a keystroke
  // writes the bins whose counts changed, and the transform when the tallest bin did.
  const bars = part(node, 'g', 'bins');
  const [d0, d1] = x.domain();
  const kx = width / (d1 - d0 || 1);
  put(bars, 'transform', `translate(${x(0)},${height}) scale(${kx},${-height / tallest})`);
  const rects = layer(bars, 'rect', bins.length, (rect) => {
    rect.setAttribute('class', 'bin');
    rect.setAttribute('y', 0);
  });
  bins.forEach((b, k) => {
    put(rects[k], 'x', b.x0);
    // A 1 px gap between bins, in the same units.
    put(rects[k], 'width', Math.max(0, b.x1 - b.x0 - 1 / kx));
    put(rects[k], 'height', b.length);
    put(rects[k], 'fill', color);
  });
  const axis = part(node, 'g', 'axis');
  put(axis, 'transform', `translate(0,${height})`);
  // About one tick per 50 px: on a phone five ticks of "−15" ran into each other.
  const ticks = Math.max(2, Math.min(5, Math.floor(width / 50)));
  const drawn = `${x.domain()} ${width} ${ticks}`;
  if (axisDrawn.get(axis) === drawn) return;
  axisDrawn.set(axis, drawn);
  d3.select(axis).call(d3.axisBottom(x).ticks(ticks));
}
