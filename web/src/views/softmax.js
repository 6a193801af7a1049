// The softmax and scaling explainer: for the selected query and head, bar charts of the raw
// scores, the scaled scores and the softmax weights; histograms of the score spread with and
// without ÷√d_k. Every bar is an engine number.
import * as d3 from 'd3';
import { headColor } from '../scales.js';
import { formatFit, formatShort, formatValue } from '../format.js';
import { hideTooltip, showTooltip } from '../tooltip.js';
import { duration } from '../motion.js';
import { TEMPERATURE } from '../state.js';
import { fitText, textWidth } from './text.js';

// Past this many bars a chart is one <path> (no per-bar nodes, labels or motion): a 2,048-token
// row cannot be read bar by bar, and 12,000 animated nodes froze the page.
const MAX_BARS = 128;
// Past this many tokens the query is picked with a slider, not one button per token.
const MAX_QUERY_BUTTONS = 64;
// Bar labels: 11 px; upright (rotate −90) in this much room when they do not fit side by
// side, and every k-th one when bars are narrower than a line of text.
const BAR_FONT = 11;
const UPRIGHT_ROOM = 54;
// Room above a chart for its title, over the value printed above the tallest bar.
const TITLE_ROOM = 24;

/** How a chart of `count` bars over `width` px labels them: { upright, every, room }. */
export function barLabelLayout(labels, width) {
  const step = width / Math.max(1, labels.length);
  const widest = labels.reduce((m, l) => Math.max(m, textWidth(l, BAR_FONT)), 0);
  if (widest <= step - 2) return { upright: false, every: 1, room: step - 2, height: 18 };
  return { upright: true, every: Math.ceil((BAR_FONT * 1.3) / step), room: UPRIGHT_ROOM - 8, height: UPRIGHT_ROOM };
}

export function barChart(g, input, labels, { width, height, title, color, domain, labelLayout }) {
  const values = Array.from(input);
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
    .attr('y', -TITLE_ROOM + 8)
    .text((d) => fitText(d, width, 12));
  g.selectAll('line.zero')
    .data([0])
    .join('line')
    .attr('class', 'zero')
    .attr('x1', 0)
    .attr('x2', width)
    .attr('y1', y(0))
    .attr('y2', y(0));
  if (values.length > MAX_BARS) {
    barPath(g, values, labels, { x, y, height, color });
    return;
  }
  g.selectAll('path.bars, rect.bar-hit').remove();
  const t = duration(450);
  g.selectAll('rect.bar')
    .data(values.map((v, k) => ({ v, k })))
    .join('rect')
    .attr('class', 'bar')
    .attr('data-value', (d) => d.v)
    .attr('x', (d) => x(d.k))
    .attr('width', x.bandwidth())
    .attr('fill', (d) => (Number.isFinite(d.v) ? color : 'none'))
    .on('pointerenter', (event, d) => showTooltip(event, [`${labels[d.k]}: ${formatValue(d.v)}`]))
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
    // As many characters as the band holds (about 6.5 px each at 11 px): neighbours' values
    // never run together ("4e−41e−3"); past 12 bars hover gives them.
    .text((v) => (values.length <= 12 ? formatFit(v, Math.floor(x.step() / 6.5)) : ''));
  const { upright, every, room } = labelLayout ?? barLabelLayout(labels, width);
  const cx = (k) => x(k) + x.bandwidth() / 2;
  g.selectAll('text.bar-label')
    .data(labels.flatMap((text, k) => (k % every ? [] : [{ k, text: fitText(text, room, BAR_FONT) }])))
    .join('text')
    .attr('class', (d) => `bar-label${upright ? ' upright' : ''}`)
    .attr('x', null)
    .attr('y', null)
    .attr('transform', (d) =>
      upright ? `translate(${cx(d.k)},${height + 6}) rotate(-90)` : `translate(${cx(d.k)},${height + 14})`,
    )
    .text((d) => d.text);
}

/** Many bars as one path, with one hit area that names the bar under the pointer. */
function barPath(g, values, labels, { x, y, height, color }) {
  g.selectAll('rect.bar, text.bar-value, text.bar-label').remove();
  const w = x.bandwidth();
  let d = '';
  values.forEach((v, k) => {
    if (!Number.isFinite(v)) return;
    const top = y(Math.max(0, v));
    d += `M${x(k).toFixed(2)},${top.toFixed(2)}h${w.toFixed(2)}V${y(Math.min(0, v)).toFixed(2)}h${(-w).toFixed(2)}Z`;
  });
  g.selectAll('path.bars').data([0]).join('path').attr('class', 'bars').attr('fill', color).attr('d', d);
  const [x0, x1] = x.range();
  g.selectAll('rect.bar-hit')
    .data([0])
    .join('rect')
    .attr('class', 'bar-hit')
    .attr('x', x0)
    .attr('width', x1 - x0)
    .attr('height', height)
    .attr('fill', 'transparent')
    .on('pointermove', (event) => {
      const [px] = d3.pointer(event);
      const k = Math.max(0, Math.min(values.length - 1, Math.floor(((px - x0) / (x1 - x0)) * values.length)));
      showTooltip(event, [`${labels[k]} (#${k}): ${formatValue(values[k])}`]);
    })
    .on('pointerleave', hideTooltip);
}

