// The ten steps' keys, in order: the state's `step` is 1 … STEP_COUNT, and a component's
// step="softmax" names one. A leaf, so that the state (and the server, the
// CLI, node tests) reads them without loading the steps' drawing code and d3; steps.js holds one
// entry per key, in this order, and refuses to load otherwise.
export const STEP_KEYS = [
  'embed',
  'project',
  'split',
  'scores',
  'scale',
  'mask',
  'softmax',
  'weighted',
  'concat',
  'output',
];
export const STEP_COUNT = STEP_KEYS.length;
