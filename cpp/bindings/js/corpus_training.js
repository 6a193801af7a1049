// Training a language model on a user's own text: the text goes into the engine in
// pieces (counted, then encoded: onProgress is told after each, so that a worker can post a
// progress bar), its vocabulary is built, a tail is held out, and a CorpusTrainer trains a
// model of the engine's trainer fields on the rest. The trainer is a LanguageModel too: encode,
// trace, predict, generate ("sample from a prompt") and headLabels read text with its vocabulary,
// and save() writes a corpus model file that the explorer opens.
//
//   const trainer = engine.createCorpusTrainer('床前明月光，疑是地上霜。…', {
//     level: 'character', contextLength: 32, layers: 2, dModel: 64, onProgress: (p) => … });
//   trainer.summary          // { level, bytes, tokens, distinct, unknown, trainTokens, … }
//   trainer.baselines        // { unigram, bigram, bigramLambda, targets } in nats per token
//   trainer.step(50)         // { step, loss, accuracy, … }
//   trainer.heldOutLoss()    // nats per held-out token
//   trainer.generate('床前', { count: 20, greedy: false, temperature: 0.8 })
//   trainer.save({ precision: 'float16' }); trainer.dispose();
import { AttentionError, describe, invalid } from './errors.js';
import { checkWellFormed, get } from './read.js';
import { CORPUS_TEXT_FIELDS } from './catalog.js';
import { integerIn, ownKeys } from './call_options.js';
import { LanguageModel } from './language_model.js';
import { encodeInput, errorOf, open } from './training.js';
import { check, normalizeTrainerConfig } from './training_config.js';

/**
 * The options of createCorpusTrainer that are not trainer fields, with their defaults: the text's
 * rows (corpus_fields.hpp, from the catalog; level is required), then the API's own.
 */
const TEXT_OPTIONS = Object.freeze({
  ...Object.fromEntries(CORPUS_TEXT_FIELDS.map((f) => [f.name, f.required ? undefined : f.fallback])),
  chunkBytes: 2 ** 20,
  onProgress: undefined,
  corpus: 'your text',
  title: 'Your text',
  titleZh: '你的文本',
});

/** A string (well-formed) or bytes (Uint8Array, ArrayBuffer) → UTF-8 bytes, unchanged when bytes. */
function textBytes(text) {
  if (typeof text === 'string') return new TextEncoder().encode(checkWellFormed(text, 'text'));
  if (text instanceof ArrayBuffer) return new Uint8Array(text);
  if (text instanceof Uint8Array) return text;
  throw invalid('text', `text (${describe(text)}) must be a string, a Uint8Array or an ArrayBuffer of UTF-8`);
}

/** createCorpusTrainer's options split into the text's (checked) and the trainer fields'. */
function readCorpusOptions(options, fields, limits) {
  if (!options || typeof options !== 'object' || Array.isArray(options)) {
    throw invalid('options', `the options of createCorpusTrainer() (${describe(options)}) must be an object`);
  }
  const fieldNames = fields.map((f) => f.name);
  const own = { ...TEXT_OPTIONS };
  const trainer = {};
  for (const key of ownKeys(options, 'options', 'the options of createCorpusTrainer()')) {
    const value = get(options, key, key);
    if (Object.hasOwn(TEXT_OPTIONS, key)) {
      if (value !== undefined) own[key] = value;
    } else if (fieldNames.includes(key)) {
      // The task's fields make no sense for a text: refused, as an unknown option would be.
      if (fields.find((f) => f.name === key).section === 'task') {
        throw invalid(key, `${key} is a toy task's field; a text model takes contextLength and the model's fields`);
      }
      trainer[key] = value;
    } else {
      throw invalid(
        key,
        `unknown option ${describe(key)}; options are: ${[...Object.keys(TEXT_OPTIONS), ...fieldNames.filter((n) => fields.find((f) => f.name === n).section !== 'task')].join(', ')}`,
      );
    }
  }
  // A text option's bounds are the page's (pageMax), narrower than the native tool's.
  for (const f of CORPUS_TEXT_FIELDS) check({ ...f, max: f.pageMax }, own[f.name], f.name);
  integerIn(own.chunkBytes, 'chunkBytes', 1, limits.maxTextBytes);
  if (own.onProgress !== undefined && typeof own.onProgress !== 'function') {
    throw invalid('onProgress', `onProgress (${describe(own.onProgress)}) must be a function`);
  }
  for (const key of ['corpus', 'title', 'titleZh']) {
    if (typeof own[key] !== 'string' || own[key].length > 200) {
      throw invalid(key, `${key} (${describe(own[key])}) must be a string of at most 200 characters`);
    }
    checkWellFormed(own[key], key);
  }
  return { own, trainer: normalizeTrainerConfig(fields, trainer) };
}

