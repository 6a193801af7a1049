// The worker's side of trained models: loaded models live beside the engine, and
// the page asks for what its model views draw. Merged into explorer/service.js's handlers.
//   modelLoad({ name, bytes })          → the model's summary (a bad file throws; nothing changes)
//   modelLoad({ name, checkpoint })     → the same for a GPT-2 checkpoint and its tokenizer (gpt2.js)
//   modelView({ name, text, layer, … }) → tokens, every head's weights, labels, one block, next token
//   modelGenerate({ name, text, … })    → the text with one more token
//   modelExport({ name, fileName })      → { bytes }: the model as a GPT-2 folder in a .zip (../hf-export.js)
//   modelRolesStart({ name, text }) → { steps, window, layers }, modelRolesStep({ name }) → { done, steps } (one batch
//     each: the page shows progress between them and stops by asking no more),
//   modelRolesResult({ name }) → the roles (as a sidecar's), modelRolesStop({ name }): head roles
//     of a model without a sidecar (a GPT-2 checkpoint) measured on held-out `text` the page sends
// and modelTraceOptions() asks the model for { model, layer, text }'s engine.open() options: the
// layer's attention as the ten-step explorer computes it, from the layer's own input and weights.

import { TEXT_ROLES, labelHeads, predictionsOf, roleKeys, roleScore } from '../../../dist/engine/engine.js';
import { blockStepsOf } from './steps.js';
import { withLanguageAPI } from './adapter.js';
import { loadGpt2 } from './gpt2.js';
import { hfZip } from '../hf-export.js';

/**
 * The head roles on the typed text: each text role's keys for every query ({ [role]: [T] key
 * lists }) and every head's score on them ([layer][head] { [role]: { score, chance, ratio } |
 * null }). Read on the model's symbols (the ids' vocabulary entries), as the stored roles were.
 */
function rolesOn(model, ids, weights) {
  // A BPE token's text without its leading space, as measureRoles reads it (gpt2.js): ' .' ends a sentence.
  const bpe = model.vocabularyLevel === 'bpe';
  const symbols = ids.map((id) => (bpe ? model.vocabulary[id].replace(/^ +/, '') : model.vocabulary[id]));
  const keys = Object.fromEntries(TEXT_ROLES.map((r) => [r, roleKeys(r, symbols)]));
  const scores = weights.map((layer) =>
    layer.map((w) => Object.fromEntries(TEXT_ROLES.map((r) => [r, roleScore(w, ids.length, keys[r])]))),
  );
  return { keys, scores };
}

const plain = (step) => ({ rows: step.rows, cols: step.cols, data: step.data });
const lastRow = (step) => step.data.subarray((step.rows - 1) * step.cols, step.rows * step.cols);

/**
 * The window, in tokens, that roles are measured in (at most the model's context): GPT-2 reads
 * 1,024, but the roles shown (previous token, first token, sentence start, same word, induction)
 * show within a few dozen tokens, and a window's cost grows with its square.
 */
export const ROLES_WINDOW = 64;

/**
 * Everything the model panel draws for the encoded text `e` (encode below): { tokens, unknown,
 * total, cut, weights: [layer][head] Float32Array T×T, labels, roles (rolesOn), block: { name:
 * { rows, cols, data } } of `layer`, next: { predictions } }.
 */
function viewOf(model, e, { layer, temperature, topK }) {
  const block = blockStepsOf(model.config);
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
}

/**
 * The head roles of a model without a sidecar (a GPT-2 checkpoint), measured a batch per request:
 * the measurements in progress by model name, their handlers, and stop(name) (a model replaced
 * or disposed ends its measurement). `modelOf(name)` → the loaded model, or throws.
 */
