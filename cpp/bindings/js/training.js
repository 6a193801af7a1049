// Training in the engine (issue 10 §5): a Trainer that trains a small transformer on a toy
// task, and a TrainedModel loaded from a model file. Both wrap one Embind ModelHandle
// (cpp/bindings/model_handle.hpp), copy every result out of WASM memory, and throw an
// AttentionError for every failure.
//
//   const trainer = engine.createTrainer({ task: 'sort', length: 4, layers: 2, dModel: 32 });
//   trainer.step(100)                       // { step, loss, accuracy, gradientNorm, … }
//   const bytes = trainer.save();           // a model file (docs/model-format.md)
//   trainer.dispose();
//   const model = engine.loadModel(bytes);
//   model.trace({ text: '3 1 2 |' }).step('probabilities').colLabels   // the vocabulary
import { AttentionError, describe, invalid } from './errors.js';
import { configJson, normalizeTrainerConfig, parseConfigJson, trainerRequest } from './training_config.js';

function errorOf(handle) {
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
  const ids = new Map(vocabulary.map((symbol, id) => [symbol, id]));
  const idOf = (symbol, field) => {
    if (!ids.has(symbol)) {
      throw invalid(field, `${field} (${describe(symbol)}) is not in the vocabulary: ${vocabulary.join(' ')}`);
    }
    return ids.get(symbol);
  };
  let out;
  if (Object.hasOwn(input, 'tokens')) {
    if (!Array.isArray(input.tokens) && !ArrayBuffer.isView(input.tokens)) {
      throw invalid('tokens', `tokens (${describe(input.tokens)}) must be an array of token ids or symbols`);
    }
    out = Array.from(input.tokens, (token, i) => {
      if (typeof token === 'string') return idOf(token, `tokens[${i}]`);
      if (!Number.isInteger(token) || token < 0 || token >= vocabulary.length) {
        throw invalid(
          `tokens[${i}]`,
          `tokens[${i}] (${describe(token)}) must be a symbol or a token id from 0 to ${vocabulary.length - 1}`,
        );
      }
      return token;
    });
  } else if (Object.hasOwn(input, 'text')) {
    if (typeof input.text !== 'string') throw invalid('text', `text (${describe(input.text)}) must be a string`);
    out = input.text
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
  const stepsOf = (infos, layerIndex) => {
    const out = {};
    for (const info of infos) out[info.name] = info.perHead ? [] : copy(info, layerIndex, 0);
    // Head by head: the explorer's Trace recomputes one head's T×T steps at a time.
    for (let h = 0; h < s.heads; h++) {
      for (const info of infos) if (info.perHead) out[info.name].push(copy(info, layerIndex, h));
    }
    return out;
  };
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
      if (!Array.isArray(found)) return found;
      if (!found[head])
        throw new AttentionError('UNKNOWN_STEP', 'head', `head (${head}) must be from 0 to ${found.length - 1}`);
      return found[head];
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

/** What a Trainer and a TrainedModel share: the handle, tracing, saving and disposal. */
class ModelBase {
  #handle;

  constructor(handle) {
    this.#handle = handle;
    const info = handle.info();
    this.parameterCount = info.parameterCount;
    this.vocabulary = Object.freeze(info.vocabulary);
    this.contextLength = info.contextLength;
  }

  get handle() {
    if (!this.#handle) throw new AttentionError('DISPOSED', 'model', 'this model was disposed');
    return this.#handle;
  }

  get disposed() {
    return this.#handle === null;
  }

  /**
   * Runs one sequence through the model. Without `layer`: { tokens, vocabulary, steps,
   * step(name), layers: [{ layer, stepNames, steps, step(name, head) }, …] }; with `layer`:
   * that layer's object, shaped like engine.run()'s result.
   */
  traceInput(input, { layer, steps } = {}) {
    const handle = this.handle;
    const ids = encodeInput(input, this.vocabulary, this.contextLength);
    if (steps !== undefined && (!Array.isArray(steps) || !steps.every((n) => typeof n === 'string'))) {
      throw invalid('steps', `steps (${describe(steps)}) must be an array of step names`);
    }
    if (!handle.trace(Int32Array.from(ids))) throw errorOf(handle);
    const layerCount = handle.traceSummary().layers;
    if (layer !== undefined && (!Number.isInteger(layer) || layer < 0 || layer >= layerCount)) {
      throw invalid('layer', `layer (${describe(layer)}) must be an integer from 0 to ${layerCount - 1}`);
    }
    return readTrace(handle, { layer, steps });
  }

  /** Exact-match accuracy and loss on the first `count` held-out examples of the task. */
  evaluate(count = 1000) {
    const result = this.handle.evaluate(positiveInteger(count, 'count', 100000));
    if (result === null) throw errorOf(this.handle);
    return result;
  }

  saveWith(json, { precision = 'float32' } = {}) {
    if (precision !== 'float32' && precision !== 'float16') {
      throw invalid('precision', `precision (${describe(precision)}) must be one of float32, float16`);
    }
    const view = this.handle.save(json, precision === 'float16');
    if (view === null) throw errorOf(this.handle);
    return view.slice();
  }

  /** Frees the model's WASM memory. Further calls throw. */
  dispose() {
    if (this.#handle) {
      this.#handle.delete();
      this.#handle = null;
    }
  }
}

export class Trainer extends ModelBase {
  constructor(handle, config) {
    super(handle);
    /** The complete configuration, defaults filled in. */
    this.config = config;
    const info = handle.info();
    this.sequenceLength = info.sequenceLength;
  }

  /** `count` updates on fresh batches: { step, loss, accuracy, gradientNorm, learningRate, tokensPerSecond }. */
  step(count = 1) {
    const metrics = this.handle.step(positiveInteger(count, 'count', 1e6));
    if (metrics === null) throw errorOf(this.handle);
    return metrics;
  }

  /** Updates done so far. */
  get steps() {
    return this.handle.info().steps;
  }

  /** The trace of one example ({ tokens } or { text }); `layer` picks one layer's run()-shaped steps. */
  trace(example, layer) {
    return this.traceInput(example, { layer });
  }

  /** The model file (Uint8Array): configuration, vocabulary, weights. */
  save(options) {
    return this.saveWith(configJson(this.config, this.handle.info()), options);
  }
}

export class TrainedModel extends ModelBase {
  #json;

  constructor(handle, config, steps, json) {
    super(handle);
    /** The trainer configuration the model was made with. */
    this.config = config;
    /** The updates it was trained for. */
    this.steps = steps;
    this.#json = json;
  }

  /** The trace of `input` ({ text } or { tokens }); options { layer, steps } restrict what is copied. */
  trace(input, options) {
    return this.traceInput(input, options);
  }

  /** The model file again (e.g. as float16: { precision: 'float16' }). */
  save(options) {
    return this.saveWith(this.#json, options);
  }
}

export function createTrainer(module, config) {
  const flat = normalizeTrainerConfig(config);
  const handle = new module.ModelHandle();
  try {
    if (!handle.create(trainerRequest(flat))) throw errorOf(handle);
    return new Trainer(handle, flat);
  } catch (error) {
    handle.delete();
    throw error;
  }
}

export function loadModel(module, bytes) {
  if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
  if (!(bytes instanceof Uint8Array)) {
    throw invalid('bytes', `the model file (${describe(bytes)}) must be a Uint8Array or an ArrayBuffer`);
  }
  const handle = new module.ModelHandle();
  try {
    const file = handle.read(bytes);
    if (file === null) throw errorOf(handle);
    const { flat, steps } = parseConfigJson(file.configJson);
    if (!handle.build(trainerRequest(flat))) throw errorOf(handle);
    return new TrainedModel(handle, flat, steps, file.configJson);
  } catch (error) {
    handle.delete();
    throw error;
  }
}
