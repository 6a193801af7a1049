// The public API of the attention engine, for node and the browser alike:
//
//   import { createEngine } from './engine.js';
//   const engine = await createEngine();
//   const trace = engine.run({ text: '我爱吃火锅', dModel: 8, heads: 2 });
//   trace.step('weights', 1).data   // Float32Array [n × n], a copy
//
// Every result is copied out of WASM memory (a view goes stale when memory grows), every
// Embind object made here is deleted before the call returns (or by LiveTrace.dispose()),
// and every failure is thrown as an AttentionError with a code, never a bare number. A failure
// inside WASM (a C++ exception, a trap) replaces the instance with a fresh one.
import { AttentionError, invalid } from './errors.js';
import { compileModule, cxxExceptionType, releaseModule } from './module.js';
import { normalizeOptions } from './options.js';
import { checkWellFormed, errorText, get, utf8Length } from './read.js';
import { tokenizeSentence } from './segment.js';
import { copyTrace, LiveTrace } from './trace.js';
import { loadModel } from './language_model.js';
import { loadCheckpoint } from './checkpoint.js';
import { createTrainer } from './training.js';
import { createCorpusTrainer } from './corpus_training.js';
import { createBpeTokenizer } from './bpe_tokenizer.js';
import { defaultsOf, trainerFieldsOf } from './training_config.js';

export { AttentionError } from './errors.js';
export { DEFAULTS, TOKENIZERS } from './options.js';
export { LiveTrace } from './trace.js';
export { HEAD_LABELS, HEAD_LABEL_THRESHOLDS, LINE_ENDS, labelHeads } from './head_labels.js';
export { ROLE_MARKS, TEXT_ROLES, roleKeys, roleScore } from './head_roles.js';
export { predictionsOf } from './language_model.js';
// The engine's catalogs (steps, block steps, tasks, limits, a run's option names and defaults),
// generated from C++.
export * from './catalog.js';
export { chipsOf, tokenTextsOf } from './bpe_tokenizer.js';

/** Live traces an engine keeps at most, by default: far above what a page or a notebook holds. */
const MAX_LIVE_TRACES = 256;
/** WASM memory in use beyond which no trace is opened while others are: half the 2 GB maximum. */
const MAX_LIVE_BYTES = 2 ** 30;

const megabytes = (bytes) => String(+(bytes / 2 ** 20).toFixed(1));

function positiveInteger(value, field, fallback) {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw invalid(field, `${field} (${value}) must be a positive integer`);
  return value;
}

export class Engine {
  #instantiate;
  #module;
  /** The instance's WeightCache: the generated layer kept between runs, one per instance. */
  #weights;
  /** The names of the given matrices, as C++ lists them (kGivenSlots). */
  #givenNames;
  #live = new Set();

