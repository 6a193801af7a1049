// One bar per key over one query's row (scores, scaled scores or weights; the softmax view and
// the stage's extra draw it). Drawn into kept parts (parts.js): a keystroke writes the bars and
// labels that changed and adds the new token's, nothing else; one pair of listeners per chart
// names the bar under the pointer, whatever bars a later draw leaves.
import * as d3 from 'd3';
import { formatFit, formatValue } from '../format.js';
import { hideTooltip, showTooltip } from '../tooltip.js';
import { duration } from '../motion.js';
import { put, forget, setText } from '../dom.js';
import { dropPart, layer, part } from './parts.js';
import { fitText, textWidth, writesVertically } from './text.js';
import { nodeLocal } from '../node-local.js';

// What the listeners and the next draw read, kept on the nodes (node-local.js): a chart's
// { values, labels, x }, a bar's index, and the { label, room } a label was fitted to.
const chartOf = nodeLocal();
const barIndex = nodeLocal();
const labelFitted = nodeLocal();

// Past this many bars a chart is one <path> (no per-bar nodes, labels or motion): a 2,048-token
// row cannot be read bar by bar, and 12,000 animated nodes froze the page.
const MAX_BARS = 128;
// The gap between bars, as a share of a band (d3.scaleBand's padding: inner and outer).
const PAD = 0.15;
// Values printed above the bars up to this many bars; past it hover gives them.
const MAX_VALUES = 12;
// Bar labels: 11 px; upright (rotate −90) in this much room when they do not fit side by
// side, and every k-th one when bars are narrower than a line of text.
const BAR_FONT = 11;
const UPRIGHT_ROOM = 54;
// Room above a chart for its title, over the value printed above the tallest bar.
export const TITLE_ROOM = 24;
// A title's second line, above the first's place (px).
export const TITLE_LINE = 15;

/** How a chart of `labels.length` bars over `width` px labels them: { upright, every, room, height }. */
export function barLabelLayout(labels, width) {
  const step = width / Math.max(1, labels.length);
  const widest = labels.reduce((m, l) => Math.max(m, textWidth(l, BAR_FONT)), 0);
  if (widest <= step - 2) return { upright: false, every: 1, room: step - 2, height: 18 };
  return { upright: true, every: Math.ceil((BAR_FONT * 1.3) / step), room: UPRIGHT_ROOM - 8, height: UPRIGHT_ROOM };
}

/** The bar under a pointer event's target (rect.bar), or its tooltip hidden. */
function barTooltip(event) {
  const chart = chartOf.get(event.currentTarget.parentNode);
  const k = barIndex.get(event.target);
  if (event.type === 'pointerover' && k !== undefined && k < chart.values.length)
    showTooltip(event, [`${chart.labels[k]}: ${formatValue(chart.values[k])}`], event.target);
  else hideTooltip();
}

/**
 * g: a d3 selection of the chart's <g>; input: the row (n numbers, ±∞ or NaN drawn as no bar);
 * labels: n key tokens; domain: [lo, hi] of the value axis (default: the row's, with 0); title: a
 * line, or lines.
 */
export function barChart(g, input, labels, { width, height, title, color, domain, labelLayout }) {
  const node = g.node();
  const values = Array.from(input);
  const n = values.length;
  let [lo, hi] = domain ?? [0, 0];
  if (!domain) for (const v of values) if (Number.isFinite(v)) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  const y = d3
    .scaleLinear()
    .domain([lo, hi === lo ? lo + 1 : hi])
    .range([height, 0])
    .nice();
  const x = d3.scaleBand().domain(d3.range(n)).range([0, width]).padding(PAD);
  chartOf.set(node, { values, labels, x });
  // A title in lines (an array: a figure's, split where one line does not fit), the last where
  // one line would be.
  const lines = Array.isArray(title) ? title : [title];
  const titleNode = part(node, 'text', 'chart-title');
  put(titleNode, 'y', -TITLE_ROOM + 8 - TITLE_LINE * (lines.length - 1));
  setText(titleNode, fitText(lines[0], width, 12));
  if (lines.length > 1) {
    const second = part(node, 'text', 'chart-title second');
    put(second, 'y', -TITLE_ROOM + 8);
    setText(second, fitText(lines[1], width, 12));
  } else dropPart(node, 'text', 'chart-title second');
  const zero = part(node, 'line', 'zero');
  put(zero, 'x1', 0);
  put(zero, 'x2', width);
  put(zero, 'y1', y(0));
  put(zero, 'y2', y(0));
  const many = n > MAX_BARS;
  const rects = part(node, 'g', 'bar-rects', (rectLayer) => {
    rectLayer.addEventListener('pointerover', barTooltip);
    rectLayer.addEventListener('pointerout', barTooltip);
  });
  drawBars(rects, values, { x, y, color, count: many ? 0 : n });
  drawValues(part(node, 'g', 'bar-values'), values, { x, y, count: many || n > MAX_VALUES ? 0 : n });
  const labelNodes = part(node, 'g', 'bar-labels');
  if (many) {
    layer(labelNodes, 'g', 0);
    barPath(node, values, { x, y, height, color });
    return;
  }
  dropPart(node, 'path', 'bars');
  dropPart(node, 'rect', 'bar-hit');
  drawLabels(labelNodes, labels, x, height, labelLayout ?? barLabelLayout(labels, width));
}

