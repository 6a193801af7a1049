// Task models (vocabulary "task": sort, copy, … from the training playground or the CLI) have
// no encode/predict/generate: they read symbols between spaces and refuse unknown
// ones. This gives them the same methods as a corpus model (COMMON.md, "JS API of a loaded
// corpus model"), computed from model.trace(): the page shows any model file the same way.
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

/** A small seeded generator (mulberry32): the same seed draws the same tokens. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
    encode(text) {
      const ids = idsOf(model, { text });
      return { tokens: ids.map((id) => vocabulary[id]), ids, unknown: ids.map(() => false), total: ids.length, cut: 0 };
    },
    predict(input, { temperature = 1, topK = 10 } = {}) {
      const ids = input.tokens ?? idsOf(model, input);
      const p = distribution(model, ids, temperature);
      const order = Array.from(p.keys()).sort((a, b) => p[b] - p[a]);
      const predictions = order.slice(0, topK).map((id) => ({ id, token: vocabulary[id], probability: p[id] }));
      return { tokens: ids.map((id) => vocabulary[id]), predictions };
    },
    generate(input, { count = 1, temperature = 1, topK = 0, greedy = true, seed = 1 } = {}) {
      const ids = [...(input.tokens ?? idsOf(model, input))];
      const draw = random(seed);
      const added = [];
      for (let n = 0; n < count && ids.length < model.contextLength; n++) {
        const p = distribution(model, ids, temperature);
        let order = Array.from(p.keys()).sort((a, b) => p[b] - p[a]);
        if (topK > 0) order = order.slice(0, topK);
        let id = order[0];
        if (!greedy) {
          const total = order.reduce((sum, k) => sum + p[k], 0);
          let r = draw() * total;
          id = order.find((k) => (r -= p[k]) <= 0) ?? order.at(-1);
        }
        ids.push(id);
        added.push(id);
      }
      const tokens = added.map((id) => vocabulary[id]);
      return { tokens, ids: added, text: ids.map((id) => vocabulary[id]).join(' ') };
    },
  };
}
