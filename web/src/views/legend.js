// A colour legend: a gradient bar with ticks, drawn in SVG so that it exports with the figure.
import * as d3 from 'd3';
import { formatShort } from '../format.js';

let gradientCount = 0;

/**
 * @param g d3 selection of a <g>
 * @param color v → css colour
 * @param domain [min, max]
 * @param o { width, label, hatchLabel }
 */
export function drawLegend(g, color, domain, { width = 180, label = '', hatchLabel = null } = {}) {
  const id = g.attr('data-gradient') ?? `legend-gradient-${++gradientCount}`;
  g.attr('data-gradient', id).classed('legend', true);
  const stops = d3.range(0, 1.0001, 0.1).map((t) => ({ t, color: color(domain[0] + t * (domain[1] - domain[0])) }));
  const defs = g.selectAll('defs').data([0]).join('defs');
  defs
    .selectAll('linearGradient')
    .data([0])
    .join('linearGradient')
    .attr('id', id)
    .selectAll('stop')
    .data(stops)
    .join('stop')
    .attr('offset', (d) => `${d.t * 100}%`)
    .attr('stop-color', (d) => d.color);
  g.selectAll('text.legend-label')
    .data([label])
    .join('text')
    .attr('class', 'legend-label')
    .attr('y', 10)
    .text((d) => d);
  g.selectAll('rect.bar')
    .data([0])
    .join('rect')
    .attr('class', 'bar')
    .attr('y', 16)
    .attr('width', width)
    .attr('height', 10)
    .attr('fill', `url(#${id})`);
  const scale = d3.scaleLinear().domain(domain).range([0, width]);
  const ticks = [domain[0], (domain[0] + domain[1]) / 2, domain[1]];
  g.selectAll('text.tick')
    .data(ticks)
    .join('text')
    .attr('class', 'tick')
    .attr('x', (d) => scale(d))
    .attr('y', 38)
    .attr('text-anchor', (_, k) => ['start', 'middle', 'end'][k])
    .text((d) => formatShort(d));
  const hatch = g
    .selectAll('g.hatch-key')
    .data(hatchLabel ? [hatchLabel] : [])
    .join('g')
    .attr('class', 'hatch-key')
    .attr('transform', `translate(${width + 16},16)`);
  hatch
    .selectAll('rect')
    .data([0])
    .join('rect')
    .attr('width', 14)
    .attr('height', 10)
    .attr('fill', 'url(#hatch)')
    .attr('stroke', '#888');
  hatch
    .selectAll('text')
    .data((d) => [d])
    .join('text')
    .attr('x', 18)
    .attr('y', 9)
    .text((d) => d);
}
