// Training in the engine: a Trainer that trains a small transformer on a toy
// task, and a TrainedModel loaded from a model file. Both wrap one Embind ModelHandle
// (cpp/bindings/model_handle.hpp), call it only through the engine's failure guard (`call`:
// a trap replaces the WASM instance and orphans them, like live traces), copy every result
// out of WASM memory, and throw an AttentionError for every failure.
//
//   const trainer = engine.createTrainer({ task: 'sort', length: 4, layers: 2, dModel: 32 });
//   trainer.step(100)                       // { step, loss, accuracy, gradientNorm, … }
//   const bytes = trainer.save();           // a model file (docs/model-format.md)
//   trainer.dispose();
//   const model = engine.loadModel(bytes);
//   model.trace({ text: '3 1 2 |' }).step('probabilities').colLabels   // the vocabulary
import { AttentionError, describe, invalid } from './errors.js';
import { element, get } from './read.js';
import { normalizeTrainerConfig, taskFieldsOf } from './training_config.js';
import { checkModelConfig } from './model_config.js';
import { copyHeadByHead } from './trace.js';
import { ownKeys, readGenerateOptions, readOptions } from './call_options.js';
import { exportCheckpoint } from './hf_export.js';
import { WasmHandle } from './wasm_handle.js';

export function errorOf(handle) {
  return new AttentionError(handle.errorCode(), handle.errorField(), handle.errorMessage());
}

function positiveInteger(value, field, max = 2 ** 31 - 1) {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw invalid(field, `${field} (${describe(value)}) must be an integer from 1 to ${max}`);
  }
  return value;
}

/** The labels of one axis of a step. */
function axisLabels(axis, size, tokens, vocabulary, name) {
  if (axis === 'query' || axis === 'key') return tokens.slice();
  if (axis === 'vocabulary') return vocabulary.slice();
  if (axis === 'one') return [name];
  return Array.from({ length: size }, (_, i) => String(i));
}

/**
 * `{ tokens }` (ids or symbols) or `{ text }` → token ids. Text is split at white space; a
 * piece that is not a symbol is read character by character ("3142|" is 3 1 4 2 |).
 */
export function encodeInput(input, vocabulary, contextLength) {
  if (!input || typeof input !== 'object') {
    throw invalid('input', `the input (${describe(input)}) must be { text } or { tokens }`);
  }
  // Symbol → id, made only for symbols: ids (the page's every keystroke with a trained model)
  // need no map of a corpus model's 5,000 symbols (about 0.6 ms to make).
  let symbols = null;
  const ids = {
    has: (symbol) => (symbols ??= new Map(vocabulary.map((s, id) => [s, id]))).has(symbol),
    get: (symbol) => symbols.get(symbol),
  };
  const idOf = (symbol, field) => {
    if (!ids.has(symbol)) {
      // A corpus model's vocabulary has thousands of symbols: name the first few.
      const shown =
        vocabulary.length <= 40
          ? vocabulary.join(' ')
          : `${vocabulary.slice(0, 20).join(' ')} … (${vocabulary.length} symbols)`;
      throw invalid(field, `${field} (${describe(symbol)}) is not in the vocabulary: ${shown}`);
    }
    return ids.get(symbol);
  };
  // Own properties only, exactly one of them: an inherited text (a polluted prototype) is not
  // the caller's, and { text, tokens } does not say which one is meant.
  const given = ownKeys(input, 'input', 'the input').filter((key) => key === 'tokens' || key === 'text');
  if (given.length !== 1) throw invalid('input', 'the input must be { text } or { tokens }, exactly one');
  const tokens = given[0] === 'tokens' ? get(input, 'tokens', 'tokens') : undefined;
  const text = tokens === undefined ? get(input, 'text', 'text') : undefined;
  let out;
  if (tokens !== undefined) {
    if (!Array.isArray(tokens) && !ArrayBuffer.isView(tokens)) {
      throw invalid('tokens', `tokens (${describe(tokens)}) must be an array of token ids or symbols`);
    }
    out = Array.from({ length: tokens.length }, (_, i) => {
      const field = `tokens[${i}]`;
      const token = element(tokens, i, field);
      if (typeof token === 'string') return idOf(token, field);
      if (!Number.isInteger(token) || token < 0 || token >= vocabulary.length) {
        throw invalid(
          field,
          `${field} (${describe(token)}) must be a symbol or a token id from 0 to ${vocabulary.length - 1}`,
        );
      }
      return token;
    });
  } else if (text !== undefined) {
    if (typeof text !== 'string') throw invalid('text', `text (${describe(text)}) must be a string`);
    out = text
      .split(/\s+/)
      .filter(Boolean)
      .flatMap((piece) => (ids.has(piece) ? [ids.get(piece)] : Array.from(piece, (c) => idOf(c, 'text'))));
  } else {
    throw invalid('input', 'the input must be { text } or { tokens }');
  }
  if (out.length < 1 || out.length > contextLength) {
    throw new AttentionError(
      'LIMIT_EXCEEDED',
      'tokens',
      `the input has ${out.length} tokens; this model reads 1 to ${contextLength}`,
    );
  }
  return out;
}

