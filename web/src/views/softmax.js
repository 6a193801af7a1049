// The softmax and scaling explainer: for the selected query and head, bar charts of the raw
// scores, the scaled scores and the softmax weights; histograms of the score spread with and
// without ÷√d_k. Every bar is an engine number.
import * as d3 from 'd3';
import { formatExact, formatShort, headColor } from '../scales.js';
import { hideTooltip, showTooltip } from '../tooltip.js';
import { duration } from '../motion.js';

function row(step, i) {
  return Array.from(step.data.subarray(i * step.cols, (i + 1) * step.cols));
}

export function barChart(g, values, labels, { width, height, title, color, domain }) {
  const finite = values.map((v) => (Number.isFinite(v) ? v : 0));
  const [lo, hi] = domain ?? [Math.min(0, ...finite), Math.max(0, ...finite)];
  const y = d3
    .scaleLinear()
    .domain([lo, hi === lo ? lo + 1 : hi])
    .range([height, 0])
    .nice();
  const x = d3.scaleBand().domain(d3.range(values.length)).range([0, width]).padding(0.15);
  g.selectAll('text.chart-title')
    .data([title])
    .join('text')
    .attr('class', 'chart-title')
    .attr('y', -8)
    .text((d) => d);
  g.selectAll('line.zero')
    .data([0])
    .join('line')
    .attr('class', 'zero')
    .attr('x1', 0)
    .attr('x2', width)
    .attr('y1', y(0))
    .attr('y2', y(0));
  const t = duration(450);
  g.selectAll('rect.bar')
    .data(values.map((v, k) => ({ v, k })))
    .join('rect')
    .attr('class', 'bar')
    .attr('data-value', (d) => d.v)
    .attr('x', (d) => x(d.k))
    .attr('width', x.bandwidth())
    .attr('fill', (d) => (Number.isFinite(d.v) ? color : 'none'))
    .on('pointerenter', (event, d) => showTooltip(event, [`${labels[d.k]}: ${formatExact(d.v)}`]))
    .on('pointerleave', hideTooltip)
    .transition()
    .duration(t)
    .attr('y', (d) => (Number.isFinite(d.v) ? y(Math.max(0, d.v)) : y(0)))
    .attr('height', (d) => (Number.isFinite(d.v) ? Math.abs(y(d.v) - y(0)) : 0));
  g.selectAll('text.bar-value')
    .data(values)
    .join('text')
    .attr('class', 'bar-value')
    .attr('x', (_, k) => x(k) + x.bandwidth() / 2)
    .attr('y', (v) => (Number.isFinite(v) ? y(Math.max(0, v)) - 3 : y(0) - 3))
    .text((v) => (values.length <= 12 ? formatShort(v) : ''));
  g.selectAll('text.bar-label')
    .data(labels)
    .join('text')
    .attr('class', 'bar-label')
    .attr('x', (_, k) => x(k) + x.bandwidth() / 2)
    .attr('y', height + 14)
    .text((d) => (labels.length <= 16 ? d : ''));
}

export function histogram(g, values, { width, height, title, color, domain }) {
  const x = d3.scaleLinear().domain(domain).range([0, width]);
  const bins = d3.bin().domain(x.domain()).thresholds(24)(values.filter(Number.isFinite));
  const y = d3
    .scaleLinear()
    .domain([0, d3.max(bins, (b) => b.length) || 1])
    .range([height, 0]);
  g.selectAll('text.chart-title')
    .data([title])
    .join('text')
    .attr('class', 'chart-title')
    .attr('y', -8)
    .text((d) => d);
  g.selectAll('rect.bin')
    .data(bins)
    .join('rect')
    .attr('class', 'bin')
    .attr('x', (b) => x(b.x0))
    .attr('width', (b) => Math.max(0, x(b.x1) - x(b.x0) - 1))
    .attr('y', (b) => y(b.length))
    .attr('height', (b) => height - y(b.length))
    .attr('fill', color);
  g.selectAll('g.axis')
    .data([0])
    .join('g')
    .attr('class', 'axis')
    .attr('transform', `translate(0,${height})`)
    .call(d3.axisBottom(x).ticks(5));
}

/**
 * @param root the view's container element
 * @param o { head, query, strings, onQuery(i), temperature, onTemperature(t), scale, dK }
 */
