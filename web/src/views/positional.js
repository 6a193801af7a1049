// Positional encoding's picture: one strip per dimension c of PE [n × d_model], the wave
// sin(p / 10000^(2i/d)) (even c = 2i) or cos(…) (odd c = 2i+1) drawn over positions p, and
// the engine's PE[p, c] as dots on it. Read down a column of dots and you read row p of PE.
import * as d3 from 'd3';
import { formatValue } from '../format.js';
import { hideTooltip, showTooltip } from '../tooltip.js';

const STRIP = 30;
const TOP = 34;
const LEFT = 92;
const SIN = '#0072B2';
const COS = '#D55E00';
// At most this many strips: the fastest waves and the slowest, with a gap marked between.
const MAX_STRIPS = 8;
const MAX_DOTS = 32;

/** The dimensions drawn: all up to MAX_STRIPS, else the first and last MAX_STRIPS / 2. */
export function peDimensions(dModel) {
  if (dModel <= MAX_STRIPS) return d3.range(dModel);
  const half = MAX_STRIPS / 2;
  return [...d3.range(half), ...d3.range(dModel - half, dModel)];
}

/** The formula's value, continuous in p (the engine's PE[p, c] at integer p). */
function wave(p, c, dModel) {
  const angle = p / 10000 ** ((2 * Math.floor(c / 2)) / dModel);
  return c % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
}

/**
 * Draws into the <g> `g`; returns the height used.
 * @param pe the trace's 'pe' step { rows: n, cols: d_model, data }
 * @param o { width, strings, tokens }
 */
export function drawPositional(g, pe, { width, strings, tokens }) {
  const n = pe.rows;
  const dModel = pe.cols;
  const dims = peDimensions(dModel);
  const plotWidth = Math.max(120, width - LEFT - 10);
  // Positions spread over the strip; one position still gets a little room.
  const x = d3
    .scaleLinear()
    .domain([0, Math.max(1, n - 1)])
    .range([0, plotWidth]);
  const y = d3
    .scaleLinear()
    .domain([-1, 1])
    .range([STRIP / 2 - 3, -STRIP / 2 + 3]);
  const height = TOP + dims.length * STRIP + 24;
  g.classed('pe-waves', true);
  g.selectAll('text.chart-title')
    .data([strings.peTitle])
    .join('text')
    .attr('class', 'chart-title')
    .attr('y', 12)
    .text((d) => d);
  // Enough samples per period of the fastest wave (2π positions) to draw it without aliasing.
  const samples = Math.min(8 * 2048, Math.max(60, 12 * n));
  // At most MAX_DOTS dots a strip (every k-th position): 2,048 × 8 circles would be 16,384 nodes.
  // Every position up to 32 tokens.
  const every = Math.ceil(n / MAX_DOTS);
  const strips = g
    .selectAll('g.pe-strip')
    .data(dims, (c) => c)
    .join((enter) => {
      const s = enter.append('g').attr('class', 'pe-strip');
      s.append('line').attr('class', 'axis-line');
      s.append('text').attr('class', 'pe-label');
      s.append('path').attr('class', 'wave');
      return s;
    })
    .attr('data-dim', (c) => c)
    .attr(
      'transform',
      (_, k) =>
        `translate(${LEFT},${TOP + k * STRIP + STRIP / 2 + (dims.length < dModel && k >= dims.length / 2 ? 6 : 0)})`,
    );
  strips.select('line.axis-line').attr('x1', 0).attr('x2', plotWidth).attr('y1', 0).attr('y2', 0);
  strips
    .select('text.pe-label')
    .attr('x', -8)
    .attr('y', 4)
    .attr('text-anchor', 'end')
    .text((c) => `${strings.peDimension(c)} ${c % 2 === 0 ? 'sin' : 'cos'}`);
  strips
    .select('path.wave')
    .attr('stroke', (c) => (c % 2 === 0 ? SIN : COS))
    .attr('d', (c) =>
      d3.line()(
        d3.range(samples + 1).map((k) => {
          const p = (k / samples) * Math.max(1, n - 1);
          return [+x(p).toFixed(1), +y(wave(p, c, dModel)).toFixed(1)];
        }),
      ),
    );
  // The engine's numbers on the waves; hover names the token and the value.
  strips
    .selectAll('circle.sample')
    .data((c) => d3.range(0, n, every).map((p) => ({ p, c, v: pe.data[p * dModel + c] })))
    .join('circle')
    .attr('class', 'sample')
    .attr('r', n > 64 ? 1.5 : 3)
    .attr('cx', (d) => x(d.p))
    .attr('cy', (d) => y(d.v))
    .attr('fill', (d) => (d.c % 2 === 0 ? SIN : COS))
    .attr('data-p', (d) => d.p)
    .attr('data-value', (d) => d.v)
    .on('pointerenter', (event, d) =>
      showTooltip(event, [`PE[${d.p}, ${d.c}] = ${formatValue(d.v)}`, `${strings.pePosition} ${d.p}: ${tokens[d.p]}`]),
    )
    .on('pointerleave', hideTooltip);
  g.selectAll('text.pe-axis')
    .data([`${strings.pePosition} 0 … ${n - 1}`])
    .join('text')
    .attr('class', 'pe-axis')
    .attr('x', LEFT)
    .attr('y', height - 6)
    .text((d) => d);
  return height;
}