  /**
   * @param {() => object} instantiate returns a fresh, ready instance of the Emscripten module
   * @param {{ maxLiveTraces?: number, maxLiveBytes?: number }} [options]
   */
  constructor(instantiate, { maxLiveTraces, maxLiveBytes } = {}) {
    const live = {
      maxLiveTraces: positiveInteger(maxLiveTraces, 'maxLiveTraces', MAX_LIVE_TRACES),
      maxLiveBytes: positiveInteger(maxLiveBytes, 'maxLiveBytes', MAX_LIVE_BYTES),
    };
    this.#instantiate = instantiate;
    this.#start();
    this.#givenNames = Object.freeze(this.#module.givenNames());
    /** { maxTokens, maxAttendTokens, maxTextBytes, maxTokenBytes, maxDModel, maxDK, maxProjectionWidth, ..., maxLiveTraces, maxLiveBytes } */
    this.limits = Object.freeze({ ...this.#module.limits(), ...live });
    /** The trainer's fields, the engine's one table (trainer_fields.hpp): { name, section, kind, fallback, min, max, minOpen, values, note, about, allowed }. */
    this.trainerFields = trainerFieldsOf(this.#module);
    /** { name: default } of trainerFields. */
    this.trainerDefaults = defaultsOf(this.trainerFields);
    /** The limits of createCorpusTrainer's text (cpp/bindings/corpus_text.hpp): { maxTextBytes, maxVocabulary, minTokens, maxHeldOutTokens, maxControlShare, minContextLength, maxContextLength }. */
    this.corpusLimits = Object.freeze({ ...this.#module.corpusLimits() });
    /** The threads this build runs at once (parallel.hpp): the cores in the threaded build (dist/engine-mt), else 1. */
    this.threads = this.#module.availableThreads();
  }

  /**
   * Runs fn(module) against the current instance. Anything but an AttentionError thrown there
   * came out of WASM (a bare number is a C++ exception, a RuntimeError a trap or abort): the
   * instance may be corrupt, so it is replaced, and the caller gets an AttentionError.
   */
  #call(fn) {
    if (!this.#module) this.#restart();
    try {
      return fn(this.#module);
    } catch (error) {
      if (error instanceof AttentionError) throw error;
      const cause = failureCause(this.#module, error);
      this.#restart();
      if (cause) {
        throw new AttentionError(
          'INTERNAL',
          'engine',
          `the WebAssembly engine ${cause} and was replaced by a fresh instance, without the traces, trainers and models the old one held; dispose() what you no longer need, or ask for less, and retry`,
        );
      }
      throw new AttentionError(
        'INTERNAL',
        'engine',
        `the WebAssembly engine failed (${errorText(error)}) and was replaced by a fresh instance; retry the call`,
      );
    }
  }

  /** A fresh instance and the weight cache that lives in it (dropped with it). */
  #start() {
    const module = this.#instantiate();
    this.#weights = new module.WeightCache();
    this.#module = module;
  }

  #restart() {
    for (const trace of this.#live) trace.orphan();
    this.#live.clear();
    releaseModule(this.#module);
    this.#module = null;
    this.#weights = null;
    try {
      this.#start();
    } catch (error) {
      throw new AttentionError(
        'INTERNAL',
        'engine',
        `the WebAssembly engine could not be restarted: ${errorText(error)}`,
      );
    }
  }

  /** The engine's own tokenizer (whitespace, punctuation, one token per CJK character). */
  tokenize(text, field = 'text') {
    checkText(text, field, this.limits);
    const result = this.#call((module) => module.tokenize(text));
    if (!result.ok) throw new AttentionError(result.code, field, result.message.replace(/^text\b/, field));
    return result.tokens;
  }

  /**
   * `options` as the engine's request, read against `limits` (attend's token bound is its own);
   * a reader of the options that throws something else is reported as INVALID_ARGUMENT options.
   */
  #request(options, limits) {
    try {
      return normalizeOptions(options, {
        limits,
        givenNames: this.#givenNames,
        tokenizeText: (text, field, tokenizer) => this.#textTokens(text, field, tokenizer),
      });
    } catch (error) {
      if (error instanceof AttentionError) throw error;
      throw invalid('options', `reading the options threw ${errorText(error)}`);
    }
  }

  /**
   * The layer's output alone, without a trace (attend.hpp): up to limits.maxAttendTokens tokens,
   * holding one head's buffers at a time. What the cost panel times. → { rows, cols, output
   * (Float32Array, row-major), computedScores (a head's), scoreBytes (its buffers at their peak) }.
   */
  attend(options) {
    const request = this.#request(options, { ...this.limits, maxTokens: this.limits.maxAttendTokens });
    return this.#call((module) => {
      const result = module.attend(request, this.#weights);
      if (!result.ok) throw new AttentionError(result.code, result.field, result.message);
      const { rows, cols, data, computedScores, scoreBytes } = result;
      return { rows, cols, output: data, computedScores, scoreBytes };
    });
  }

  /**
   * Runs attention and keeps the trace in WASM memory: for long inputs, read only the steps
   * you need. The caller must call dispose() on the result.
   */
  open(options) {
    const request = this.#request(options, this.limits);
    this.#checkLive();
    const handle = this.#call((m) => new m.TraceHandle());
    const module = this.#module; // the instance the handle belongs to
    let trace;
    try {
      this.#call(() => {
        if (!handle.run(request, this.#weights)) {
          throw new AttentionError(handle.errorCode(), handle.errorField(), handle.errorMessage());
        }
      });
      trace = new LiveTrace(
        handle,
        (fn) => (this.#module === module ? this.#call(fn) : undefined),
        (t) => this.#live.delete(t),
      );
    } finally {
      // A refused request frees its handle; after a failure the handle died with its instance.
      if (!trace && this.#module === module) handle.delete();
    }
    this.#live.add(trace);
    return trace;
  }

  /** Refuses to open a trace while the open ones are at the count or memory limit. */
  #checkLive() {
    const { maxLiveTraces, maxLiveBytes } = this.limits;
    const count = this.#live.size;
    if (count >= maxLiveTraces) {
      throw new AttentionError(
        'LIMIT_EXCEEDED',
        'maxLiveTraces',
        `${count} traces are open, as many as maxLiveTraces allows; call dispose() on the traces you no longer need`,
      );
    }
    const inUse = count > 0 ? this.#call((module) => module.heapBytesInUse()) : 0;
    if (inUse > maxLiveBytes) {
      throw new AttentionError(
        'LIMIT_EXCEEDED',
        'maxLiveBytes',
        `${count} open traces hold ${megabytes(inUse)} MB of WASM memory, more than the limit (maxLiveBytes, ${megabytes(maxLiveBytes)} MB); call dispose() on the traces you no longer need`,
      );
    }
  }

  #textTokens(text, field, tokenizer) {
    if (tokenizer === 'engine') return this.tokenize(text, field);
    return tokenizeSentence(checkText(text, field, this.limits), tokenizer);
  }

  /**
   * Runs attention and returns every step copied into JS: nothing to free.
   * `steps` restricts which steps are copied (all by default).
   */
  run(options, selection) {
    const steps = selection === undefined ? undefined : get(selection ?? {}, 'steps', 'steps');
    const live = this.open(options);
    try {
      return copyTrace(live, steps);
    } finally {
      live.dispose();
    }
  }

  /** A trainer for a toy task (training.js); the caller must call dispose() on it. */
  createTrainer(config) {
    return this.#adopt((call, onDispose) => createTrainer(call, onDispose, config, this.trainerFields));
  }

  /**
   * A language model trained on `text` (a string or UTF-8 bytes): corpus_training.js. The
   * caller must call dispose() on it.
   */
  createCorpusTrainer(text, options) {
    return this.#adopt((call, onDispose) =>
      createCorpusTrainer(call, onDispose, text, options, {
        fields: this.trainerFields,
        limits: this.corpusLimits,
        maxTextBytes: this.limits.maxTextBytes,
      }),
    );
  }

  /**
   * A model from a model file's bytes: a TrainedModel (training.js), or a LanguageModel
   * (language_model.js) for corpus models. The caller must call dispose() on it.
   */
  loadModel(bytes) {
    return this.#adopt((call, onDispose) => loadModel(call, onDispose, bytes));
  }

  /**
   * GPT-2's tokenizer from its vocabulary and merges files (bpe_tokenizer.js): { vocab, merges }
   * as text or bytes. The caller must call dispose() on it.
   */
  createBpeTokenizer(options) {
    return this.#adopt((call, onDispose) => createBpeTokenizer(call, onDispose, options, this.limits.maxTextBytes));
  }

  /**
   * A GPT-2 checkpoint: { config: config.json (text, bytes or object), safetensors:
   * model.safetensors' bytes } (checkpoint.js), as a TrainedModel of token ids. The caller must
   * call dispose() on it.
   */
  loadCheckpoint(checkpoint) {
    return this.#adopt((call, onDispose) => loadCheckpoint(call, onDispose, checkpoint, this.limits.maxModelFileBytes));
  }

  /** A training object bound to the current instance, kept with the live traces (orphaned by a restart). */
  #adopt(make) {
    if (!this.#module) this.#restart();
    const module = this.#module;
    const made = make(
      (fn) => (this.#module === module ? this.#call(() => fn(module)) : undefined),
      (o) => this.#live.delete(o),
    );
    this.#live.add(made);
    return made;
  }

  /** Bytes malloc'ed in WASM memory right now, and the size of WASM memory. */
  heapStats() {
    return this.#call((module) => ({ inUse: module.heapBytesInUse(), memory: module.HEAPU8.byteLength }));
  }
}

// The most WASM memory an instance can have: Emscripten 3.1.6's MAXIMUM_MEMORY with memory growth.
const MAX_WASM_MEMORY = 2 ** 31;

/**
 * What a failure from WASM says of its cause, where it can say something: C++'s std::bad_alloc
 * thrown on the calling thread (memory ran out); an abort (Emscripten's RuntimeError
 * "Aborted(…)"), or its "unwind" from a wait for a pool thread that crashed, which say no reason,
 * with how full memory was (an abort with memory at its maximum is memory running out). Else null.
 */
function failureCause(module, error) {
  const bytes = module?.HEAPU8?.length ?? 0;
  const memory = `${Math.round(bytes / 2 ** 20)} MB of WebAssembly memory, of the ${MAX_WASM_MEMORY / 2 ** 20} MB it can have`;
  const type = cxxExceptionType(module, error);
  if (type === 'St9bad_alloc' || type === 'St20bad_array_new_length') {
    return `ran out of memory (std::bad_alloc with ${memory})`;
  }
  const aborted = error instanceof WebAssembly.RuntimeError && error.message.startsWith('Aborted(');
  const lostThread = error === 'unwind' && Boolean(module?.PThread);
  if (!aborted && !lostThread) return null;
  const full = bytes >= 0.9 * MAX_WASM_MEMORY ? ': memory ran out' : '';
  return `${lostThread ? 'lost one of its threads to an abort' : 'aborted'} (with ${memory}${full})`;
}

/** A string within maxTextBytes and well-formed, checked before it is copied anywhere. */
function checkText(text, field, limits) {
  if (typeof text !== 'string') {
    throw new AttentionError('INVALID_ARGUMENT', field, `${field} must be a string`);
  }
  // Refused here instead of being copied into WASM memory, which never shrinks.
  // A string of at most a third as many code units is within the limit unmeasured.
  if (text.length > limits.maxTextBytes / 3) {
    const bytes = utf8Length(text);
    if (bytes > limits.maxTextBytes) {
      throw new AttentionError(
        'LIMIT_EXCEEDED',
        field,
        `${field} (${bytes} bytes) must be at most ${limits.maxTextBytes} bytes of UTF-8; truncate it`,
      );
    }
  }
  return checkWellFormed(text, field);
}

/**
 * Loads the WebAssembly module. In node the .wasm next to this file is read from disk; in a
 * browser it is fetched from the same folder, unless `wasmUrl` or `wasmBinary` is given.
 * `maxLiveTraces` (256) and `maxLiveBytes` (1 GiB) bound what open() keeps in WASM memory.
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array, wasmUrl?: string | URL, maxLiveTraces?: number, maxLiveBytes?: number }} [options]
 */
export async function createEngine({ wasmBinary, wasmUrl, maxLiveTraces, maxLiveBytes } = {}) {
  positiveInteger(maxLiveTraces, 'maxLiveTraces');
  positiveInteger(maxLiveBytes, 'maxLiveBytes');
  return new Engine(await compileModule({ wasmBinary, wasmUrl }), { maxLiveTraces, maxLiveBytes });
}
