// Corpus language models: a model file whose configuration says "vocabulary":
// "character" or "word" loads as a LanguageModel, a TrainedModel that reads text with its own
// vocabulary (character: code points; word: the engine's tokenizer; unknown symbols → <unk>,
// flagged), predicts the next token, generates, and labels what its heads do.
//
//   const model = engine.loadModel(bytes);               // a LanguageModel for corpus files
//   model.encode('床前明月光')                            // { tokens, ids, unknown, total, cut, start }
//   model.trace({ text: '床前明月光' }, { layer: 0 })     // as TrainedModel.trace
//   model.predict({ text: '床前明月' }, { topK: 5 })      // { tokens, predictions: [{ id, token, probability }] }
//   model.generate({ text: '床前' }, { count: 3 })        // { tokens, ids, text }
//   model.headLabels({ text: '床前明月光，疑是地上霜。' }) // [{ layer, head, label, score, scores }]
import { AttentionError, describe, invalid } from './errors.js';
import { checkWellFormed, get, utf8Length } from './read.js';
import { labelHeads } from './head_labels.js';
import { TEMPERATURE } from './catalog.js';
import { integerIn, numberIn, ownKeys, readGenerateOptions, readOptions } from './call_options.js';
import { TrainedModel, encodeInput, errorOf, loadModel as loadFile } from './training.js';

const KEEP = ['start', 'end'];
const UNKNOWN_ID = 1;

/** keep: 'end' → true (keep the last tokens); 'start' → false. */
function keepsEnd(keep) {
  if (!KEEP.includes(keep)) throw invalid('keep', `keep (${describe(keep)}) must be one of ${KEEP.join(', ')}`);
  return keep === 'end';
}

/** A well-formed string of at most maxTextBytes of UTF-8, checked before it reaches WASM memory. */
function textOf(value, maxTextBytes, field = 'text') {
  if (typeof value !== 'string') throw invalid(field, `${field} (${describe(value)}) must be a string`);
  if (value.length > maxTextBytes / 3 && utf8Length(value) > maxTextBytes) {
    throw new AttentionError(
      'LIMIT_EXCEEDED',
      field,
      `${field} (${utf8Length(value)} bytes) must be at most ${maxTextBytes} bytes of UTF-8`,
    );
  }
  return checkWellFormed(value, field);
}

/** A string, { text } or { tokens } (own properties only, exactly one of them). */
function readInput(input, maxTextBytes) {
  if (typeof input === 'string') return { text: textOf(input, maxTextBytes) };
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    throw invalid('input', `the input (${describe(input)}) must be a string, { text } or { tokens }`);
  }
  const keys = ownKeys(input, 'input', 'the input');
  for (const key of keys) {
    if (key !== 'text' && key !== 'tokens') {
      throw invalid(key, `unknown input field ${describe(key)}; the input is { text } or { tokens }`);
    }
  }
  if (keys.length !== 1) throw invalid('input', 'the input must be { text } or { tokens }, exactly one');
  return keys[0] === 'text'
    ? { text: textOf(get(input, 'text', 'text'), maxTextBytes) }
    : { tokens: get(input, 'tokens', 'tokens') };
}

/** The encode() result as plain data (arrays made in this realm). */
function copyEncoded(raw) {
  return {
    tokens: Array.from(raw.tokens),
    ids: Array.from(raw.ids),
    unknown: Array.from(raw.unknown),
    total: raw.total,
    cut: raw.cut,
    start: raw.start,
  };
}

/**
 * predict()'s predictions from the last position's `logits` [V] (e.g. the last row of a trace's
 * logits, which the page's model panel reads instead of running the model a second time): the
 * topK (0: all) most likely of softmax(logits / temperature), [{ id, token, probability }],
 * ties in id order. temperature and topK are checked as predict() checks them.
 */
