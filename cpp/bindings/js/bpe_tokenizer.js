// GPT-2's tokenizer (cpp/include/attention/bpe.hpp): byte-level BPE from a vocabulary
// (encoder.json, or a checkpoint's vocab.json) and its merges (vocab.bpe / merges.txt).
//
//   const bpe = engine.createBpeTokenizer({ vocab: encoderJsonText, merges: vocabBpeText });
//   bpe.encode('Hello world')   // [15496, 995]
//   bpe.decode([15496, 995])    // 'Hello world'
//   bpe.tokens('Hello world')   // ['Hello', 'Ġworld']: the vocabulary's spellings
//   bpe.pieces('火锅')           // { ids, tokens, begin, end, chips: [{ text: '火', first, count, start, end }, …] }
//   bpe.dispose();
import { AttentionError, describe, invalid } from './errors.js';
import { checkWellFormed, get, utf8Length } from './read.js';
import { ownKeys } from './call_options.js';
import { WasmHandle } from './wasm_handle.js';

const OPTIONS = ['vocab', 'merges', 'vocabName', 'mergesName'];

/** A file's text: a string, or its bytes (Uint8Array or ArrayBuffer). */
function fileOf(value, field) {
  if (typeof value === 'string') return checkWellFormed(value, field);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (value instanceof Uint8Array) return value;
  throw invalid(field, `${field} (${describe(value)}) must be the file's text (a string) or its bytes (a Uint8Array)`);
}

function nameOf(value, field, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value.length === 0 || value.length > 200) {
    throw invalid(field, `${field} (${describe(value)}) must be a file name of 1 to 200 characters`);
  }
  return value;
}

/** The options of createBpeTokenizer: { vocab, merges } and, for error messages, the files' names. */
function readOptions(options) {
  if (!options || typeof options !== 'object' || Array.isArray(options)) {
    throw invalid('options', `the options (${describe(options)}) must be { vocab, merges }`);
  }
  const keys = ownKeys(options, 'options', 'the options');
  for (const key of keys) {
    if (!OPTIONS.includes(key))
      throw invalid(key, `unknown option ${describe(key)}; the options are ${OPTIONS.join(', ')}`);
  }
  const read = Object.fromEntries(keys.map((key) => [key, get(options, key, key)]));
  const files = {
    vocab: 'the vocabulary (encoder.json or vocab.json)',
    merges: 'the merges (vocab.bpe or merges.txt)',
  };
  for (const [key, what] of Object.entries(files)) {
    if (read[key] === undefined) throw invalid(key, `${key} is required: ${what}, as text or bytes`);
  }
  return {
    vocab: fileOf(read.vocab, 'vocab'),
    merges: fileOf(read.merges, 'merges'),
    vocabName: nameOf(read.vocabName, 'vocabName', 'encoder.json'),
    mergesName: nameOf(read.mergesName, 'mergesName', 'vocab.bpe'),
  };
}

/** Token ids: an array or typed array of integers (range checked by the engine). */
function idsOf(ids, maxIds) {
  if (!Array.isArray(ids) && !(ArrayBuffer.isView(ids) && !(ids instanceof DataView))) {
    throw invalid('ids', `ids (${describe(ids)}) must be an array of token ids`);
  }
  if (ids.length > maxIds) {
    throw new AttentionError('LIMIT_EXCEEDED', 'ids', `ids (${ids.length}) must be at most ${maxIds} ids`);
  }
  const out = new Int32Array(ids.length);
  for (let i = 0; i < ids.length; i += 1) {
    const id = ids[i]; // a hole reads as undefined and is refused
    if (!Number.isSafeInteger(id) || id < 0 || id > 0x7fffffff) {
      throw invalid(`ids[${i}]`, `ids[${i}] (${describe(id)}) must be a token id, a whole number from 0`);
    }
    out[i] = id;
  }
  return out;
}

/** The UTF-16 offset of each UTF-8 byte offset of `text` that starts a character, and of its end. */
function utf16Offsets(text) {
  const unitOf = new Map([[0, 0]]);
  let bytes = 0;
  let units = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    units += ch.length;
    unitOf.set(bytes, units);
  }
  return unitOf;
}

/**
 * Each token's own text (a space as a space, never Ġ), or null for a token that starts or ends
 * inside a character (a byte of a CJK character or an emoji): its chip shows the character.
 */
export function tokenTextsOf(text, begin, end) {
  const unitOf = utf16Offsets(text);
  return Array.from(begin, (b, i) => {
    const start = unitOf.get(b);
    const stop = unitOf.get(end[i]);
    return start === undefined || stop === undefined ? null : text.slice(start, stop);
  });
}

