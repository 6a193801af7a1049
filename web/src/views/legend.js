// A colour legend: a gradient bar with ticks, drawn in SVG so that it exports with the figure.
import * as d3 from 'd3';
import { formatShort } from '../format.js';
import { put, putAttrs, setTexts } from '../dom.js';
import { textWidth } from './text.js';

let gradientCount = 0;

/**
 * @param g d3 selection of a <g>
 * @param color v → css colour
 * @param domain [min, max]
 * @param o { width, label, hatchLabel }
 */
export function drawLegend(g, color, domain, { width = 180, label = '', hatchLabel = null } = {}) {
  const id = g.attr('data-gradient') ?? `legend-gradient-${++gradientCount}`;
  put(g.node(), 'data-gradient', id);
  if (!g.classed('legend')) g.classed('legend', true);
  const stops = d3.range(0, 1.0001, 0.1).map((t) => ({ t, color: color(domain[0] + t * (domain[1] - domain[0])) }));
  // Redrawn on every keystroke (a new token moves the domain): each write only where it changed.
  const defs = g.selectAll('defs').data([0]).join('defs');
  const gradient = defs.selectAll('linearGradient').data([0]).join('linearGradient');
  put(gradient.node(), 'id', id);
  putAttrs(gradient.selectAll('stop').data(stops).join('stop'), {
    offset: (d) => `${d.t * 100}%`,
    'stop-color': (d) => d.color,
  });
  setTexts(
    g
      .selectAll('text.legend-label')
      .data([label])
      .join((enter) => enter.append('text').attr('class', 'legend-label').attr('y', 10)),
    (d) => d,
  );
  putAttrs(
    g
      .selectAll('rect.bar')
      .data([0])
      .join((enter) => enter.append('rect').attr('class', 'bar').attr('y', 16).attr('height', 10)),
    { width, fill: `url(#${id})` },
  );
  const scale = d3.scaleLinear().domain(domain).range([0, width]);
  const ticks = [domain[0], (domain[0] + domain[1]) / 2, domain[1]];
  const tickTexts = g
    .selectAll('text.tick')
    .data(ticks)
    .join((enter) => enter.append('text').attr('class', 'tick').attr('y', 38));
  putAttrs(tickTexts, { x: (d) => scale(d), 'text-anchor': (_, k) => ['start', 'middle', 'end'][k] });
  setTexts(tickTexts, (d) => formatShort(d));
  const hatch = g
    .selectAll('g.hatch-key')
    .data(hatchLabel ? [hatchLabel] : [])
    .join((enter) => {
      const key = enter.append('g').attr('class', 'hatch-key');
      key.append('rect').attr('width', 14).attr('height', 10).attr('fill', 'url(#hatch)').attr('stroke', '#888');
      key.append('text').attr('x', 18).attr('y', 9);
      return key;
    });
  putAttrs(hatch, { transform: `translate(${width + 16},16)` });
  setTexts(hatch.select('text'), (d) => d);
}

// A figure's legend (the compact embed's heatmaps and matrix): a bar beside the grid, as tall as
// its cells, its label in lines above it. A bar above the grid as wide as a 16:9 slide's
// heatmap left a band of empty frame beside it, and one at the top right of the matrix an
// empty band under it. Its texts are 13 px (.legend.column in app.css and the export's rules):
// a figure is scaled to its frame, and 11 px scaled down to a 900 px column read at 9 px.
const COLUMN_FONT = 13;
const COLUMN_BAR = 14;
// Its label's lines are at most this wide (px): a long label ("weights (value) · one scale for
// all heads") would make the legend wider than a grid.
const COLUMN_LABEL = 124;
const LINE_HEIGHT = COLUMN_FONT * 1.25;

const WIDE = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\u3000-\u303f\uff00-\uffef]/u;

/** `text` in lines of at most `width` px at `font` px: split at " · ", then between words or CJK characters. */
export function wrapLabel(text, width, font) {
  const lines = [];
  for (const part of text.split(' · ')) {
    // Words with the spaces after them, each CJK character a word of its own.
    const words = part.match(new RegExp(`(?:${WIDE.source}|[^\\s${WIDE.source.slice(1, -1)}]+)\\s*`, 'gu')) ?? [];
    let line = '';
    for (const word of words) {
      if (line && textWidth((line + word).trim(), font) > width) {
        lines.push(line.trim());
        line = word;
      } else line += word;
    }
    line = line.trim();
    if (line) lines.push(line);
  }
  return lines;
}

/**
 * The size drawColumnLegend draws with `label` and `hatchLabel`, without drawing: { width, top
 * (the bar's, below the label), below (the hatch key's room under the bar) } in px, and the
 * label's lines.
 */
export function measureColumnLegend(domain, { label = '', hatchLabel = null }) {
  const lines = wrapLabel(label, COLUMN_LABEL, COLUMN_FONT);
  const ticks = [domain[0], (domain[0] + domain[1]) / 2, domain[1]];
  const width = Math.max(
    ...lines.map((line) => textWidth(line, COLUMN_FONT)),
    COLUMN_BAR + 6 + Math.max(...ticks.map((t) => textWidth(formatShort(t), COLUMN_FONT))),
    hatchLabel ? COLUMN_BAR + 6 + textWidth(hatchLabel, COLUMN_FONT) : 0,
  );
  return { width: Math.ceil(width), top: lines.length * LINE_HEIGHT + 8, below: hatchLabel ? 28 : 0, lines, ticks };
}

