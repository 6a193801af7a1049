// The matrices view: every matrix of the computation in order, one head's output, each with
// its own signed colour scale; Q, K, V and Concat banded by head.
import * as d3 from 'd3';
import { drawStage } from './stage.js';
import { headColor, stepMaxAbs, signedScale } from '../scales.js';

/** Every matrix of the computation, in order (name, title). */
export const MATRICES = [
  ['x', 'X'],
  ['pe', 'PE'],
  ['xPe', "X'"],
  ['wQ', 'W_Q'],
  ['wK', 'W_K'],
  ['wV', 'W_V'],
  ['q', 'Q'],
  ['k', 'K'],
  ['v', 'V'],
  ['headOutput', 'head'],
  ['concat', 'Concat'],
  ['wO', 'W_O'],
  ['output', 'O'],
];

const BANDED = ['q', 'k', 'v', 'concat'];

/** The head each matrix is read for: only the head output is per head. */
export const matrixHead = (name, head) => (name === 'headOutput' ? head : 0);

export function drawMatrices(svg, trace, { head, width }) {
  const operands = MATRICES.map(([name, title]) => {
    const step = trace.step(name, matrixHead(name, head));
    const scale = signedScale(stepMaxAbs(step));
    return {
      id: name,
      step,
      title: name === 'headOutput' ? `head ${head + 1}` : title,
      color: (v) => scale(v),
      animation: 'none',
      columnColor: BANDED.includes(name) ? (j) => headColor(Math.floor(j / trace.dK)) : null,
    };
  });
  drawStage(d3.select(svg), operands, { width, stepKey: 'matrices', maxCell: 24 });
}
