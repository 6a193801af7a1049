// The √dK experiment's preset (docs/training.md, "The √dK experiment in the playground"): the
// configuration both trainers share; only `scale` differs. dK = 128 (one head of d_model 128)
// and weights of std 1/√d_model, so that q and k start with components of variance ≈ 1 and
// unscaled scores with a standard deviation of ≈ √dK ≈ 11.
export const DK_PRESET = Object.freeze({
  task: 'sort',
  length: 5,
  alphabet: 6,
  layers: 1,
  dModel: 128,
  heads: 1,
  initStd: 0.0884,
  learningRate: 3e-3,
  batchSize: 16,
  seed: 1,
});

/** Steps the playground trains both models for. */
export const DK_STEPS = 300;
