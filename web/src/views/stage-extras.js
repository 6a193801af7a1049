// What the stage adds under the equation at two steps: the spread of the scores before and
// after ÷√d_k (step 5), one query's scores becoming weights that sum to 1 (step 7), and
// positional encoding's waves (step 1, when it is on).
import * as d3 from 'd3';
import { barChart, histogram } from './softmax.js';
import { drawPositional } from './positional.js';
import { headColor } from '../scales.js';
import { formatShort } from '../format.js';

const HEIGHT = 150;

export function drawStageExtras(svg, trace, state, strings, top) {
  const head = state.head === 'all' ? 0 : state.head;
  const key =
    state.step === 1 && state.positionalEncoding
      ? 'pe'
      : state.step === 5
        ? 'spread'
        : state.step === 7
          ? 'bars'
          : null;
  const g = svg
    .selectAll('g.stage-extra')
    .data(key ? [key] : [], (d) => d)
    .join('g')
    .attr('class', 'stage-extra')
    .attr('transform', `translate(20,${top + 40})`);
  if (!key) return 0;
  const width = Math.min(520, Number(svg.attr('viewBox').split(' ')[2]) - 40);
  if (key === 'pe') {
    g.attr('transform', `translate(20,${top + 16})`);
    return drawPositional(g, trace.step('pe'), { width, strings, tokens: trace.tokens });
  }
  if (key === 'spread') {
    const [raw, scaled] = trace.spread(['scores', 'scaled'], [head]).sets;
    const halves = [
      { title: `${strings.withoutScaling}: σ = ${formatShort(raw.sd)}`, bins: raw.bins, color: '#7b6fb0' },
      {
        title: `${strings.afterScaling(state.scale, state.temperature)}: σ = ${formatShort(scaled.sd)}`,
        bins: scaled.bins,
        color: '#b35806',
      },
    ];
    g.selectAll('g.half')
      .data(halves)
      .join('g')
      .attr('class', 'half')
      .attr('transform', (_, k) => `translate(${k * (width / 2 + 10)},0)`)
      .each(function draw(d) {
        histogram(d3.select(this), d.bins, {
          width: width / 2 - 20,
          height: HEIGHT - 60,
          title: d.title,
          color: d.color,
        });
      });
  } else {
    const i = Math.min(state.query, trace.nQuery - 1);
    const weights = Array.from(trace.row('weights', head, i));
    const sum = weights.reduce((a, b) => a + b, 0);
    barChart(g, weights, trace.kvTokens, {
      width,
      height: HEIGHT - 60,
      title: `${trace.tokens[i]}: ${strings.weights} · Σ = ${formatShort(sum)}`,
      color: headColor(head),
      domain: [0, 1],
    });
  }
  return HEIGHT;
}
