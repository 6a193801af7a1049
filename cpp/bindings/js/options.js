// Turns the options a user passes to engine.run() into the complete, typed request the
// WASM module reads (cpp/bindings/request.hpp). Type errors are caught here; ranges that
// depend on the engine's limits are checked in C++, so each rule lives in one place.
import { AttentionError, describe, invalid } from './errors.js';

export const DEFAULTS = Object.freeze({
  dModel: 8,
  heads: 2,
  dK: 0,
  seed: 42,
  mask: 'none',
  scale: true,
  temperature: 1,
  bias: false,
  outputProjection: true,
  init: 'scaled',
  positionalEncoding: true,
  embedding: 'hash',
});

const OPTION_NAMES = ['tokens', 'text', 'kvTokens', 'kvText', 'given', ...Object.keys(DEFAULTS)];
const MASK_TYPES = ['none', 'causal', 'window', 'padding', 'custom'];
const MATRIX_NAMES = ['x', 'xKv', 'wQ', 'wK', 'wV', 'wO', 'bQ', 'bK', 'bV', 'bO'];
const INT32_MAX = 2 ** 31 - 1;

function integer(value, field) {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw invalid(field, `${field} (${describe(value)}) must be an integer`);
  }
  // Far outside every allowed range: clamp so that C++ reports the range for this field.
  return Math.max(-INT32_MAX, Math.min(INT32_MAX, value));
}

function boolean(value, field) {
  if (typeof value !== 'boolean') throw invalid(field, `${field} (${describe(value)}) must be true or false`);
  return value;
}

