// The public API of the attention engine, for node and the browser alike:
//
//   import { createEngine } from './engine.js';
//   const engine = await createEngine();
//   const trace = engine.run({ tokens: ['我', '爱', '吃', '火锅'], dModel: 8, heads: 2 });
//   trace.step('weights', 1).data   // Float32Array [n × n], a copy
//
// Every result is copied out of WASM memory (a view goes stale when memory grows), every
// Embind object made here is deleted before the call returns (or by LiveTrace.dispose()),
// and every failure is thrown as an AttentionError with a code, never a bare number.
import createAttentionModule from './attention-engine.mjs';
import { AttentionError } from './errors.js';
import { checkWellFormed, normalizeOptions } from './options.js';
import { createTrainer, loadModel } from './training.js';

export { AttentionError } from './errors.js';
export { DEFAULTS } from './options.js';
export { TRAINER_DEFAULTS, TRAINER_FIELDS, TASKS } from './training_config.js';

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

async function loadModule({ wasmBinary, wasmUrl } = {}) {
  const url = wasmUrl ? new URL(wasmUrl, import.meta.url) : new URL('./attention-engine.wasm', import.meta.url);
  if (!wasmBinary && isNode) {
    // Emscripten 3.1.6 would fetch() a file path under node 20 and fail: read the bytes here.
    const { readFile } = await import('node:fs/promises');
    wasmBinary = await readFile(url);
  }
  return createAttentionModule({
    ...(wasmBinary ? { wasmBinary } : { locateFile: () => url.href }),
    print: () => {},
    printErr: () => {},
  });
}

function axisLabels(axis, size, tokens, kvTokens, stepName) {
  switch (axis) {
    case 'query':
      return tokens.slice();
    case 'key':
      return kvTokens.slice();
    case 'one':
      return [stepName];
    default:
      return Array.from({ length: size }, (_, i) => String(i));
  }
}

/** A trace that stays in WASM memory; read steps on demand and call dispose() when done. */
export class LiveTrace {
  #module;
  #handle;
  #stepInfo;

  constructor(module, handle) {
    this.#module = module;
    this.#handle = handle;
    const s = handle.summary();
    this.tokens = s.tokens;
    this.cross = s.cross;
    // Keys and values: the other sentence in cross-attention, the tokens themselves otherwise.
    this.kvTokens = s.kvTokens;
    this.nQuery = s.nQuery;
    this.nKey = s.nKey;
    this.dModel = s.dModel;
    this.heads = s.heads;
    this.dK = s.dK;
    this.projectionWidth = s.projectionWidth;
    this.parameterCount = s.parameterCount;
    this.flops = s.flops;
    this.stepNames = s.steps.map((step) => step.name);
    this.#stepInfo = new Map(s.steps.map((step) => [step.name, step]));
  }

  /** Metadata of a step: { name, perHead, rowsAxis, colsAxis }. */
  info(name) {
    const info = this.#stepInfo.get(name);
    if (!info) {
      throw new AttentionError(
        'UNKNOWN_STEP',
        'step',
        `step ${JSON.stringify(String(name))} does not exist; steps are: ${this.stepNames.join(', ')}`,
      );
    }
    return info;
  }

  /**
   * One step as { name, head, rows, cols, data: Float32Array (a copy), rowLabels, colLabels }.
   * `head` is required for per-head steps (0 … heads − 1) and must be 0 or omitted otherwise.
   */
  step(name, head = 0) {
    if (!this.#handle) throw new AttentionError('DISPOSED', 'trace', 'this trace was disposed');
    const info = this.info(name);
    if (!Number.isInteger(head)) throw new AttentionError('UNKNOWN_STEP', 'head', `head (${head}) must be an integer`);
    const raw = this.#handle.step(name, head);
    if (raw === null) throw errorOf(this.#handle);
    return {
      name,
      head: info.perHead ? head : null,
      rows: raw.rows,
      cols: raw.cols,
      data: raw.data.slice(), // the one copy out of WASM memory
      rowsAxis: info.rowsAxis,
      colsAxis: info.colsAxis,
      rowLabels: axisLabels(info.rowsAxis, raw.rows, this.tokens, this.kvTokens, name),
      colLabels: axisLabels(info.colsAxis, raw.cols, this.tokens, this.kvTokens, name),
    };
  }

  /** Frees the WASM memory of this trace. Further step() calls throw. */
  dispose() {
    if (this.#handle) {
      this.#handle.delete();
      this.#handle = null;
    }
  }

  get disposed() {
    return this.#handle === null;
  }
}

/** The UTF-8 length of a string, without encoding it. */
function utf8Length(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) ((bytes += 4), i++);
    else bytes += 3;
  }
  return bytes;
}

