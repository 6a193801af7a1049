// A histogram of the spread of scores (the softmax view and the stage's extra draw it), into
// kept parts (parts.js): a redraw moves the bins that changed; the axis is redrawn only when its
// domain or width changed (d3's axis rewrites every tick's text and lines).
import * as d3 from 'd3';
import { put } from './dom.js';
import { layer, part, setText } from './parts.js';
import { fitText } from './text.js';

/** g: a d3 selection of the chart's <g>; bins: [{ x0, x1, length }] as d3.bin makes them (reduce.js spreadOf). */
export function histogram(g, bins, { width, height, title, color }) {
  const node = g.node();
  const x = d3
    .scaleLinear()
    .domain([bins[0]?.x0 ?? 0, bins.at(-1)?.x1 ?? 1])
    .range([0, width]);
  const y = d3
    .scaleLinear()
    .domain([0, d3.max(bins, (b) => b.length) || 1])
    .range([height, 0]);
  const titleNode = part(node, 'text', 'chart-title');
  put(titleNode, 'y', -8);
  setText(titleNode, fitText(title, width, 12));
  const rects = layer(part(node, 'g', 'bins'), 'rect', bins.length, (rect) => rect.setAttribute('class', 'bin'));
  bins.forEach((b, k) => {
    put(rects[k], 'x', x(b.x0));
    put(rects[k], 'width', Math.max(0, x(b.x1) - x(b.x0) - 1));
    put(rects[k], 'y', y(b.length));
    put(rects[k], 'height', height - y(b.length));
    put(rects[k], 'fill', color);
  });
  const axis = part(node, 'g', 'axis');
  put(axis, 'transform', `translate(0,${height})`);
  // About one tick per 50 px: on a phone five ticks of "−15" ran into each other.
  const ticks = Math.max(2, Math.min(5, Math.floor(width / 50)));
  const drawn = `${x.domain()} ${width} ${ticks}`;
  if (axis.__drawn === drawn) return;
  axis.__drawn = drawn;
  d3.select(axis).call(d3.axisBottom(x).ticks(ticks));
}