/** Copies one traced sequence out of the handle: model-wide steps and every layer's steps. */
function readTrace(handle, { layer, steps } = {}) {
  const s = handle.traceSummary();
  const vocabulary = handle.info().vocabulary;
  const copy = (info, layerIndex, head) => {
    const raw = handle.traceStep(info.name, layerIndex, head);
    if (raw === null) throw errorOf(handle);
    return {
      name: info.name,
      layer: layerIndex < 0 ? null : layerIndex,
      head: info.perHead ? head : null,
      rows: raw.rows,
      cols: raw.cols,
      data: raw.data.slice(), // the one copy out of WASM memory
      rowsAxis: info.rowsAxis,
      colsAxis: info.colsAxis,
      rowLabels: axisLabels(info.rowsAxis, raw.rows, s.tokens, vocabulary, info.name),
      colLabels: axisLabels(info.colsAxis, raw.cols, s.tokens, vocabulary, info.name),
    };
  };
  if (steps) {
    const known = [...s.modelSteps, ...s.layerSteps].map((i) => i.name);
    for (const name of steps) {
      if (!known.includes(name)) {
        throw new AttentionError(
          'UNKNOWN_STEP',
          'steps',
          `step ${describe(name)} does not exist; steps are: ${known.join(', ')}`,
        );
      }
    }
  }
  const pick = (infos) => (steps ? infos.filter((i) => steps.includes(i.name)) : infos);
  const stepsOf = (infos, layerIndex) =>
    Object.fromEntries(copyHeadByHead(infos, s.heads, (info, h) => copy(info, layerIndex, h)));
  const stepReader = (out, names) =>
    function step(name, head = 0) {
      const found = Object.hasOwn(out, name) ? out[name] : undefined;
      if (!found) {
        throw new AttentionError(
          'UNKNOWN_STEP',
          'step',
          `step ${describe(String(name))} was not copied; steps are: ${names.join(', ')}`,
        );
      }
      // An integer in range only: found["__proto__"] or found["length"] is no head.
      const max = Array.isArray(found) ? found.length - 1 : 0;
      if (!Number.isInteger(head) || head < 0 || head > max) {
        throw new AttentionError(
          'UNKNOWN_STEP',
          'head',
          `head (${describe(head)}) must be an integer from 0 to ${max}`,
        );
      }
      return Array.isArray(found) ? found[head] : found;
    };
  const layerInfos = pick(s.layerSteps);
  const layerNames = layerInfos.map((i) => i.name);
  const wanted = layer === undefined ? Array.from({ length: s.layers }, (_, l) => l) : [layer];
  const layers = wanted.map((l) => {
    const out = stepsOf(layerInfos, l);
    return {
      layer: l,
      tokens: s.tokens.slice(),
      heads: s.heads,
      stepNames: layerNames,
      steps: out,
      step: stepReader(out, layerNames),
    };
  });
  if (layer !== undefined) return layers[0];
  const modelInfos = pick(s.modelSteps);
  const modelNames = modelInfos.map((i) => i.name);
  const out = stepsOf(modelInfos, -1);
  return {
    tokens: s.tokens.slice(),
    vocabulary,
    layerCount: s.layers,
    heads: s.heads,
    dModel: s.dModel,
    dK: s.dK,
    stepNames: modelNames,
    steps: out,
    layers,
    /** A model-wide step: embedding, lnFinal, logits, probabilities. */
    step: stepReader(out, modelNames),
  };
}

