// The steps of one transformer block around attention, in order (the engine's names:
// cpp/src/train/model_trace.cpp BlockStepNames). One home: the worker copies them, the page draws them.
export const BLOCK_STEPS = [
  'ln1',
  'attention',
  'residual1',
  'ln2',
  'ffnHidden',
  'ffnActivation',
  'ffnOut',
  'residual2',
];