export function predictionsOf(logits, vocabulary, temperature, topK) {
  if (!Array.isArray(vocabulary)) throw invalid('vocabulary', `vocabulary (${describe(vocabulary)}) must be an array`);
  numberIn(temperature, 'temperature', TEMPERATURE.min, TEMPERATURE.max);
  integerIn(topK, 'topK', 0, vocabulary.length, ' (all)');
  if (logits?.length !== vocabulary.length) {
    throw invalid(
      'logits',
      `logits (${describe(logits?.length)} values) must have one value per symbol (${vocabulary.length})`,
    );
  }
  const bad = Array.prototype.findIndex.call(logits, (z) => !Number.isFinite(z));
  if (bad >= 0) throw invalid(`logits[${bad}]`, `logits[${bad}] (${describe(logits[bad])}) must be a finite number`);
  let top = -Infinity;
  for (const z of logits) top = Math.max(top, z / temperature);
  const weights = Float64Array.from(logits, (z) => Math.exp(z / temperature - top));
  const sum = weights.reduce((a, b) => a + b, 0);
  const order = Array.from(weights.keys()).sort((a, b) => weights[b] - weights[a] || a - b);
  return order
    .slice(0, topK || order.length)
    .map((id) => ({ id, token: vocabulary[id], probability: weights[id] / sum }));
}

export class LanguageModel extends TrainedModel {
  #maxTextBytes;

  constructor(handle, call, onDispose, maxTextBytes) {
    super(handle, call, onDispose);
    this.#maxTextBytes = maxTextBytes;
    /** 'character' or 'word': how text becomes tokens. */
    this.vocabularyLevel = this.config.vocabulary;
  }

  /**
   * Text → { tokens (the text's own symbols), ids, unknown (read as <unk>), total, cut, start }:
   * at most contextLength tokens, the first ones (keep 'start', the default) or the last ones
   * ('end'); start: the model's config.documentStart is read first (tokens[0]), as before every
   * document of its training text.
   */
  encode(text, options) {
    const keepEnd = keepsEnd(readOptions(options, { keep: 'start' }, 'encode').keep);
    textOf(text, this.#maxTextBytes);
    return this.guarded((handle) => copyEncoded(handle.encode(text, keepEnd) ?? throwOf(handle)));
  }

  /**
   * As TrainedModel.trace, reading text with the model's vocabulary; the result also has ids,
   * unknown, total and cut (as encode), and nextLogits (Float32Array [V]: the last position's
   * logits, what predict() reads). Options: { layer, steps, keep }. The steps logits and
   * probabilities ([T × V] each) are computed only when asked for (all steps, or named in
   * steps), and refused past 2²⁴ values (LIMIT_EXCEEDED, field tokens).
   */
  trace(input, options) {
    const { layer, steps, keep } = readOptions(options, { layer: undefined, steps: undefined, keep: 'start' }, 'trace');
    return this.#traceOf(readInput(input, this.#maxTextBytes), keepsEnd(keep), { layer, steps });
  }

  /** As TrainedModel.layerInput, reading text with the model's vocabulary (its first contextLength tokens). */
  layerInput(input, layer) {
    const read = readInput(input, this.#maxTextBytes);
    if (read.text === undefined) return super.layerInput(read, layer);
    const { ids } = this.encode(read.text);
    if (!ids.length) throw invalid('text', 'text has no token to read: it is empty or only white space');
    return this.layerInputOf(ids, layer);
  }

  /** As TrainedModel.layerOptions, reading text with the model's vocabulary (its first contextLength tokens). */
  layerOptions(input, layer) {
    const read = readInput(input, this.#maxTextBytes);
    if (read.text === undefined) return super.layerOptions(read, layer);
    const { ids, tokens } = this.encode(read.text);
    if (!ids.length) throw invalid('text', 'text has no token to read: it is empty or only white space');
    // Labelled by the text's own symbols, as a trace of text is.
    return { ...this.layerOptionsOf(ids, layer), tokens };
  }

  #traceOf(input, keepEnd, options) {
    // The logits and probabilities of every position ([T × V], the most memory of a trace with
    // a large vocabulary) only when asked for: all steps, or steps naming them.
    const { steps } = options;
    const every = !Array.isArray(steps) || steps.includes('logits') || steps.includes('probabilities');
    // The last position's logits [V], which the next token is read from, in every trace.
    const next = (handle) => ({ nextLogits: (handle.traceNextLogits() ?? throwOf(handle)).slice() });
    if (input.text !== undefined) {
      return this.traceWith((handle) => {
        const encoded = copyEncoded(handle.traceText(input.text, keepEnd, every) ?? throwOf(handle));
        const { ids, unknown, total, cut, start } = encoded;
        return { ids, unknown, total, cut, start, ...next(handle) };
      }, options);
    }
    const ids = encodeInput(input, this.vocabulary, this.contextLength);
    return this.traceWith((handle) => {
      if (!handle.trace(Int32Array.from(ids), every)) throw errorOf(handle);
      return {
        ids,
        unknown: ids.map((id) => id === UNKNOWN_ID),
        total: ids.length,
        cut: 0,
        start: false,
        ...next(handle),
      };
    }, options);
  }

  /**
   * `read(handle, ids)` inside the engine's guard with the token ids of `input` for the next
   * token (text keeps its last contextLength tokens); returns [{ ids, tokens }, what read
   * returned], tokens being the text's own symbols (or the vocabulary's, for ids).
   */
  #withIds(input, read) {
    const given = input.text === undefined ? encodeInput(input, this.vocabulary, this.contextLength) : null;
    return this.guarded((handle) => {
      const encoded = given
        ? { ids: given, tokens: given.map((id) => this.vocabulary[id]) }
        : copyEncoded(handle.encode(input.text, true) ?? throwOf(handle));
      if (encoded.ids.length === 0) throw invalid('text', 'text has no token to read: it is empty or only white space');
      return [encoded, read(handle, Int32Array.from(encoded.ids))];
    });
  }

  /**
   * The next token after the input's last position: { tokens, predictions: the topK most likely
   * [{ id, token, probability }], probabilities of softmax(logits / temperature) over the whole
   * vocabulary }. Text longer than the context keeps its end. topK's default is 10, or the whole
   * vocabulary when it has fewer symbols (a DNA text's has 8): a default must suit every model.
   */
  predict(input, options) {
    const o = readOptions(options, { temperature: 1, topK: Math.min(10, this.vocabulary.length) }, 'predict');
    const temperature = numberIn(o.temperature, 'temperature', TEMPERATURE.min, TEMPERATURE.max);
    const topK = integerIn(o.topK, 'topK', 0, this.vocabulary.length, ' (all)');
    const [{ tokens }, logits] = this.#withIds(readInput(input, this.#maxTextBytes), (handle, tokens) =>
      // The one copy out of WASM memory.
      Float64Array.from(handle.nextLogits(tokens) ?? throwOf(handle)),
    );
    return { tokens, predictions: predictionsOf(logits, this.vocabulary, temperature, topK) };
  }

