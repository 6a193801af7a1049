// A colour legend: a gradient bar with ticks, drawn in SVG so that it exports with the figure.
import * as d3 from 'd3';
import { formatShort } from '../format.js';
import { put, putAttrs, setTexts } from '../dom.js';

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