function errorOf(handle) {
  return new AttentionError(handle.errorCode(), handle.errorField(), handle.errorMessage());
}

export class Engine {
  #module;

  constructor(module) {
    this.#module = module;
    /** { maxTokens, maxDModel, maxDK, minTemperature, maxTemperature } */
    this.limits = Object.freeze({ ...module.limits() });
  }

  /** The engine's own tokenizer (whitespace, punctuation, one token per CJK character). */
  tokenize(text, field = 'text') {
    if (typeof text !== 'string') {
      throw new AttentionError('INVALID_ARGUMENT', field, `${field} must be a string`);
    }
    // Each UTF-16 code unit is at least one UTF-8 byte: a longer string is over the limit, and
    // is refused here instead of being copied into WASM memory, which never shrinks.
    if (text.length > this.limits.maxTextBytes) {
      throw new AttentionError(
        'LIMIT_EXCEEDED',
        field,
        `${field} (${utf8Length(text)} bytes) must be at most ${this.limits.maxTextBytes} bytes of UTF-8; truncate it`,
      );
    }
    const result = this.#module.tokenize(checkWellFormed(text, field));
    if (!result.ok) throw new AttentionError(result.code, field, result.message.replace(/^text\b/, field));
    return result.tokens;
  }

  /**
   * Runs attention and keeps the trace in WASM memory: for long inputs, read only the steps
   * you need. The caller must call dispose() on the result.
   */
  open(options) {
    const request = normalizeOptions(options, (text, field) => this.tokenize(text, field));
    const handle = new this.#module.TraceHandle();
    try {
      if (!handle.run(request)) throw errorOf(handle);
      return new LiveTrace(this.#module, handle);
    } catch (error) {
      handle.delete();
      throw error;
    }
  }

  /**
   * Runs attention and returns every step copied into JS: nothing to free.
   * `steps` restricts which steps are copied (all by default).
   */
  run(options, { steps } = {}) {
    const live = this.open(options);
    try {
      const names = steps ?? live.stepNames;
      const out = {};
      for (const name of names) out[name] = live.info(name).perHead ? [] : live.step(name);
      // Head by head: the engine recomputes one head's n×m steps at a time, so reading every
      // step of head 0, then of head 1, … computes each head once.
      for (let h = 0; h < live.heads; h++) {
        for (const name of names) if (Array.isArray(out[name])) out[name].push(live.step(name, h));
      }
      return {
        ...live, // the summary fields (tokens, sizes, parameterCount, flops): plain data
        stepNames: names.slice(),
        steps: out,
        /** A step by name (and head for per-head steps). */
        step(name, head = 0) {
          const s = out[name];
          if (!s)
            throw new AttentionError(
              'UNKNOWN_STEP',
              'step',
              `step ${JSON.stringify(String(name))} was not copied; steps are: ${names.join(', ')}`,
            );
          if (!Array.isArray(s)) return s;
          if (!s[head])
            throw new AttentionError('UNKNOWN_STEP', 'head', `head (${head}) must be from 0 to ${s.length - 1}`);
          return s[head];
        },
      };
    } finally {
      live.dispose();
    }
  }

  /** A trainer for a toy task (training.js); the caller must call dispose() on it. */
  createTrainer(config) {
    return createTrainer(this.#module, config);
  }

  /** A model from a model file's bytes (training.js); the caller must call dispose() on it. */
  loadModel(bytes) {
    return loadModel(this.#module, bytes);
  }

  /** Bytes malloc'ed in WASM memory right now, and the size of WASM memory. */
  heapStats() {
    return { inUse: this.#module.heapBytesInUse(), memory: this.#module.HEAPU8.byteLength };
  }
}

/**
 * Loads the WebAssembly module. In node the .wasm next to this file is read from disk; in a
 * browser it is fetched from the same folder, unless `wasmUrl` or `wasmBinary` is given.
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array, wasmUrl?: string | URL }} [options]
 */
export async function createEngine(options = {}) {
  return new Engine(await loadModule(options));
}