  /**
   * `count` new tokens after the input: greedy (the most likely) or sampled from
   * softmax(logits / temperature) over the topK most likely (0: all) with `seed`. Never <pad>,
   * <unk> or <bos>; an <eos> ends it. Past contextLength the window slides (the model sees the
   * last contextLength tokens). { tokens, ids, text: the input's text followed by the new tokens }.
   * With greedy, temperature, topK and seed must keep their defaults (the CLI's rule).
   */
  generate(input, options) {
    const o = readGenerateOptions(options, this.vocabulary.length);
    const read = readInput(input, this.#maxTextBytes);
    const [{ ids }, made] = this.#withIds(read, (handle, tokens) =>
      Array.from(handle.generate(tokens, o.count, o.temperature, o.topK, o.greedy, o.seed) ?? throwOf(handle)),
    );
    const tokens = made.map((id) => this.vocabulary[id]);
    const words = tokens.filter((t) => t !== '<eos>');
    const joiner = this.vocabularyLevel === 'word' ? ' ' : '';
    const before = read.text ?? ids.map((id) => this.vocabulary[id]).join(joiner);
    const gap = joiner && before && words.length && !/\s$/.test(before) ? ' ' : '';
    return { tokens, ids: made, text: before + gap + words.join(joiner) };
  }

  /**
   * What each head does on this input (head_labels.js): [{ layer, head, label, score, scores }],
   * label one of previous, previousLine, first, self, broad, or null. Options: { keep }.
   */
  headLabels(input, options) {
    const keepEnd = keepsEnd(readOptions(options, { keep: 'start' }, 'headLabels').keep);
    const trace = this.#traceOf(readInput(input, this.#maxTextBytes), keepEnd, { steps: ['weights'] });
    return labelHeads(trace, this.config.causal !== false);
  }
}

function throwOf(handle) {
  throw errorOf(handle);
}

/** loadModel for every model file: task models as TrainedModel, corpus models as LanguageModel. */
export function loadModel(call, onDispose, bytes) {
  return loadFile(call, onDispose, bytes, (handle) =>
    call(() => handle.info().vocabularyLevel) === 'task'
      ? new TrainedModel(handle, call, onDispose)
      : new LanguageModel(
          handle,
          call,
          onDispose,
          call((module) => module.limits().maxTextBytes),
        ),
  );
}