/** A task input as a person types it ("3 1 2", { text } or { tokens }): Int32Array of `model`'s ids. */
function taskInput(model, example) {
  const input = typeof example === 'string' ? { text: example } : example;
  return Int32Array.from(encodeInput(input, model.vocabulary, model.contextLength));
}

/** Token ids → the vocabulary's symbols. */
function symbolsOf(vocabulary, ids) {
  return Array.from(ids, (id) => vocabulary[id]);
}

/** What a Trainer and a TrainedModel share: the guarded handle, tracing, saving and disposal. */
class ModelBase {
  #life;
  #diverged = null; // the AttentionError of the step whose loss was not finite

  /**
   * @param handle the Embind ModelHandle (owned from now on)
   * @param call runs a function inside the engine's failure guard
   * @param onDispose told once when the model is disposed
   */
  constructor(handle, call, onDispose) {
    this.#life = new WasmHandle(handle, call, onDispose, 'model', 'create or load the model again');
    const info = this.guarded((h) => h.info());
    this.parameterCount = info.parameterCount;
    this.vocabulary = Object.freeze(info.vocabulary);
    this.contextLength = info.contextLength;
  }

  /** fn(handle) inside the engine's failure guard; DISPOSED once disposed or orphaned. */
  guarded(fn) {
    this.#life.check();
    // The weights of a diverged model hold NaN or ±Infinity: every answer would be garbage.
    if (this.#diverged) throw new AttentionError(this.#diverged.code, this.#diverged.field, this.#diverged.message);
    return this.#life.run(fn);
  }

  /** A step's loss was not finite: from now on every call refuses with that error (dispose still works). */
  markDiverged(error) {
    this.#diverged = error;
  }

  get disposed() {
    return this.#life.disposed;
  }

  /**
   * Runs one sequence through the model. Without `layer`: { tokens, vocabulary, steps,
   * step(name), layers: [{ layer, stepNames, steps, step(name, head) }, …] }; with `layer`:
   * that layer's object, shaped like engine.run()'s result.
   */
  traceInput(input, { layer, steps } = {}) {
    const ids = encodeInput(input, this.vocabulary, this.contextLength);
    return this.traceWith(
      (handle) => {
        if (!handle.trace(Int32Array.from(ids), true)) throw errorOf(handle);
      },
      { layer, steps },
    );
  }

  /**
   * `run(handle)` traces one sequence (throwing on failure) and returns fields to add to the
   * result (or nothing); then the trace is copied as traceInput describes.
   */
  traceWith(run, { layer, steps } = {}) {
    if (steps !== undefined && (!Array.isArray(steps) || !steps.every((n) => typeof n === 'string'))) {
      throw invalid('steps', `steps (${describe(steps)}) must be an array of step names`);
    }
    return this.guarded((handle) => {
      const extra = run(handle);
      const layerCount = handle.traceSummary().layers;
      if (layer !== undefined && (!Number.isInteger(layer) || layer < 0 || layer >= layerCount)) {
        throw invalid('layer', `layer (${describe(layer)}) must be an integer from 0 to ${layerCount - 1}`);
      }
      return Object.assign(readTrace(handle, { layer, steps }), extra);
    });
  }

  /**
   * What the task asks of a prompt typed by a person (a string, { text } or { tokens }, read as
   * predict() reads it): { prompt: string[] (what the model reads), answerLength (tokens to
   * generate after it), expected: string[] (the task's answer; induction: as far as its rule
   * decides) }. The engine's task table states the rules (PromptOf, attention/train/tasks.hpp).
   */
  taskPrompt(example) {
    const input = taskInput(this, example);
    return this.guarded((handle) => {
      const out = handle.taskPrompt(input) ?? throwError(handle);
      return {
        prompt: symbolsOf(this.vocabulary, out.prompt),
        answerLength: out.answerLength,
        expected: symbolsOf(this.vocabulary, out.expected),
      };
    });
  }

  /** Exact-match accuracy and loss on the first `count` held-out examples of the task. */
  evaluate(count = 1000) {
    positiveInteger(count, 'count', 100000);
    return this.guarded((handle) => handle.evaluate(count) ?? throwError(handle));
  }

  /** The model file (Uint8Array, docs/model-format.md); { precision: 'float16' } halves it. */
  save(options) {
    const { precision } = readOptions(options, { precision: 'float32' }, 'save');
    if (precision !== 'float32' && precision !== 'float16') {
      throw invalid('precision', `precision (${describe(precision)}) must be one of float32, float16`);
    }
    // The one copy out of WASM memory.
    return this.guarded((handle) => (handle.save(precision === 'float16') ?? throwError(handle)).slice());
  }

  /**
   * The model as a Hugging Face GPT-2 checkpoint (hf_export.js): { config (config.json's
   * object), safetensors (float32 bytes), vocabulary, source (the model file's config) }; a model GPT-2 cannot express (attention
   * only, untied, sinusoidal, unscaled, not causal, no residual, dK · heads ≠ dModel) throws,
   * naming model.config.<key>.
   */
  exportCheckpoint() {
    return exportCheckpoint(this.save());
  }

  /** Frees the model's WASM memory. Further calls throw DISPOSED. */
  dispose() {
    this.#life.dispose(this);
  }

  /** The engine replaced its WASM instance: this model's memory went with the old one. */
  orphan() {
    this.#life.orphan();
  }
}

export function throwError(handle) {
  throw errorOf(handle);
}

export class Trainer extends ModelBase {
  constructor(handle, call, onDispose, config) {
    super(handle, call, onDispose);
    /** The complete configuration, defaults filled in. */
    this.config = config;
    this.sequenceLength = this.guarded((h) => h.info().sequenceLength);
  }