/** bins: [{ x0, x1, length }] as d3.bin makes them (reduce.js spreadOf computes them). */
export function histogram(g, bins, { width, height, title, color }) {
  const x = d3
    .scaleLinear()
    .domain([bins[0]?.x0 ?? 0, bins.at(-1)?.x1 ?? 1])
    .range([0, width]);
  const y = d3
    .scaleLinear()
    .domain([0, d3.max(bins, (b) => b.length) || 1])
    .range([height, 0]);
  g.selectAll('text.chart-title')
    .data([title])
    .join('text')
    .attr('class', 'chart-title')
    .attr('y', -8)
    .text((d) => fitText(d, width, 12));
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
    // About one tick per 50 px: on a phone five ticks of "−15" ran into each other.
    .call(d3.axisBottom(x).ticks(Math.max(2, Math.min(5, Math.floor(width / 50)))));
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
  const buttons = trace.tokens.length <= MAX_QUERY_BUTTONS;
  picker
    .selectAll('button')
    .data(buttons ? trace.tokens : [])
    .join('button')
    .attr('type', 'button')
    .attr('aria-pressed', (_, k) => String(k === i))
    .text((d) => d)
    .on('click', (_, d) => o.onQuery(trace.tokens.indexOf(d)));
  const querySlider = picker
    .selectAll('label.query-slider')
    .data(buttons ? [] : [0])
    .join((enter) => {
      const label = enter.append('label').attr('class', 'query-slider');
      label.append('input').attr('type', 'range').attr('min', 0).attr('step', 1);
      label.append('span');
      return label;
    });
  querySlider
    .select('input')
    .attr('max', trace.nQuery - 1)
    .attr('aria-label', o.strings.query)
    .property('value', i)
    .on('change', (event) => o.onQuery(Number(event.target.value)));
  querySlider.select('span').text(`${o.strings.query} ${i}: ${trace.tokens[i]}`);

  const svg = container
    .selectAll('svg.softmax-charts')
    .data([0])
    .join('svg')
    .attr('class', 'softmax-charts')
    .attr('role', 'img');
  // As wide as it is drawn (labels keep their 11 px), at most 640 px.
  const width = Math.max(300, Math.min(640, o.width ?? 560));
  const chartH = 110;
  const labelLayout = barLabelLayout(trace.kvTokens, width - 60);
  const chartStep = TITLE_ROOM + chartH + labelLayout.height + 12;
  svg
    .attr('viewBox', `0 0 ${width} ${3 * chartStep + 170}`)
    .attr('aria-label', `${o.strings['view.softmax']}: ${trace.tokens[i]}`);
  const labels = trace.kvTokens;
  const raw = Array.from(trace.row('scores', h, i));
  const scaled = Array.from(trace.row('masked', h, i));
  const weights = Array.from(trace.row('weights', h, i));
  const finite = [...raw, ...scaled].filter(Number.isFinite);
  const scoreDomain = [d3.min([0, ...finite]), d3.max([0, ...finite])];
  const charts = [
    { title: `${o.strings.rawScores} · ${trace.tokens[i]}`, values: raw, color: '#7b6fb0', domain: scoreDomain },
    { title: o.strings.afterScaling(o.scale, o.temperature), values: scaled, color: '#b35806', domain: scoreDomain },
    {
      title: `${o.strings.weights} · ${o.strings.saturation(formatShort(d3.max(weights)))}`,
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
    .attr('transform', (_, k) => `translate(30,${TITLE_ROOM + 6 + k * chartStep})`)
    .each(function draw(c) {
      barChart(d3.select(this), c.values, labels, { width: width - 60, height: chartH, labelLayout, ...c });
    });

  const spread = trace.spread(['scores', 'scaled'], d3.range(trace.heads));
  const histY = 30 + 3 * chartStep;
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
    { key: 'raw', title: `${o.strings.withoutScaling} (QKᵀ)`, bins: spread.sets[0].bins, color: '#7b6fb0' },
    {
      key: 'scaled',
      title: o.strings.afterScaling(o.scale, o.temperature),
      bins: spread.sets[1].bins,
      color: '#b35806',
    },
  ];
  hist
    .selectAll('g.half')
    .data(halves)
    .join('g')
    .attr('class', (d) => `half ${d.key}`)
    .attr('transform', (_, k) => `translate(${k * ((width - 40) / 2)},24)`)
    .each(function draw(d) {
      histogram(d3.select(this), d.bins, {
        width: (width - 80) / 2,
        height: 70,
        title: d.title,
        color: d.color,
      });
    });

  // A log scale over exactly the number box's range (state.js TEMPERATURE), 3 significant digits.
  const slider = container.selectAll('label.temperature').data([0]).join('label').attr('class', 'temperature');
  slider.selectAll('span').data([0]).join('span').text(o.strings.temperatureSlider(o.temperature));
  const [lo, hi] = [Math.log2(TEMPERATURE.min), Math.log2(TEMPERATURE.max)];
  slider
    .selectAll('input')
    .data([0])
    .join('input')
    .attr('type', 'range')
    .attr('min', lo)
    .attr('max', hi)
    .attr('step', 'any')
    .property('value', Math.log2(o.temperature))
    .on('input', (event) => {
      const t = Number((2 ** Number(event.target.value)).toPrecision(3));
      o.onTemperature(Math.min(TEMPERATURE.max, Math.max(TEMPERATURE.min, t)));
    });
}