export function drawSoftmax(root, trace, o) {
  const h = o.head === 'all' ? 0 : o.head;
  const i = Math.min(o.query, trace.nQuery - 1);
  const container = d3.select(root);

  const picker = container
    .selectAll('div.query-picker')
    .data([0])
    .join('div')
    .attr('class', 'query-picker')
    .attr('role', 'group')
    .attr('aria-label', o.strings.query);
  picker
    .selectAll('button')
    .data(trace.tokens)
    .join('button')
    .attr('type', 'button')
    .attr('aria-pressed', (_, k) => String(k === i))
    .text((d) => d)
    .on('click', (_, d) => o.onQuery(trace.tokens.indexOf(d)));

  const svg = container
    .selectAll('svg.softmax-charts')
    .data([0])
    .join('svg')
    .attr('class', 'softmax-charts')
    .attr('role', 'img');
  const width = 560;
  const chartH = 110;
  svg
    .attr('viewBox', `0 0 ${width} ${3 * (chartH + 50) + 150}`)
    .attr('aria-label', `${o.strings['view.softmax']}: ${trace.tokens[i]}`);
  const labels = trace.kvTokens;
  const raw = row(trace.step('scores', h), i);
  const scaled = row(trace.step('masked', h), i);
  const weights = row(trace.step('weights', h), i);
  const scoreDomain = [
    Math.min(0, ...raw, ...scaled.filter(Number.isFinite)),
    Math.max(0, ...raw, ...scaled.filter(Number.isFinite)),
  ];
  const charts = [
    { title: `${o.strings.rawScores} · ${trace.tokens[i]}`, values: raw, color: '#7b6fb0', domain: scoreDomain },
    { title: o.strings.scaledScores, values: scaled, color: '#b35806', domain: scoreDomain },
    {
      title: `${o.strings.weights} · ${o.strings.saturation(formatShort(Math.max(...weights)))}`,
      values: weights,
      color: headColor(h),
      domain: [0, 1],
    },
  ];
  svg
    .selectAll('g.chart')
    .data(charts)
    .join('g')
    .attr('class', (_, k) => `chart chart-${['raw', 'scaled', 'weights'][k]}`)
    .attr('transform', (_, k) => `translate(30,${30 + k * (chartH + 50)})`)
    .each(function draw(c) {
      barChart(d3.select(this), c.values, labels, { width: width - 60, height: chartH, ...c });
    });

  const all = (name) => d3.range(trace.heads).flatMap((k) => Array.from(trace.step(name, k).data));
  const rawAll = all('scores');
  const scaledAll = all('scaled');
  const extent = d3.extent([...rawAll, ...scaledAll]);
  const histY = 30 + 3 * (chartH + 50);
  const hist = svg
    .selectAll('g.spread')
    .data([0])
    .join('g')
    .attr('class', 'spread')
    .attr('transform', `translate(30,${histY})`);
  hist
    .selectAll('text.spread-title')
    .data([o.strings.spread])
    .join('text')
    .attr('class', 'spread-title')
    .attr('y', -12)
    .text((d) => d);
  const halves = [
    { key: 'raw', title: `${o.strings.withoutScaling} (QKᵀ)`, values: rawAll, color: '#7b6fb0' },
    {
      key: 'scaled',
      title: o.scale ? o.strings.withScaling : o.strings.scaledScores,
      values: scaledAll,
      color: '#b35806',
    },
  ];
  hist
    .selectAll('g.half')
    .data(halves)
    .join('g')
    .attr('class', (d) => `half ${d.key}`)
    .attr('transform', (_, k) => `translate(${k * ((width - 40) / 2)},8)`)
    .each(function draw(d) {
      histogram(d3.select(this), d.values, {
        width: (width - 80) / 2,
        height: 70,
        title: d.title,
        color: d.color,
        domain: extent,
      });
    });

  const slider = container.selectAll('label.temperature').data([0]).join('label').attr('class', 'temperature');
  slider.selectAll('span').data([0]).join('span').text(`${o.strings.temperature} T = ${o.temperature}`);
  slider
    .selectAll('input')
    .data([0])
    .join('input')
    .attr('type', 'range')
    .attr('min', -3)
    .attr('max', 3)
    .attr('step', 0.25)
    .property('value', Math.log2(o.temperature))
    .on('input', (event) => o.onTemperature(Number((2 ** Number(event.target.value)).toPrecision(3))));
}
