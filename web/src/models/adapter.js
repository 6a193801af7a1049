// Task models (vocabulary "task": sort, copy, … from the training playground or the CLI) have
// no encode/predict (their generate is the engine's): they read symbols between spaces and
// refuse unknown ones. This gives them the same methods as a corpus model (docs/training-api.md, "A
// corpus language model"), computed from model.trace(): the page shows any model file the same way.
// Corpus models bring their own (cpp/bindings/js/), which this never replaces.

import { predictionsOf } from '../../../dist/engine/engine.js';

/** The last row of the model's logits after `ids`: the next token's scores. */
function lastLogits(model, ids) {
  const logits = model.trace({ tokens: ids }, { steps: ['logits'] }).step('logits');
  return logits.data.subarray((logits.rows - 1) * logits.cols, logits.rows * logits.cols);
}

const idsOf = (model, input) =>
  model.trace(input, { steps: ['logits'] }).tokens.map((t) => model.vocabulary.indexOf(t));

/** `model` itself when it has the corpus API, else an object with it. */
export function withLanguageAPI(model) {
  if (typeof model.encode === 'function') return model;
  const vocabulary = model.vocabulary;
  return {
    config: model.config,
    vocabulary,
    contextLength: model.contextLength,
    parameterCount: model.parameterCount,
    trace: (input, options) => model.trace(input, options),
    layerInput: (input, layer) => model.layerInput(input, layer),
    layerOptions: (input, layer) => model.layerOptions(input, layer),
    dispose: () => model.dispose(),
    // The model file, for "Export for transformers" (../hf-export.js).
    save: (options) => model.save(options),
    encode(text) {
      const ids = idsOf(model, { text });
      return {
        tokens: ids.map((id) => vocabulary[id]),
        ids,
        unknown: ids.map(() => false),
        total: ids.length,
        cut: 0,
        start: false,
      };
    },
    predict(input, { temperature = 1, topK = 10 } = {}) {
      const ids = input.tokens ?? idsOf(model, input);
      // The corpus models' own softmax and order (ties by id), temperature and topK checked alike.
      const predictions = predictionsOf(lastLogits(model, ids), vocabulary, temperature, topK);
      return { tokens: ids.map((id) => vocabulary[id]), predictions };
    },
    // The engine's one sampler (cpp/src/train/language_model.cpp PickNext, on its generator).
    generate: (input, options) => model.generate(input, options),
  };
}