export class CorpusTrainer extends LanguageModel {
  constructor(handle, call, onDispose, maxTextBytes, { summary, baselines, config }) {
    super(handle, call, onDispose, maxTextBytes);
    /** The text as the engine read it: { level, bytes, tokens, distinct, unknown, trainTokens, heldOutTokens, vocabSize }. */
    this.summary = Object.freeze(summary);
    /** The held-out tail's add-one unigram and interpolated bigram losses, nats per token (corpus.hpp). */
    this.baselines = Object.freeze(baselines);
    /** The trainer's configuration: every trainer field (defaults filled in) and contextLength. */
    this.trainerConfig = Object.freeze(config);
  }

  /** `count` updates on random windows of the training text: { step, loss, accuracy, gradientNorm, … }. */
  step(count = 1) {
    integerIn(count, 'count', 1, 1e6);
    try {
      return this.guarded((handle) => handle.step(count) ?? throwOf(handle));
    } catch (error) {
      if (error instanceof AttentionError && error.code === 'NON_FINITE') this.markDiverged(error);
      throw error;
    }
  }

  /** Updates done so far. */
  get steps() {
    return this.guarded((handle) => handle.info().steps);
  }

  /** The mean loss in nats per token on the held-out tail (the same targets as the baselines). */
  heldOutLoss() {
    return this.guarded((handle) => handle.corpusHeldOutLoss() ?? throwOf(handle));
  }

  /**
   * Every head's attention on a text (its first contextLength tokens) or { tokens }: { tokens
   * (the text's own symbols), layers, heads, length, weights: Float32Array [layers × heads × T × T] }.
   */
  attention(input) {
    const read = typeof input === 'string' ? { text: input } : input;
    let ids;
    let tokens;
    if (read && typeof read === 'object' && get(read, 'text', 'text') !== undefined) {
      ({ ids, tokens } = this.encode(read.text));
      if (!ids.length) throw invalid('text', 'text has no token to read: it is empty or only white space');
    } else {
      ids = encodeInput(read, this.vocabulary, this.contextLength);
      tokens = ids.map((id) => this.vocabulary[id]);
    }
    return this.guarded((handle) => {
      const raw = handle.attention(Int32Array.from(ids)) ?? throwOf(handle);
      // The one copy out of WASM memory.
      return { tokens, layers: raw.layers, heads: raw.heads, length: raw.length, weights: raw.weights.slice() };
    });
  }
}

function throwOf(handle) {
  throw errorOf(handle);
}

/**
 * A CorpusTrainer for `text` (a string or UTF-8 bytes); `fields` the engine's trainer fields,
 * `limits` its corpusLimits(), `maxTextBytes` the longest text encode() and trace() read.
 */
export function createCorpusTrainer(call, onDispose, text, options, { fields, limits, maxTextBytes }) {
  const { own, trainer } = readCorpusOptions(options, fields, limits);
  const bytes = textBytes(text);
  const total = bytes.length;
  const progress = (phase, done) =>
    own.onProgress?.({ phase, done, total, fraction: (phase === 'count' ? 0 : 0.5) + (0.5 * done) / total });
  const made = {};
  return open(
    call,
    (handle) => {
      const succeeded = (ok) => ok || throwOf(handle);
      // The size is checked by the engine before any byte is copied into WASM memory.
      succeeded(handle.corpusStart(own.level, total));
      for (let at = 0; at < total; at += own.chunkBytes) {
        succeeded(handle.corpusAdd(bytes.subarray(at, Math.min(total, at + own.chunkBytes))));
        progress('count', Math.min(total, at + own.chunkBytes));
      }
      succeeded(handle.corpusFinish(own.vocabularySize, own.minCount, own.heldOut));
      for (;;) {
        const step = handle.corpusEncode() ?? throwOf(handle);
        progress('encode', step.bytes);
        if (step.done) break;
      }
      made.summary = { ...handle.corpusSummary() };
      succeeded(handle.corpusTrain(trainer, own.contextLength));
      handle.corpusDescribe(own.corpus, own.title, own.titleZh);
      made.baselines = { ...handle.corpusBaselines() };
      return true;
    },
    (handle) =>
      new CorpusTrainer(handle, call, onDispose, maxTextBytes, {
        ...made,
        config: { ...trainer, contextLength: own.contextLength },
      }),
  );
}
