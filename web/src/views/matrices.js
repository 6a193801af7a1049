// The matrices view: every matrix of the run, in order, on two shared and stated colour
// scales (activations X … O on one, the weights W_Q … W_O on another), so that a colour
// means the same number in every matrix it is compared with; PE's waves below them.
import { matricesOf } from '../explorer/needs.js';
import { headColor, signedColor, stepMaxAbs } from '../scales.js';
import { drawStage } from './stage.js';
import { drawPositional } from './positional.js';

const WEIGHTS = new Set(['wQ', 'wK', 'wV', 'wO']);
const BANDED = new Set(['q', 'k', 'v', 'concat']);

export function drawMatrices(svg, trace, state, strings, width) {
  const head = state.head === 'all' ? 0 : state.head;
  const steps = matricesOf(trace).map(([name, title]) => ({
    name,
    title: name === 'headOutput' ? `head ${head + 1}` : title,
    step: name === 'headOutput' ? trace.step(name, head) : trace.step(name),
  }));
  const shared = (weights) =>
    signedColor(Math.max(0, ...steps.filter((s) => WEIGHTS.has(s.name) === weights).map((s) => stepMaxAbs(s.step))));
  const colors = { weights: shared(true), activations: shared(false) };
  const operands = steps.map(({ name, title, step }) => ({
    id: name,
    step,
    title,
    color: WEIGHTS.has(name) ? colors.weights : colors.activations,
    animation: 'none',
    columnColor: BANDED.has(name) ? (j) => headColor(Math.floor(j / trace.dK)) : null,
  }));
  drawStage(svg, operands, { width, stepKey: 'matrices', maxCell: 24, legend: {} });
  // PE's waves under the matrices, where PE is one of them.
  const [, , w, height] = svg.attr('viewBox').split(' ').map(Number);
  const waves = svg
    .selectAll('g.matrices-pe')
    .data(state.positionalEncoding ? [0] : [])
    .join('g')
    .attr('class', 'matrices-pe')
    .attr('transform', `translate(0,${height + 16})`);
  if (!state.positionalEncoding) return;
  const pe = steps.find((s) => s.name === 'pe').step;
  const extra = drawPositional(waves, pe, { width: Math.min(w, 640), strings, tokens: trace.tokens });
  svg.attr('viewBox', `0 0 ${w} ${height + extra + 24}`).attr('height', height + extra + 24);
}
