// Task models (vocabulary "task": sort, copy, … from the training playground or the CLI) have
// no encode/predict (their generate is the engine's): they read symbols between spaces and
// refuse unknown ones. This gives them the same methods as a corpus model (docs/training-api.md, "A
// corpus language model"), computed from model.trace(): the page shows any model file the same way.
// Corpus models bring their own (cpp/bindings/js/), which this never replaces.

/** softmax(logits / T) of one row, as a Float64Array. */
function softmax(row, temperature) {
  let max = -Infinity;
  for (const v of row) max = Math.max(max, v / temperature);
  const out = Float64Array.from(row, (v) => Math.exp(v / temperature - max));
  const sum = out.reduce((a, b) => a + b, 0);
  return out.map((v) => v / sum);
}

/** The next token's distribution after `ids`, from the last row of the model's logits. */
function distribution(model, ids, temperature) {
  const logits = model.trace({ tokens: ids }, { steps: ['logits'] }).step('logits');
  return softmax(logits.data.subarray((logits.rows - 1) * logits.cols, logits.rows * logits.cols), temperature);
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
      const p = distribution(model, ids, temperature);
      const order = Array.from(p.keys()).sort((a, b) => p[b] - p[a]);
      const predictions = order.slice(0, topK).map((id) => ({ id, token: vocabulary[id], probability: p[id] }));
      return { tokens: ids.map((id) => vocabulary[id]), predictions };
    },
    // The engine's one sampler (cpp/src/train/language_model.cpp PickNext, on its generator).
    generate: (input, options) => model.generate(input, options),
  };
}