  /**
   * `count` updates on fresh batches: { step, loss, accuracy, gradientNorm, learningRate,
   * tokensPerSecond, attentionEntropy, scoreGradientNorm, softmaxGradientNorm } (the last three
   * of the last batch).
   */
  step(count = 1) {
    positiveInteger(count, 'count', 1e6);
    try {
      return this.guarded((handle) => handle.step(count) ?? throwError(handle));
    } catch (error) {
      if (error instanceof AttentionError && error.code === 'NON_FINITE') this.markDiverged(error);
      throw error;
    }
  }

  /** Updates done so far. */
  get steps() {
    return this.guarded((handle) => handle.info().steps);
  }

  /** The trace of one example ({ tokens } or { text }); `layer` picks one layer's run()-shaped steps. */
  trace(example, layer) {
    return this.traceInput(example, { layer });
  }

  /**
   * Induction and previous-token scores of every head on the first `count` held-out examples:
   * { induction: number[layers][heads] | null, previousToken: number[layers][heads] }.
   */
  headScores(count = 64) {
    positiveInteger(count, 'count', 4096);
    return this.guarded((handle) => handle.headScores(count) ?? throwError(handle));
  }

  /**
   * Every head's attention weights for one example ({ tokens } or { text }):
   * { tokens, layers, heads, length, weights: Float32Array [layers × heads × T × T] }, a
   * compact copy that a worker can transfer.
   */
  attention(example) {
    const ids = encodeInput(example, this.vocabulary, this.contextLength);
    return this.guarded((handle) => {
      const raw = handle.attention(Int32Array.from(ids)) ?? throwError(handle);
      const { layers, heads, length } = raw;
      // The one copy out of WASM memory.
      return { tokens: ids.map((id) => this.vocabulary[id]), layers, heads, length, weights: raw.weights.slice() };
    });
  }

