// Turns the options a user passes to engine.run() into the complete, typed request the WASM
// module reads (cpp/bindings/request.hpp). Every option is read once (a snapshot) and the
// value read is the value checked and used. Types, counts, lengths and shapes are checked here,
// before anything is copied into WASM memory (which never shrinks); the ranges of valid sizes
// are checked in C++, so each of those rules lives in one place.
import { AttentionError, describe, invalid } from './errors.js';
import { boundShape, matrixShape } from './matrix.js';
import { checkWellFormed, element, get, utf8Length } from './read.js';
import { TOKENIZATION_MODES } from './segment.js';
import { ATTENTION_KINDS, EMBEDDINGS, INITS, MASK_DEFAULTS, MASK_TYPES, TRACE_DEFAULTS } from './catalog.js';

export { checkWellFormed } from './read.js';

/** A run's defaults: the engine's (a default Config, catalog.js), and the page's word splitting. */
export const DEFAULTS = Object.freeze({ ...TRACE_DEFAULTS, tokenizer: 'words' });

/** How `text` becomes tokens: the page's segmentations, or the engine's own tokenizer. */
export const TOKENIZERS = [...TOKENIZATION_MODES, 'engine'];
const OPTION_NAMES = ['tokens', 'text', 'kvTokens', 'kvText', 'given', ...Object.keys(DEFAULTS)];
/**
 * The sparse patterns' options beyond type, width and causal, with their defaults (MaskSpec,
 * cpp/include/attention/config.hpp; C++ checks the ranges). A key a pattern does not take is
 * refused: `{ type: 'longformer', window: 3 }` would otherwise run with width 1.
 */
const PATTERN_OPTIONS = {
  longformer: { global: MASK_DEFAULTS.global },
  bigbird: {
    global: MASK_DEFAULTS.global,
    block: MASK_DEFAULTS.block,
    random: MASK_DEFAULTS.random,
    seed: MASK_DEFAULTS.seed,
  },
  dilated: { dilation: MASK_DEFAULTS.dilation },
};
const INT32_MAX = 2 ** 31 - 1;

/**
 * An integer that C++ can hold. Beyond int32 the value is refused here, by the value the user
 * gave, with the range C++ would name (`range`); within it C++ checks the range itself.
 */
function integer(value, field, range) {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw invalid(field, `${field} (${describe(value)}) must be an integer`);
  }
  if (Math.abs(value) > INT32_MAX) throw invalid(field, `${field} (${describe(value)}) must be ${range}`);
  return value;
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

/** A list (an array of at most `max` elements) read element by element, holes refused. */
function list(value, field, max, what, readOne) {
  if (!Array.isArray(value)) throw invalid(field, `${field} (${describe(value)}) must be an array of ${what}`);
  const length = get(value, 'length', field);
  if (length > max) {
    throw new AttentionError('LIMIT_EXCEEDED', field, `${field} (${length} ${what}) must hold at most ${max} ${what}`);
  }
  return Array.from({ length }, (_, i) => readOne(element(value, i, `${field}[${i}]`), `${field}[${i}]`));
}

function stringList(value, field, limits) {
  return list(value, field, limits.maxTokens, 'tokens', (token, name) => {
    if (typeof token !== 'string') throw invalid(name, `${name} (${describe(token)}) must be a string`);
    // A UTF-16 code unit is at least one byte: a longer string is over the limit unmeasured.
    const bytes = token.length > 3 * limits.maxTokenBytes ? token.length : utf8Length(token);
    if (bytes > limits.maxTokenBytes) {
      throw new AttentionError(
        'LIMIT_EXCEEDED',
        name,
        `${name} (${bytes} bytes) must be at most ${limits.maxTokenBytes} bytes of UTF-8`,
      );
    }
    return checkWellFormed(token, name);
  });
}

function normalizeMask(mask, nQuery, nKey, limits) {
  if (typeof mask === 'string') mask = { type: mask };
  if (!mask || typeof mask !== 'object') {
    throw invalid(
      'mask',
      `mask (${describe(mask)}) must be one of ${MASK_TYPES.join(', ')} or an object { type, ... }`,
    );
  }
  const type = oneOf(get(mask, 'type', 'mask.type'), 'mask.type', MASK_TYPES);
  const out = {
    type,
    width: 1,
    causal: false,
    positions: new Int32Array(0),
    matrix: new Uint8Array(0),
    rows: 0,
    cols: 0,
    global: new Int32Array(0),
    dilation: 1,
    block: 1,
    random: 0,
    seed: 0,
  };
  const extra = PATTERN_OPTIONS[type];
  if (extra) {
    const allowed = ['type', 'width', 'causal', ...Object.keys(extra)];
    for (const key of Object.keys(mask)) {
      if (!allowed.includes(key)) {
        throw invalid(
          `mask.${key}`,
          `mask.${key} is not an option of mask type ${type}; its options are ${allowed.join(', ')}`,
        );
      }
    }
    const read = (key) => get(mask, key, `mask.${key}`) ?? extra[key];
    if ('global' in extra) {
      const range = `a token position from 0 to ${Math.max(nQuery, nKey) - 1}`;
      out.global = Int32Array.from(
        list(read('global'), 'mask.global', limits.maxTokens, 'positions', (p, name) => integer(p, name, range)),
      );
    }
    const count = (key, low) => integer(read(key), `mask.${key}`, `an integer from ${low} to ${limits.maxTokens}`);
    if ('dilation' in extra) out.dilation = count('dilation', 1);
    if ('block' in extra) {
      out.block = count('block', 1);
      out.random = count('random', 0);
      const seed = read('seed');
      if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > limits.maxSeed) {
        throw invalid('mask.seed', `mask.seed (${describe(seed)}) must be an integer from 0 to ${limits.maxSeed}`);
      }
      out.seed = seed;
    }
  }
  if (type === 'window' || extra) {
    out.width = integer(
      get(mask, 'width', 'mask.width') ?? MASK_DEFAULTS.width,
      'mask.width',
      `an integer from 0 to ${limits.maxTokens}`,
    );
    out.causal = boolean(get(mask, 'causal', 'mask.causal') ?? MASK_DEFAULTS.causal, 'mask.causal');
  } else if (type === 'padding') {
    const range = `a key position from 0 to ${nKey - 1}`;
    const positions = get(mask, 'positions', 'mask.positions') ?? [];
    out.positions = Int32Array.from(
      list(positions, 'mask.positions', limits.maxTokens, 'positions', (p, name) => integer(p, name, range)),
    );
  } else if (type === 'custom') {
    const shape = matrixShape(get(mask, 'matrix', 'mask.matrix'), 'mask.matrix');
    // The same rule as C++, checked before a single row is read.
    if (shape.rows !== nQuery || shape.cols !== nKey) {
      throw new AttentionError(
        'SHAPE_MISMATCH',
        'mask.matrix',
        `mask.matrix must be ${nQuery} × ${nKey} (queries × keys), got ${shape.rows} × ${shape.cols}`,
      );
    }
    const data = shape.read((v, name) => {
      if (v !== 0 && v !== 1) {
        throw invalid('mask.matrix', `${name} (${describe(v)}) must be 0 (masked) or 1 (visible)`);
      }
      return v;
    });
    Object.assign(out, { matrix: Uint8Array.from(data), rows: shape.rows, cols: shape.cols });
  }
  return out;
}