function roleMeasureHandlers(modelOf) {
  const measures = new Map(); // name → its roles measurement in progress (gpt2.js measureRoles)

  function stopMeasure(name) {
    try {
      measures.get(name)?.stop();
    } catch {
      // its model is gone already: nothing left to stop
    }
    measures.delete(name);
  }

  function measureOf(name) {
    const measure = measures.get(name);
    if (!measure)
      throw Object.assign(new Error(`no roles are being measured for model ${JSON.stringify(name)}`), {
        code: 'INVALID_ARGUMENT',
        field: 'name',
      });
    return measure;
  }

  const handlers = {
    /**
     * Starts measuring the head roles of model `name` on held-out `text` (the page sends the
     * English sample's start, bundled): `windows` windows of ROLES_WINDOW tokens and `repeats`
     * repeated random sequences for induction, `batch` of them per step. → { steps, window,
     * layers }. Only a model with a tokenizer of its own (a GPT-2 checkpoint).
     */
    modelRolesStart({ name, text, windows = 16, repeats = 16, batch = 2 }) {
      const model = modelOf(name);
      // A model file's text reader is not gpt2.js's: its measureRoles is the engine's, of ids.
      if (model.vocabularyLevel !== 'bpe')
        throw Object.assign(
          new Error('only a GPT-2 checkpoint measures its roles here: a shipped model has them stored'),
          {
            code: 'INVALID_ARGUMENT',
            field: 'name',
          },
        );
      if (typeof text !== 'string')
        throw Object.assign(new Error('text (the held-out sample) must be a string'), {
          code: 'INVALID_ARGUMENT',
          field: 'text',
        });
      stopMeasure(name);
      const window = Math.min(ROLES_WINDOW, model.contextLength);
      const measure = model.measureRoles(text, { window, repeats, batch, maxWindows: windows, seed: 1 });
      measures.set(name, measure);
      return { steps: measure.steps, window, layers: model.config.layers };
    },
    /** One batch of the measurement: { done, steps }. */
    modelRolesStep({ name }) {
      const measure = measureOf(name);
      try {
        const done = measure.step();
        return { done, steps: measure.steps };
      } catch (error) {
        stopMeasure(name);
        throw error;
      }
    },
    /** The finished measurement: the sidecar's { windows, positional, heads } (measured-roles.js reads it). */
    modelRolesResult({ name }) {
      const result = measureOf(name).result();
      stopMeasure(name);
      return result;
    },
    modelRolesStop({ name }) {
      stopMeasure(name);
      return true;
    },
  };
  return { stop: stopMeasure, handlers };
}

export function modelHandlers(engine) {
  const models = new Map(); // name → TrainedModel
  const measuring = roleMeasureHandlers(modelOf);
  const stopMeasure = measuring.stop;

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
      stopMeasure(name); // a measurement of the model replaced ends with it
      models.get(name)?.dispose();
      models.set(name, model);
      // A checkpoint's bytes go back to the page, which moved them here (explorer/lazy-trace.js).
      return checkpoint ? { ...summaryOf(model), safetensors: checkpoint.safetensors } : summaryOf(model);
    },
    modelDispose({ name }) {
      stopMeasure(name);
      models.get(name)?.dispose();
      models.delete(name);
      return true;
    },
    /** Everything the model panel draws for `text` (viewOf). */
    modelView({ name, text, layer = 0, temperature = 1, topK = 10 }) {
      const model = modelOf(name);
      return viewOf(model, encode(model, text), { layer, temperature, topK });
    },
    /**
     * "Export for transformers": { bytes } of the .zip (config.json, model.safetensors, vocab.txt,
     * README.md); a model GPT-2 cannot express throws, naming the key.
     */
    modelExport({ name, fileName }) {
      return { bytes: hfZip(modelOf(name), fileName, 'the explorer’s “Export for transformers” button') };
    },
    /** One more token after `text` (read from its end when it is longer than the context): { token, text }. */
    modelGenerate({ name, text, greedy = true, temperature = 1, topK = 0, seed = 1 }) {
      // Greedy takes no sampling options: the API refuses them, as the CLI does.
      const options = greedy ? { count: 1 } : { count: 1, greedy, temperature, topK, seed };
      const made = modelOf(name).generate({ text }, options);
      return { token: made.tokens[0], text: made.text };
    },
    ...measuring.handlers,
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