  /**
   * The model's greedy answer to a task input, as a person types it ("3 1 2" to sort, or
   * { text } or { tokens }): { input: string[] (what the model read before answering),
   * answer: string[] (what it generated) }. docs/training-api.md says what each task takes.
   */
  predict(example) {
    const input = taskInput(this, example);
    return this.guarded((handle) => {
      const out = handle.predict(input) ?? throwError(handle);
      return { input: symbolsOf(this.vocabulary, out.input), answer: symbolsOf(this.vocabulary, out.answer) };
    });
  }
}

export class TrainedModel extends ModelBase {
  constructor(handle, call, onDispose) {
    super(handle, call, onDispose);
    /** The file's configuration: the model's keys (dModel, layers, …) and the task's (task, taskLength, …),
     * each key that something reads of its type (model_config.js), or the file is refused. */
    this.config = Object.freeze(checkModelConfig(JSON.parse(this.guarded((h) => h.info().configJson))));
  }

  /** The trace of `input` ({ text } or { tokens }); options { layer, steps } restrict what is copied. */
  trace(input, options = {}) {
    if (!options || typeof options !== 'object')
      throw invalid('options', `options (${describe(options)}) must be an object`);
    return this.traceInput(input, { layer: get(options, 'layer', 'layer'), steps: get(options, 'steps', 'steps') });
  }

  /**
   * What layer `layer`'s attention reads for `input` (as trace): { rows: tokens, cols: dModel,
   * data: Float32Array }, the `x` of trace(input, { layer }) (its LayerNorm's output), with the
   * model run only through that layer: no logits over the vocabulary, no layer's attention
   * traced. The page's explorer reads a trained model's layer this way on every keystroke.
   */
  layerInput(input, layer) {
    return this.layerInputOf(encodeInput(input, this.vocabulary, this.contextLength), layer);
  }

  /** layerInput of token ids. */
  layerInputOf(ids, layer) {
    this.#checkLayer(layer);
    return this.guarded((handle) => {
      const raw = handle.layerInput(Int32Array.from(ids), layer);
      if (raw === null) throw errorOf(handle);
      return copyMatrix(raw);
    });
  }

  /**
   * engine.open() options that show layer `layer`'s attention on `input` in the explorer: its
   * input (layerInput) and the layer's W_Q … b_O as given matrices, the model's mask and
   * scaling, no positional encoding (cpp/src/train/model_trace.cpp LayerTraceInputs, the one
   * place a trained layer becomes a trace). The model runs only through that layer.
   */
  layerOptions(input, layer) {
    return this.layerOptionsOf(encodeInput(input, this.vocabulary, this.contextLength), layer);
  }

  /**
   * Head roles measured on a held-out sample in steps (the native tool's MeasureHeadRoles, for a
   * model without a sidecar: a GPT-2 checkpoint). `sample` { ids, symbols }: the sample's token
   * ids and each id's text (symbols[id]: marks '.', '\n' … end lines). Options { window (2 …
   * contextLength, default contextLength), repeats (induction's repeated random sequences,
   * default 64), seed (1), batch (windows per step, 16), poem (false skips couplet and rhyme),
   * maxWindows (0: all) }. Returns { steps, done, step() (one batch; → done), result() (once done:
   * the sidecar's { windows, positional, heads }), stop() }. Another call on this model in between
   * is fine; loading another model ends it (the next step throws INVALID_ARGUMENT, field roles).
   */
  measureRoles(sample, options = {}) {
    if (!sample || !Array.isArray(sample.symbols) || !(sample.ids?.length >= 0))
      throw invalid('sample', `sample (${describe(sample)}) must be { ids, symbols }`);
    if (!sample.symbols.every((x) => typeof x === 'string'))
      throw invalid('symbols', 'symbols must be strings, one per id of the vocabulary');
    const o = { window: 0, repeats: 64, seed: 1, batch: 16, poem: true, maxWindows: 0, ...options };
    for (const key of ['window', 'repeats', 'seed', 'batch', 'maxWindows']) {
      if (!Number.isInteger(o[key]) || o[key] < 0 || o[key] > 2 ** 31 - 1)
        throw invalid(key, `${key} (${describe(o[key])}) must be a whole number from 0 to 2147483647`);
    }
    o.poem = Boolean(o.poem);
    const state = { steps: 0, done: 0 };
    this.guarded((handle) => {
      state.steps = handle.rolesStart(Int32Array.from(sample.ids), sample.symbols, o);
      if (state.steps < 0) throw errorOf(handle);
    });
    const model = this;
    const step = () =>
      model.guarded((handle) => {
        state.done = (handle.rolesStep() ?? throwError(handle)).done;
        return state.done;
      });
    return {
      get steps() {
        return state.steps;
      },
      get done() {
        return state.done;
      },
      step,
      result: () => model.guarded((handle) => handle.rolesResult() ?? throwError(handle)),
      stop: () => {
        if (!model.disposed) model.guarded((handle) => handle.rolesStop());
      },
    };
  }