/** `names`: the given matrices C++ knows (kGivenSlots in cpp/include/attention/given.hpp). */
function normalizeGiven(given, limits, names) {
  if (given === undefined) return {};
  if (!given || typeof given !== 'object') throw invalid('given', 'given must be an object of matrices');
  // The largest valid matrix: X is tokens × dModel, a weight dModel × P or P × dModel.
  const maxSide = Math.max(limits.maxTokens, limits.maxDModel, limits.maxProjectionWidth);
  const maxValues = Math.max(limits.maxTokens, limits.maxProjectionWidth) * limits.maxDModel;
  const shapes = [];
  for (const name of Object.keys(given)) {
    oneOf(name, 'given', names);
    const value = get(given, name, `given.${name}`);
    if (value == null) continue;
    const shape = matrixShape(value, `given.${name}`);
    boundShape(shape, `given.${name}`, maxSide, maxValues);
    shapes.push([name, shape]);
  }
  // Every shape is bounded before any matrix is read.
  const out = {};
  for (const [name, shape] of shapes) out[name] = { data: shape.read(), rows: shape.rows, cols: shape.cols };
  return out;
}

/** The options object, each own option read once; undefined means the default. */
function snapshot(options) {
  if (!options || typeof options !== 'object') throw invalid('options', 'run() needs an options object');
  const o = { ...DEFAULTS };
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.includes(key)) {
      throw invalid(key, `unknown option ${describe(key)}; options are: ${OPTION_NAMES.join(', ')}`);
    }
    const value = get(options, key, key);
    if (value !== undefined) o[key] = value;
  }
  return o;
}

/**
 * @param {object} options what the user passed to run()
 * @param {{ limits: object, givenNames: string[], tokenizeText: (text: string, field: string, tokenizer: string) => string[] }} engine
 * @returns the request object for TraceHandle.run
 */
export function normalizeOptions(options, { limits, givenNames, tokenizeText }) {
  const o = snapshot(options);
  const tokenizer = oneOf(o.tokenizer, 'tokenizer', TOKENIZERS);
  const tokensFrom = (tokens, text, name, textName) => {
    if (tokens !== undefined) return stringList(tokens, name, limits);
    if (typeof text !== 'string') throw invalid(name, `give ${name} (an array of strings) or ${textName} (a string)`);
    return stringList(tokenizeText(text, textName, tokenizer), name, limits);
  };
  const tokens = tokensFrom(o.tokens, o.text, 'tokens', 'text');
  const cross = o.kvTokens !== undefined || o.kvText !== undefined;
  const kvTokens = cross ? tokensFrom(o.kvTokens, o.kvText, 'kvTokens', 'kvText') : [];

  const dModel = integer(o.dModel, 'dModel', `an integer from 1 to ${limits.maxDModel}`);
  const seed = o.seed;
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > limits.maxSeed) {
    throw invalid('seed', `seed (${describe(seed)}) must be an integer from 0 to ${limits.maxSeed}`);
  }
  if (typeof o.temperature !== 'number') {
    throw invalid('temperature', `temperature (${describe(o.temperature)}) must be a number`);
  }
  return {
    tokens,
    cross,
    kvTokens,
    dModel,
    heads: integer(o.heads, 'heads', `an integer from 1 to dModel (${dModel})`),
    dK: integer(o.dK, 'dK', `0 (meaning dModel / heads) or from 1 to ${limits.maxDK}`),
    seed,
    mask: normalizeMask(o.mask, tokens.length, cross ? kvTokens.length : tokens.length, limits),
    scale: boolean(o.scale, 'scale'),
    temperature: o.temperature,
    bias: boolean(o.bias, 'bias'),
    outputProjection: boolean(o.outputProjection, 'outputProjection'),
    positionalEncoding: boolean(o.positionalEncoding, 'positionalEncoding'),
    init: oneOf(o.init, 'init', INITS),
    embedding: oneOf(o.embedding, 'embedding', EMBEDDINGS),
    attention: oneOf(o.attention, 'attention', ATTENTION_KINDS),
    given: normalizeGiven(o.given, limits, givenNames),
  };
}
