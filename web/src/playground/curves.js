// Line charts of metrics over training steps (D3, SVG). A chart is a function of its series:
//   drawLines(svg, { title, series: [{ label, color, dash?, dots?, points: [[step, value], …],
//                    band?: [[step, lo, hi], …] }], yDomain?: [lo, hi], log?: boolean,
//                    marks?: [{ x: step, label }] })
// A band is a shaded range under its series' line (e.g. the spread over several seeds).
// A mark is a vertical rule at its step with its label beside it (e.g. "reached 95% at step N").
// It is drawn at its container's width, one unit a pixel, so that its text keeps its CSS size
// (11 px) on a phone too: scaled through a wider viewBox, the legends were 7–9 px.
// Long series are thinned to MAX_POINTS.
import * as d3 from 'd3';

const WIDTH = 460; // before the chart has a width of its own (hidden)
const MIN_WIDTH = 240;
const H = 230;
const LEGEND_ROW = 14;
const M = { top: 20, right: 12, bottom: 24, left: 46 };
const MAX_POINTS = 600;

/** At most MAX_POINTS of `points`, evenly spaced, the last one always kept. */
export function thin(points) {
  if (points.length <= MAX_POINTS) return points;
  const every = points.length / MAX_POINTS;
  const out = [];
  for (let i = 0; i < MAX_POINTS - 1; i++) out.push(points[Math.floor(i * every)]);
  out.push(points[points.length - 1]);
  return out;
}

export function drawLines(svgNode, { title, series, yDomain, log = false, marks = [] }) {
  const W = Math.max(MIN_WIDTH, Math.round(svgNode.clientWidth) || WIDTH);
  const svg = d3.select(svgNode).attr('viewBox', `0 0 ${W} ${H}`);
  // The legend takes one row per series under the title; the plot starts below it.
  const top = M.top + LEGEND_ROW * series.length + 6;
  const shown = series.map((s) => ({
    ...s,
    points: thin(s.points.filter(([, y]) => Number.isFinite(y) && (!log || y > 0))),
    band: thin((s.band ?? []).filter(([, lo, hi]) => Number.isFinite(lo) && Number.isFinite(hi) && (!log || lo > 0))),
  }));
  const all = shown.flatMap((s) => [
    ...s.points,
    ...s.band.flatMap(([x, lo, hi]) => [
      [x, lo],
      [x, hi],
    ]),
  ]);
  const xMax = Math.max(d3.max(all, (p) => p[0]) ?? 1, d3.max(marks, (m) => m.x) ?? 0);
  // A nice x domain (0–500, 0–1000, …) changes only now and then while training: the axes
  // (text the browser must lay out again) are redrawn only when a domain changes.
  const x = d3
    .scaleLinear()
    .domain([0, Math.max(1, xMax)])
    .range([M.left, W - M.right])
    .nice(5);
  const extent = yDomain ?? d3.extent(all, (p) => p[1]);
  const lo = extent[0] ?? (log ? 1e-3 : 0);
  const hi = extent[1] ?? 1;
  const y = (log ? d3.scaleLog() : d3.scaleLinear())
    .domain(lo === hi ? [log ? lo / 2 : lo - 1, log ? hi * 2 : hi + 1] : [lo, hi])
    .range([H - M.bottom, top])
    .nice();
  svg.attr(
    'aria-label',
    `${title}: ${shown.map((s) => `${s.label} ${s.points.length ? formatValue(s.points.at(-1)[1]) : '–'}`).join(', ')}`,
  );

  svg
    .selectAll('text.chart-title')
    .data([title])
    .join('text')
    .attr('class', 'chart-title')
    .attr('x', M.left)
    .attr('y', 14)
    .text((d) => d);
  const axis = (name, transform, scale, draw) => {
    const g = svg.selectAll(`g.${name}`).data([0]).join('g').attr('class', name).attr('transform', transform);
    const key = `${scale.domain().join()} ${scale.range().join()}`;
    if (g.attr('data-domain') !== key) g.attr('data-domain', key).call(draw);
  };
  axis('x-axis', `translate(0,${H - M.bottom})`, x, d3.axisBottom(x).ticks(5, '~s'));
  axis('y-axis', `translate(${M.left},0)`, y, d3.axisLeft(y).ticks(4, '~g'));

  const line = d3
    .line()
    .x((p) => x(p[0]))
    .y((p) => y(p[1]));
  const area = d3
    .area()
    .x((p) => x(p[0]))
    .y0((p) => y(p[1]))
    .y1((p) => y(p[2]));
  svg
    .selectAll('path.band')
    .data(
      shown.filter((s) => s.band.length),
      (s) => s.label,
    )
    .join((enter) => enter.insert('path', 'path.series'))
    .attr('class', 'band')
    .attr('fill', (s) => s.color)
    .attr('fill-opacity', 0.16)
    .attr('stroke', 'none')
    .attr('d', (s) => area(s.band));
  svg
    .selectAll('path.series')
    .data(shown, (s) => s.label)
    .join('path')
    .attr('class', 'series')
    .attr('fill', 'none')
    .attr('stroke', (s) => s.color)
    .attr('stroke-width', 1.6)
    .attr('stroke-dasharray', (s) => s.dash ?? null)
    .attr('d', (s) => (s.points.length ? line(s.points) : null));

  // Series measured now and then (held-out exact match) also get a dot per measurement.
  svg
    .selectAll('g.dots')
    .data(
      shown.filter((s) => s.dots),
      (s) => s.label,
    )
    .join('g')
    .attr('class', 'dots')
    .attr('fill', (s) => s.color)
    .selectAll('circle')
    .data((s) => s.points)
    .join('circle')
    .attr('r', 2.5)
    .attr('cx', (p) => x(p[0]))
    .attr('cy', (p) => y(p[1]));

  // The marks: a dashed rule from the top of the plot to the x axis, labelled at its top; the label
  // goes left of the rule in the right half of the plot, so that it stays inside.
  const mark = svg
    .selectAll('g.mark')
    .data(marks, (m) => m.label)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'mark');
      g.append('line').attr('stroke-dasharray', '3 2');
      g.append('text');
      return g;
    })
    .attr('data-step', (m) => m.x)
    .attr('transform', (m) => `translate(${x(m.x)},0)`);
  mark
    .select('line')
    .attr('y1', top)
    .attr('y2', H - M.bottom);
  mark
    .select('text')
    .attr('x', (m) => (x(m.x) > (M.left + W - M.right) / 2 ? -4 : 4))
    .attr('y', top + 10)
    .attr('text-anchor', (m) => (x(m.x) > (M.left + W - M.right) / 2 ? 'end' : 'start'))
    .text((m) => m.label);

  // The legend: one swatch and label per series, under the title.
  const legend = svg
    .selectAll('g.legend-item')
    .data(shown, (s) => s.label)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'legend-item');
      g.append('line').attr('x1', 0).attr('x2', 14).attr('y1', -4).attr('y2', -4);
      g.append('text').attr('x', 18);
      return g;
    })
    .attr('transform', (_, i) => `translate(${M.left},${M.top + 12 + i * LEGEND_ROW})`);
  legend
    .select('line')
    .attr('stroke', (s) => s.color)
    .attr('stroke-width', 2)
    .attr('stroke-dasharray', (s) => s.dash ?? null);
  legend.select('text').text((s) => s.label);
}

function formatValue(v) {
  return Math.abs(v) >= 0.01 || v === 0 ? d3.format('.3~r')(v) : d3.format('.2~e')(v);
}
