// What the stage adds under the equation at some steps (the step table's `extra` column,
// steps.js): positional encoding's waves (when it is on), the spread of the scores before and
// after ÷√d_k, and one query's scores becoming weights that sum to 1. Each extra says what it
// loads, when it shows and how it draws.
import * as d3 from 'd3';
import { barChart, histogram } from './softmax.js';
import { drawPositional } from './positional.js';
import { headColor } from '../scales.js';
import { formatShort } from '../format.js';
import { stepAt } from '../steps.js';
import { rowRequest, spreadRequest, stepRequest } from '../requests.js';
import { addsPositionalEncoding } from '../state.js';
import { put } from '../dom.js';

const HEIGHT = 150;

export const EXTRAS = {
  pe: {
    when: (state) => addsPositionalEncoding(state),
    requests: () => [stepRequest('pe')],
    draw(g, trace, state, strings, head, width) {
      return drawPositional(g, trace.step('pe'), { width, strings, tokens: trace.tokens });
    },
  },
  spread: {
    requests: (head) => [spreadRequest(['scores', 'scaled'], [head])],
    draw(g, trace, state, strings, head, width) {
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
    },
  },
  bars: {
    requests: (head, query) => [rowRequest('weights', head, query)],
    draw(g, trace, state, strings, head, width) {
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
    },
  },
};

/** Draws the step's extra below `top` in a stage `stageWidth` wide; returns the height it takes (0 without one). */
export function drawStageExtras(svg, trace, state, strings, top, stageWidth) {
  const head = state.head === 'all' ? 0 : state.head;
  const extra = EXTRAS[stepAt(state.step, state).extra];
  const key = extra && (extra.when?.(state) ?? true) ? stepAt(state.step, state).extra : null;
  // The class is written once: the extra adds its own (pe-waves), which rewriting it would drop.
  const g = svg
    .selectAll('g.stage-extra')
    .data(key ? [key] : [], (d) => d)
    .join((enter) => enter.append('g').attr('class', 'stage-extra'));
  if (!key) return 0;
  put(g.node(), 'transform', `translate(20,${top + 40})`);
  const width = Math.min(520, stageWidth - 40);
  return EXTRAS[key].draw(g, trace, state, strings, head, width) ?? HEIGHT;
}