/**
 * A colour legend as a vertical bar of `height` px, the domain's top at its top, ticks beside it
 * and its label above, from the <g>'s origin (the label's top left). Returns measureColumnLegend's sizes.
 * @param o { height, label, hatchLabel }
 */
export function drawColumnLegend(g, color, domain, { height, label = '', hatchLabel = null }) {
  const size = measureColumnLegend(domain, { label, hatchLabel });
  const id = g.attr('data-gradient') ?? `legend-gradient-${++gradientCount}`;
  put(g.node(), 'data-gradient', id);
  g.classed('legend column', true);
  const stops = d3.range(0, 1.0001, 0.1).map((t) => ({ t, color: color(domain[0] + t * (domain[1] - domain[0])) }));
  const gradient = g
    .selectAll('defs')
    .data([0])
    .join('defs')
    .selectAll('linearGradient')
    .data([0])
    .join('linearGradient');
  // From the bottom (the domain's least) up.
  putAttrs(gradient, { id, x1: 0, y1: 1, x2: 0, y2: 0 });
  putAttrs(gradient.selectAll('stop').data(stops).join('stop'), {
    offset: (d) => `${d.t * 100}%`,
    'stop-color': (d) => d.color,
  });
  const labels = g
    .selectAll('text.legend-label')
    .data(size.lines)
    .join((enter) => enter.append('text').attr('class', 'legend-label'));
  putAttrs(labels, { x: 0, y: (_, k) => (k + 0.8) * LINE_HEIGHT });
  setTexts(labels, (d) => d);
  putAttrs(
    g
      .selectAll('rect.bar')
      .data([0])
      .join((enter) => enter.append('rect').attr('class', 'bar')),
    { x: 0, y: size.top, width: COLUMN_BAR, height, fill: `url(#${id})` },
  );
  const scale = d3
    .scaleLinear()
    .domain(domain)
    .range([size.top + height, size.top]);
  const tickTexts = g
    .selectAll('text.tick')
    .data(size.ticks)
    .join((enter) => enter.append('text').attr('class', 'tick').attr('dominant-baseline', 'central'));
  putAttrs(tickTexts, { x: COLUMN_BAR + 6, y: (d) => scale(d) });
  setTexts(tickTexts, (d) => formatShort(d));
  const hatch = g
    .selectAll('g.hatch-key')
    .data(hatchLabel ? [hatchLabel] : [])
    .join((enter) => {
      const key = enter.append('g').attr('class', 'hatch-key');
      key
        .append('rect')
        .attr('width', COLUMN_BAR)
        .attr('height', 12)
        .attr('fill', 'url(#hatch)')
        .attr('stroke', '#888');
      key
        .append('text')
        .attr('x', COLUMN_BAR + 6)
        .attr('y', 6)
        .attr('dominant-baseline', 'central');
      return key;
    });
  putAttrs(hatch, { transform: `translate(0,${size.top + height + 16})` });
  setTexts(hatch.select('text'), (d) => d);
  return size;
}

const LEGEND_WIDTH = 180;
const LEGEND_HEIGHT = 48;

/**
 * One legend per distinct colour scale among `operands` (their `color.domain`), each naming
 * the matrices drawn with it; wraps to `width`. `note` is a line above them (e.g. "one scale
 * for every matrix"). Returns the height drawn.
 * @param o { width, maskedLabel, note }
 */
export function drawLegends(g, operands, { width, maskedLabel = null, note = '' }) {
  const groups = new Map();
  for (const operand of operands) {
    const domain = operand.color?.domain;
    if (!domain) continue;
    const key = domain.join(':');
    if (!groups.has(key)) groups.set(key, { key, color: operand.color, domain, titles: [], masked: false });
    const group = groups.get(key);
    if (!group.titles.includes(operand.title)) group.titles.push(operand.title);
    group.masked ||= Boolean(operand.masked);
  }
  const entries = [...groups.values()];
  const top = note ? 16 : 0;
  const slot = LEGEND_WIDTH + (maskedLabel ? 90 : 30);
  const perRow = Math.max(1, Math.floor(width / slot));
  setTexts(
    g
      .selectAll('text.legend-note')
      .data(note && entries.length ? [note] : [])
      .join((enter) => enter.append('text').attr('class', 'legend-note').attr('y', 10)),
    (d) => d,
  );
  // Kept in order, not by domain: a keystroke that moves a domain updates its legend in place.
  const legends = g
    .selectAll('g.stage-legend')
    .data(entries)
    .join((enter) => enter.append('g').attr('class', 'stage-legend'));
  putAttrs(legends, {
    transform: (_, k) => `translate(${(k % perRow) * slot},${top + Math.floor(k / perRow) * LEGEND_HEIGHT})`,
  });
  legends.each(function draw(d) {
    drawLegend(d3.select(this), d.color, d.domain, {
      width: LEGEND_WIDTH,
      // A long list reads as its ends: "X … O".
      label: d.titles.length > 3 ? `${d.titles[0]} … ${d.titles.at(-1)}` : d.titles.join(', '),
      hatchLabel: d.masked ? maskedLabel : null,
    });
  });
  return entries.length ? top + Math.ceil(entries.length / perRow) * LEGEND_HEIGHT : 0;
}
