// The worker's side of trained models: loaded models live beside the engine, and
// the page asks for what its model views draw. Merged into explorer/service.js's handlers.
//   modelLoad({ name, bytes })          → the model's summary (a bad file throws; nothing changes)
//   modelLoad({ name, checkpoint })     → the same for a GPT-2 checkpoint and its tokenizer (gpt2.js)
//   modelView({ name, text, layer, … }) → tokens, every head's weights, labels, one block, next token
//   modelGenerate({ name, text, … })    → the text with one more token
// and modelTraceOptions() asks the model for { model, layer, text }'s engine.open() options: the
// layer's attention as the ten-step explorer computes it, from the layer's own input and weights.

import { TEXT_ROLES, labelHeads, predictionsOf, roleKeys, roleScore } from '../../../dist/engine/engine.js';
import { BLOCK_STEPS } from './steps.js';
import { withLanguageAPI } from './adapter.js';
import { loadGpt2 } from './gpt2.js';

/**
 * The head roles on the typed text: each text role's keys for every query ({ [role]: [T] key
 * lists }) and every head's score on them ([layer][head] { [role]: { score, chance, ratio } |
 * null }). Read on the model's symbols (the ids' vocabulary entries), as the stored roles were.
 */
function rolesOn(model, ids, weights) {
  const symbols = ids.map((id) => model.vocabulary[id]);
  const keys = Object.fromEntries(TEXT_ROLES.map((r) => [r, roleKeys(r, symbols)]));
  const scores = weights.map((layer) =>
    layer.map((w) => Object.fromEntries(TEXT_ROLES.map((r) => [r, roleScore(w, ids.length, keys[r])]))),
  );
  return { keys, scores };
}

const plain = (step) => ({ rows: step.rows, cols: step.cols, data: step.data });
const lastRow = (step) => step.data.subarray((step.rows - 1) * step.cols, step.rows * step.cols);

export function modelHandlers(engine) {
  const models = new Map(); // name → TrainedModel

  function modelOf(name) {
    const model = models.get(name);
    if (!model) throw new Error(`no model ${JSON.stringify(name)} is loaded`);
    return model;
  }

  /** What the page shows about a model: its shape and what it was trained on. */
  function summaryOf(model) {
    const c = model.config;
    return {
      config: { ...c },
      vocabularySize: model.vocabulary.length,
      contextLength: model.contextLength,
      parameterCount: model.parameterCount,
      layers: c.layers,
      heads: c.heads,
      dModel: c.dModel,
    };
  }

  /** The text as the model reads it, cut to its context (keep the end: the next token follows it). */
  function encode(model, text) {
    const e = model.encode(text, { keep: 'end' });
    if (!e.ids.length)
      throw Object.assign(new Error('the text has no tokens'), { code: 'INVALID_ARGUMENT', field: 'text' });
    return e;
  }

  return {
    modelLoad({ name, bytes, checkpoint }) {
      // Throws for a file that is not a model: the model loaded before stays.
      const model = checkpoint ? loadGpt2(engine, checkpoint) : withLanguageAPI(engine.loadModel(bytes));
      models.get(name)?.dispose();
      models.set(name, model);
      // A checkpoint's bytes go back to the page, which moved them here (explorer/lazy-trace.js).
      return checkpoint ? { ...summaryOf(model), safetensors: checkpoint.safetensors } : summaryOf(model);
    },
    modelDispose({ name }) {
      models.get(name)?.dispose();
      models.delete(name);
      return true;
    },
    /**
     * Everything the model panel draws for `text`: { tokens, unknown, total, cut, weights:
     * [layer][head] Float32Array T×T, labels, roles (rolesOn), block: { name: { rows, cols, data } } of `layer`,
     * next: { predictions } }.
     */
    modelView({ name, text, layer = 0, temperature = 1, topK = 10 }) {
      const model = modelOf(name);
      const e = encode(model, text);
      // An attention-only model has no LayerNorm and no feed-forward steps.
      const block = model.config.attentionOnly ? ['attention', 'residual1'] : BLOCK_STEPS;
      // The next token from this trace's last logits, not from running the model again: a corpus
      // model's trace carries them (nextLogits, [V]), where its every position's ([T × V]) can
      // be a gigabyte; a task model (adapter.js), with its small vocabulary, has its logits step.
      const corpus = typeof model.vocabularyLevel === 'string';
      const trace = model.trace({ tokens: e.ids }, { steps: ['weights', ...block, ...(corpus ? [] : ['logits'])] });
      const l = Math.min(Math.max(0, layer), trace.layers.length - 1);
      const weights = trace.layers.map((lt) => Array.from({ length: lt.heads }, (_, h) => lt.step('weights', h).data));
      const blockSteps = Object.fromEntries(block.map((n) => [n, plain(trace.layers[l].step(n))]));
      return {
        tokens: e.tokens,
        chips: e.chips ?? null, // a GPT-2 checkpoint's: one per character, over its byte tokens
        unknown: e.unknown,
        total: e.total,
        cut: e.cut,
        start: e.start,
        layer: l,
        weights,
        // Labelled from the weights just traced (model.headLabels would trace again).
        labels: labelHeads(trace, model.config.causal !== false),
        roles: rolesOn(model, e.ids, weights),
        block: blockSteps,
        // (A task model's vocabulary can be shorter than the page's top k: all of it, then.)
        next: predictionsOf(
          corpus ? trace.nextLogits : lastRow(trace.step('logits')),
          model.vocabulary,
          temperature,
          Math.min(topK, model.vocabulary.length),
        ),
      };
    },
    /** One more token after `text` (read from its end when it is longer than the context): { token, text }. */
    modelGenerate({ name, text, greedy = true, temperature = 1, topK = 0, seed = 1 }) {
      // Greedy takes no sampling options: the API refuses them, as the CLI does.
      const options = greedy ? { count: 1 } : { count: 1, greedy, temperature, topK, seed };
      const made = modelOf(name).generate({ text }, options);
      return { token: made.tokens[0], text: made.text };
    },
    /**
     * engine.open() options for the explorer: one layer's attention, given its input and weights
     * (model.layerOptions: the engine's LayerTraceInputs, the one place a trained layer becomes a
     * trace). A keystroke runs the model only through that layer (0.2 ms at 8 tokens, where a
     * whole trace, logits over 5,000 words and every layer's attention, took 3.4 ms).
     */
    modelTraceOptions({ name, layer, text }) {
      const model = modelOf(name);
      const e = encode(model, text);
      return {
        ...model.layerOptions({ tokens: e.ids }, layer),
        tokens: e.tokens,
        chips: e.chips ?? null,
        unknown: e.unknown,
        cut: e.cut,
        start: e.start,
      };
    },
  };
}