  /**
   * Up to `count` new symbols after `input` ({ text } or { tokens }), picked by the engine's one
   * sampler (greedy, or seeded from softmax(logits / temperature) over the topK), until the
   * context is full: { tokens, ids, text: every symbol, spaced }. Options as LanguageModel's.
   */
  generate(input, options) {
    const o = readGenerateOptions(options, this.vocabulary.length);
    const ids = encodeInput(input, this.vocabulary, this.contextLength);
    const made = this.guarded((handle) =>
      Array.from(
        handle.generate(Int32Array.from(ids), o.count, o.temperature, o.topK, o.greedy, o.seed) ?? throwError(handle),
      ),
    );
    const tokens = made.map((id) => this.vocabulary[id]);
    return { tokens, ids: made, text: [...ids, ...made].map((id) => this.vocabulary[id]).join(' ') };
  }

  /** layerOptions of token ids. */
  layerOptionsOf(ids, layer) {
    this.#checkLayer(layer);
    return this.guarded((handle) => {
      const raw = handle.layerOptions(Int32Array.from(ids), layer);
      if (raw === null) throw errorOf(handle);
      const given = Object.fromEntries(Object.keys(raw.given).map((name) => [name, copyMatrix(raw.given[name])]));
      return { ...raw, tokens: Array.from(raw.tokens), given };
    });
  }

  #checkLayer(layer) {
    // Checked here: WASM would read 2³¹ or 1e10 as some other integer.
    const last = this.config.layers - 1;
    if (!Number.isInteger(layer) || layer < 0 || layer > last) {
      throw invalid('layer', `layer (${describe(layer)}) must be an integer from 0 to ${last}`);
    }
  }
}

/** { rows, cols, data } with data copied out of WASM memory (the one copy). */
function copyMatrix(raw) {
  return { rows: raw.rows, cols: raw.cols, data: raw.data.slice() };
}

/** A new ModelHandle set up by `setUp(handle)` (false: refused), then wrapped; freed on any failure. */
export function open(call, setUp, wrap) {
  const handle = call((module) => new module.ModelHandle());
  let made;
  try {
    call(() => setUp(handle) || throwError(handle));
    made = wrap(handle);
    return made;
  } finally {
    if (!made) call(() => handle.delete());
  }
}

/** `fields`: the engine's trainer fields (training_config.js trainerFieldsOf). */
export function createTrainer(call, onDispose, config, fields) {
  const flat = normalizeTrainerConfig(taskFieldsOf(fields), config);
  return open(
    call,
    (handle) => handle.create(flat),
    (handle) => new Trainer(handle, call, onDispose, flat),
  );
}

/** A model file's model; `wrap(handle)` makes its JS object (language_model.js picks the class). */
export function loadModel(call, onDispose, bytes, wrap = (handle) => new TrainedModel(handle, call, onDispose)) {
  if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
  if (!(bytes instanceof Uint8Array)) {
    throw invalid('bytes', `the model file (${describe(bytes)}) must be a Uint8Array or an ArrayBuffer`);
  }
  return open(call, (handle) => handle.load(bytes), wrap);
}