/**
 * `count` rect.bar (0 or all n) in the units of the data: bar k spans [k + PAD, k + 1) across
 * and [0, v] up, and the layer's transform maps those units to pixels. A new token changes
 * the band width and often the value axis, but then only that transform, not every bar (the
 * raw and scaled scores of the other keys do not change: their bars are not touched). Final at
 * once or, outside typing, gliding 450 ms to their values.
 */
function drawBars(rectLayer, values, { x, y, color, count }) {
  const bars = layer(rectLayer, 'rect', count, (bar, k) => {
    bar.setAttribute('class', 'bar');
    bar.setAttribute('x', k + PAD);
    bar.setAttribute('width', 1 - PAD);
    barIndex.set(bar, k);
  });
  const [d0, d1] = y.domain();
  const [r0, r1] = y.range();
  const transform = `translate(0,${y(0)}) scale(${x.step()},${(r1 - r0) / (d1 - d0)})`;
  const t = duration(450);
  const base = (v) => (Number.isFinite(v) ? Math.min(0, v) : 0);
  const tall = (v) => (Number.isFinite(v) ? Math.abs(v) : 0);
  for (let k = 0; k < count; k++) {
    const bar = bars[k];
    const v = values[k];
    put(bar, 'data-value', String(v));
    put(bar, 'fill', Number.isFinite(v) ? color : 'none');
    if (t) continue;
    if (bar.__transition) d3.select(bar).interrupt();
    put(bar, 'y', base(v));
    put(bar, 'height', tall(v));
  }
  if (!t) {
    if (rectLayer.__transition) d3.select(rectLayer).interrupt();
    put(rectLayer, 'transform', transform);
    return;
  }
  forget(d3.select(rectLayer), ['transform']).transition().duration(t).attr('transform', transform);
  forget(d3.selectAll([...bars]), ['y', 'height'])
    .transition()
    .duration(t)
    .attr('y', (_, k) => base(values[k]))
    .attr('height', (_, k) => tall(values[k]));
}

/**
 * The value above each bar, in the digit widths its band holds (a digit is at most 7.04 px at
 * 11 px; format.js digitWidths), less 2 px between neighbours.
 */
function drawValues(valueLayer, values, { x, y, count }) {
  const texts = layer(valueLayer, 'text', count, (text) => text.setAttribute('class', 'bar-value'));
  const chars = Math.floor(((x.step() - 2) / 7.04) * 10) / 10;
  for (let k = 0; k < count; k++) {
    const v = values[k];
    put(texts[k], 'x', x(k) + x.bandwidth() / 2);
    put(texts[k], 'y', (Number.isFinite(v) ? y(Math.max(0, v)) : y(0)) - 3);
    setText(texts[k], formatFit(v, chars));
  }
}

/**
 * Every `every`-th key's token under its bar, upright when they do not fit side by side. Each
 * label sits in a <g> that moves it: a new token narrows the bands and moves every label, and a
 * moved <g> is not laid out again, where a <text> whose own transform changes is (2 ms for 96).
 */
function drawLabels(labelLayer, labels, x, height, { upright, every, room }) {
  const count = Math.ceil(labels.length / every);
  const places = layer(labelLayer, 'g', count, (g) =>
    g.append(g.ownerDocument.createElementNS(g.namespaceURI, 'text')),
  );
  for (let j = 0; j < count; j++) {
    const k = j * every;
    const text = places[j].firstChild;
    put(places[j], 'transform', `translate(${x(k) + x.bandwidth() / 2},${height + (upright ? 6 : 14)})`);
    // Upright, a CJK label is written vertically (writesVertically): turned, it lay on its side.
    const vertical = upright && writesVertically(labels[k]);
    put(text, 'class', upright ? (vertical ? 'bar-label upright cjk' : 'bar-label upright') : 'bar-label');
    put(text, 'transform', upright && !vertical ? 'rotate(-90)' : '');
    // Fitting a label walks its characters: only for a token or a room that changed.
    const fitted = labelFitted.get(text);
    if (fitted?.label !== labels[k] || fitted?.room !== room) {
      labelFitted.set(text, { label: labels[k], room });
      setText(text, fitText(labels[k], room, BAR_FONT));
    }
  }
}

/** Many bars as one path, with one hit area that names the bar under the pointer. */
function barPath(node, values, { x, y, height, color }) {
  const w = x.bandwidth();
  let d = '';
  values.forEach((v, k) => {
    if (!Number.isFinite(v)) return;
    const top = y(Math.max(0, v));
    d += `M${x(k).toFixed(2)},${top.toFixed(2)}h${w.toFixed(2)}V${y(Math.min(0, v)).toFixed(2)}h${(-w).toFixed(2)}Z`;
  });
  const path = part(node, 'path', 'bars');
  put(path, 'fill', color);
  put(path, 'd', d);
  const [x0, x1] = x.range();
  const hit = part(node, 'rect', 'bar-hit', (rect) => {
    rect.setAttribute('fill', 'transparent');
    rect.addEventListener('pointermove', (event) => {
      const chart = chartOf.get(node);
      const [px] = d3.pointer(event, rect);
      const [a, b] = chart.x.range();
      const n = chart.values.length;
      const k = Math.max(0, Math.min(n - 1, Math.floor(((px - a) / (b - a)) * n)));
      showTooltip(event, [`${chart.labels[k]} (#${k}): ${formatValue(chart.values[k])}`]);
    });
    rect.addEventListener('pointerleave', hideTooltip);
  });
  put(hit, 'x', x0);
  put(hit, 'width', x1 - x0);
  put(hit, 'height', height);
}
