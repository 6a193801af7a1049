// The √dK experiment's preset (docs/training.md): the configuration both trainers share.
export const DK_PRESET = Object.freeze({
  task: 'sort',
  length: 8,
  alphabet: 10,
  layers: 2,
  dModel: 128,
  heads: 2,
  initStd: 0.02,
  learningRate: 1e-3,
  batchSize: 32,
  seed: 1,
});
