// What the engine's catalog (catalog.js, generated from C++) says of a step, in a trace of given
// sizes ({ nQuery, nKey, dModel, dK, heads, cross, attention }): its [rows, cols], whether it has
// a matrix per head and whether this trace has it at all. The views read these instead of
// restating each step's shape.
import { STEPS } from './catalog.js';

const BY_NAME = new Map(STEPS.map((step) => [step.name, step]));

/** Each axis's length (the engine's AxisSize): tokens, feature widths, or one. */
export const AXIS_SIZES = Object.freeze({
  query: (z) => z.nQuery,
  key: (z) => z.nKey,
  model: (z) => z.dModel,
  projection: (z) => z.heads * z.dK,
  headDim: (z) => z.dK,
  one: () => 1,
});

/** The catalog's row of step `name`, or undefined. */
export const stepInfo = (name) => BY_NAME.get(name);

/** [rows, cols] of step `name` (as declared: a trace without W_O has an O as wide as Concat). */
export function stepShape(name, sizes) {
  const step = BY_NAME.get(name);
  return [AXIS_SIZES[step.rowsAxis](sizes), AXIS_SIZES[step.colsAxis](sizes)];
}

/** Whether a trace of these sizes has step `name`: cross-attention's and each kind's own steps. */
export function traceHas(name, sizes) {
  const presence = BY_NAME.get(name)?.presence;
  if (presence === 'cross') return Boolean(sizes.cross);
  if (presence === 'linear') return sizes.attention === 'linear';
  if (presence === 'softmax') return sizes.attention !== 'linear';
  return presence === 'always';
}