function oneOf(value, field, allowed) {
  if (!allowed.includes(value)) {
    throw invalid(field, `${field} (${describe(value)}) must be one of ${allowed.join(', ')}`);
  }
  return value;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Embind would silently turn a lone UTF-16 surrogate into some other character: refuse it. */
export function checkWellFormed(text, field) {
  const match = LONE_SURROGATE.exec(text);
  if (match) {
    throw new AttentionError(
      'INVALID_UTF8',
      field,
      `${field} is not valid Unicode: a lone UTF-16 surrogate at index ${match.index}`,
    );
  }
  return text;
}

function stringList(value, field) {
  if (!Array.isArray(value)) throw invalid(field, `${field} (${describe(value)}) must be an array of strings`);
  value.forEach((token, i) => {
    if (typeof token !== 'string') {
      throw invalid(`${field}[${i}]`, `${field}[${i}] (${describe(token)}) must be a string`);
    }
    checkWellFormed(token, `${field}[${i}]`);
  });
  return value;
}

/** A matrix as { data, rows, cols }, a nested array (rows of numbers) or, for biases, a flat array. */
export function toMatrix(value, field) {
  if (value && typeof value === 'object' && 'data' in value && 'rows' in value && 'cols' in value) {
    const rows = integer(value.rows, `${field}.rows`);
    const cols = integer(value.cols, `${field}.cols`);
    if (rows < 0 || cols < 0 || value.data?.length !== rows * cols) {
      throw invalid(field, `${field}.data must hold rows × cols = ${rows * cols} numbers, got ${describe(value.data)}`);
    }
    if (value.data instanceof BigInt64Array || value.data instanceof BigUint64Array) {
      throw invalid(field, `${field}.data holds BigInt values; every value must be a number`);
    }
    // A typed array holds only numbers: copy it natively (a per-value callback costs
    // milliseconds for a 512×512 weight).
    const data = ArrayBuffer.isView(value.data)
      ? new Float32Array(value.data)
      : Float32Array.from(value.data, (v) => number(v, field));
    return { data, rows, cols };
  }
  if (Array.isArray(value) && value.every(Array.isArray)) {
    const cols = value[0]?.length ?? 0;
    value.forEach((row, i) => {
      if (row.length !== cols) {
        throw invalid(field, `${field} must be rectangular: row ${i} has ${row.length} numbers, row 0 has ${cols}`);
      }
    });
    return { data: Float32Array.from(value.flat(), (v) => number(v, field)), rows: value.length, cols };
  }
  if (ArrayBuffer.isView(value) || Array.isArray(value)) {
    return { data: Float32Array.from(value, (v) => number(v, field)), rows: 1, cols: value.length };
  }
  throw invalid(field, `${field} (${describe(value)}) must be a matrix: { data, rows, cols } or an array of rows`);
}

/** A typed array of numbers (not a DataView, not BigInt64Array). */
function isNumberArray(data) {
  return (
    ArrayBuffer.isView(data) &&
    !(data instanceof DataView) &&
    !(data instanceof BigInt64Array) &&
    !(data instanceof BigUint64Array)
  );
}

function number(value, field) {
  // NaN and ±Infinity pass through: C++ names their exact position.
  if (typeof value !== 'number')
    throw invalid(field, `${field} holds ${describe(value)}; every value must be a number`);
  return value;
}

function normalizeMask(mask) {
  const spec = typeof mask === 'string' ? { type: mask } : mask;
  if (!spec || typeof spec !== 'object') {
    throw invalid(
      'mask',
      `mask (${describe(mask)}) must be one of ${MASK_TYPES.join(', ')} or an object { type, ... }`,
    );
  }
  const type = oneOf(spec.type, 'mask.type', MASK_TYPES);
  const out = {
    type,
    width: 1,
    causal: false,
    positions: new Int32Array(0),
    matrix: new Uint8Array(0),
    rows: 0,
    cols: 0,
  };
  if (type === 'window') {
    out.width = integer(spec.width ?? 1, 'mask.width');
    out.causal = boolean(spec.causal ?? false, 'mask.causal');
  } else if (type === 'padding') {
    const positions = spec.positions ?? [];
    if (!Array.isArray(positions)) throw invalid('mask.positions', 'mask.positions must be an array of key positions');
    out.positions = Int32Array.from(positions, (p, i) => integer(p, `mask.positions[${i}]`));
  } else if (type === 'custom') {
    const m = toMatrix(spec.matrix, 'mask.matrix');
    m.data.forEach((v) => {
      if (v !== 0 && v !== 1) throw invalid('mask.matrix', 'mask.matrix values must be 0 (masked) or 1 (visible)');
    });
    Object.assign(out, { matrix: Uint8Array.from(m.data), rows: m.rows, cols: m.cols });
  }
  return out;
}

/**
 * @param {object} options what the user passed to run()
 * @param {(text: string, field: string) => string[]} tokenize the engine's tokenizer
 * @returns the request object for TraceHandle.run
 */
export function normalizeOptions(options, tokenize) {
  if (!options || typeof options !== 'object') throw invalid('options', 'run() needs an options object');
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.includes(key)) {
      throw invalid(key, `unknown option ${describe(key)}; options are: ${OPTION_NAMES.join(', ')}`);
    }
  }
  const o = { ...DEFAULTS, ...options };
  const tokensFrom = (tokens, text, name, textName) => {
    if (tokens !== undefined) return stringList(tokens, name);
    if (typeof text !== 'string') throw invalid(name, `give ${name} (an array of strings) or ${textName} (a string)`);
    return tokenize(text, textName);
  };
  const tokens = tokensFrom(o.tokens, o.text, 'tokens', 'text');
  const cross = o.kvTokens !== undefined || o.kvText !== undefined;
  const kvTokens = cross ? tokensFrom(o.kvTokens, o.kvText, 'kvTokens', 'kvText') : [];

  const given = {};
  if (o.given !== undefined) {
    if (!o.given || typeof o.given !== 'object') throw invalid('given', 'given must be an object of matrices');
    for (const [name, value] of Object.entries(o.given)) {
      oneOf(name, 'given', MATRIX_NAMES);
      if (value != null) given[name] = toMatrix(value, `given.${name}`);
    }
  }
  const seed = integer(o.seed, 'seed');
  if (seed < 0 || seed > 0xffffffff) throw invalid('seed', `seed (${o.seed}) must be an integer from 0 to 4294967295`);
  if (typeof o.temperature !== 'number') {
    throw invalid('temperature', `temperature (${describe(o.temperature)}) must be a number`);
  }
  return {
    tokens,
    cross,
    kvTokens,
    dModel: integer(o.dModel, 'dModel'),
    heads: integer(o.heads, 'heads'),
    dK: integer(o.dK, 'dK'),
    seed,
    mask: normalizeMask(o.mask),
    scale: boolean(o.scale, 'scale'),
    temperature: o.temperature,
    bias: boolean(o.bias, 'bias'),
    outputProjection: boolean(o.outputProjection, 'outputProjection'),
    positionalEncoding: boolean(o.positionalEncoding, 'positionalEncoding'),
    init: oneOf(o.init, 'init', ['randn', 'scaled']),
    embedding: oneOf(o.embedding, 'embedding', ['hash', 'stream', 'given']),
    given,
  };
}