/**
 * The chips a page shows for `text`'s tokens: one per character group, its text the text's own
 * characters (a space as a space, never Ġ; a CJK character split into byte tokens whole, never
 * U+FFFD), with [start, end) in UTF-16 code units of `text` and the tokens
 * [first, first + count) it spans. `begin`, `end`: each token's UTF-8 bytes; `group`: its group.
 */
export function chipsOf(text, begin, end, group) {
  const unitOf = utf16Offsets(text);
  const chips = [];
  for (let i = 0; i < group.length; i += 1) {
    if (i > 0 && group[i] === group[i - 1]) {
      const chip = chips[chips.length - 1];
      chip.count += 1;
      chip.byteEnd = end[i];
      continue;
    }
    chips.push({ first: i, count: 1, byteStart: begin[i], byteEnd: end[i] });
  }
  return chips.map(({ first, count, byteStart, byteEnd }) => {
    const start = unitOf.get(byteStart);
    const stop = unitOf.get(byteEnd);
    return { text: text.slice(start, stop), first, count, start, end: stop };
  });
}

export class BpeTokenizer {
  #life;
  #maxTextBytes;

  constructor(handle, call, onDispose, maxTextBytes) {
    this.#life = new WasmHandle(handle, call, onDispose, 'tokenizer', 'create the tokenizer again');
    this.#maxTextBytes = maxTextBytes;
    /** Tokens in the vocabulary (GPT-2: 50,257). */
    this.size = this.#guarded((h) => h.size());
  }

  #guarded(fn) {
    return this.#life.run(fn);
  }

  #text(text) {
    if (typeof text !== 'string') throw invalid('text', `text (${describe(text)}) must be a string`);
    if (text.length > this.#maxTextBytes / 3 && utf8Length(text) > this.#maxTextBytes) {
      throw new AttentionError(
        'LIMIT_EXCEEDED',
        'text',
        `text (${utf8Length(text)} bytes) must be at most ${this.#maxTextBytes} bytes of UTF-8; truncate it`,
      );
    }
    return checkWellFormed(text, 'text');
  }

  #encoded(text) {
    this.#text(text);
    return this.#guarded((handle) => handle.encode(text) ?? throwOf(handle));
  }

  /** The vocabulary's spellings of `ids` (valid ids), which the engine joins by "\n". */
  #spellings(ids) {
    if (ids.length === 0) return [];
    return this.#guarded((handle) => handle.spellings(ids).split('\n'));
  }

  /** Text → token ids, as GPT-2's encoder.py gives them. */
  encode(text) {
    return Array.from(this.#encoded(text).ids);
  }

  /** Token ids → text; bytes that do not form UTF-8 (ids cut inside a character) read as U+FFFD. */
  decode(ids) {
    const checked = idsOf(ids, this.#maxTextBytes);
    return this.#guarded((handle) => handle.decode(checked) ?? throwOf(handle));
  }

  /** Text → the tokens as the vocabulary spells them ('Ġworld' for ' world'). */
  tokens(text) {
    const { ids } = this.#encoded(text);
    return this.#spellings(ids);
  }

  /**
   * Text → { ids, tokens (spellings), texts (tokenTextsOf: each token's own text, or null inside a
   * character), begin, end (each token's UTF-8 bytes in the text), chips (chipsOf: what a page
   * shows, one chip per character group) }.
   */
  pieces(text) {
    const encoded = this.#encoded(text);
    const tokens = this.#spellings(encoded.ids);
    return {
      ids: Array.from(encoded.ids),
      tokens,
      texts: tokenTextsOf(text, encoded.begin, encoded.end),
      begin: Array.from(encoded.begin),
      end: Array.from(encoded.end),
      chips: chipsOf(text, encoded.begin, encoded.end, encoded.group),
    };
  }

  get disposed() {
    return this.#life.disposed;
  }

  /** Frees the tokenizer's WASM memory (a few MB for GPT-2). Further calls throw DISPOSED. */
  dispose() {
    this.#life.dispose(this);
  }

  /** The engine replaced its WASM instance: this tokenizer's memory went with the old one. */
  orphan() {
    this.#life.orphan();
  }
}

function throwOf(handle) {
  throw new AttentionError(handle.errorCode(), handle.errorField(), handle.errorMessage());
}

/** engine.createBpeTokenizer: `call` runs inside the engine's failure guard, bound to one instance. */
export function createBpeTokenizer(call, onDispose, options, maxTextBytes) {
  const { vocab, merges, vocabName, mergesName } = readOptions(options);
  const handle = call((module) => new module.BpeHandle());
  let made;
  try {
    call(() => {
      if (!handle.load(vocab, merges, vocabName, mergesName)) throwOf(handle);
    });
    made = new BpeTokenizer(handle, call, onDispose, maxTextBytes);
    return made;
  } finally {
    if (!made) call(() => handle.delete());
  }
}
