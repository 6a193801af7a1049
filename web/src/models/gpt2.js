// A GPT-2 checkpoint as the model panel reads any language model (models/service.js): the
// engine's model of token ids (engine.loadCheckpoint) and GPT-2's byte-level BPE
// (engine.createBpeTokenizer) together give what a corpus model has of its own: encode (with
// the chips a page shows), trace (with the last position's logits), layerOptions, generate,
// and a vocabulary of the tokens' own texts for the predictions.
//
//   const model = loadGpt2(engine, { config, safetensors, vocab, merges, vocabName, mergesName });
//   model.encode('Hello world', { keep: 'end' }) // { ids, tokens, chips, unknown, total, cut, start }
//   model.dispose();                              // frees the model and the tokenizer
import { AttentionError } from '../../../dist/engine/engine.js';

// GPT-2's byte alphabet (encoder.py bytes_to_unicode): a printable byte is its own character,
// the others are U+0100 onwards in byte order. Spelling → bytes reads it backwards.
const BYTE_OF = (() => {
  const map = new Map();
  let next = 256;
  for (let b = 0; b < 256; b++) {
    const own = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174;
    map.set(String.fromCodePoint(own ? b : next++), b);
  }
  return map;
})();

/** The bytes a vocabulary spelling stands for ('Ġworld' → ' world'), or null if it is not GPT-2's alphabet. */
export function spellingBytes(spelling) {
  const bytes = [];
  for (const c of spelling) {
    const b = BYTE_OF.get(c);
    if (b === undefined) return null;
    bytes.push(b);
  }
  return Uint8Array.from(bytes);
}

const hex = (bytes) => Array.from(bytes, (b) => `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`).join('');
const strict = new TextDecoder('utf-8', { fatal: true });

/**
 * What a token is shown as among the predictions: its text ('Ġworld' → ' world'), and a byte
 * it holds of a character it does not complete as <0xE7> (never U+FFFD, which says nothing).
 */
export function tokenText(bytes) {
  let start = 0;
  while (start < bytes.length && (bytes[start] & 0xc0) === 0x80) start++;
  let end = bytes.length;
  // A lead byte among the last three whose character runs past the token's end.
  for (let i = bytes.length - 1; i >= Math.max(start, bytes.length - 3); i--) {
    const b = bytes[i];
    if ((b & 0xc0) === 0x80) continue;
    const size = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    if (i + size > bytes.length) end = i;
    break;
  }
  try {
    return hex(bytes.subarray(0, start)) + strict.decode(bytes.subarray(start, end)) + hex(bytes.subarray(end));
  } catch {
    return hex(bytes);
  }
}

// Subscript digits: the second byte token of 火 is labelled 火₂.
const subscript = (n) => String(n).replace(/\d/g, (d) => String.fromCodePoint(0x2080 + Number(d)));

/**
 * Each token's label on the page's axes: its own text (a space as a space), or, for a token
 * inside a character, the character with the token's place among the chip's (火₁ 火₂ 火₃).
 * `pieces`: the tokenizer's pieces() of the text.
 */
export function tokenLabels({ texts, chips }) {
  const labels = texts.slice();
  for (const chip of chips) {
    for (let k = 0; k < chip.count; k++) labels[chip.first + k] ??= `${chip.text}${subscript(k + 1)}`;
  }
  return labels;
}

/**
 * The last tokens of `pieces` within `room`, cut where a chip begins (a character is never
 * split at the cut): { ids, labels, chips (their first re-counted from the cut) , cut }.
 */
export function keepEnd(pieces, room) {
  const total = pieces.ids.length;
  let from = Math.max(0, total - room);
  const firstChip = pieces.chips.findIndex((c) => c.first >= from);
  from = firstChip < 0 ? total : pieces.chips[firstChip].first;
  const chips = (firstChip < 0 ? [] : pieces.chips.slice(firstChip)).map((c) => ({
    text: c.text,
    first: c.first - from,
    count: c.count,
  }));
  return { ids: pieces.ids.slice(from), labels: tokenLabels(pieces).slice(from), chips, cut: from };
}

function invalid(field, message) {
  return new AttentionError('INVALID_ARGUMENT', field, message);
}

/**
 * The checkpoint { config, safetensors } read with the tokenizer { vocab, merges } (text or
 * bytes; vocabName and mergesName name them in errors). Every refusal is the engine's
 * AttentionError, naming the file and the key, tensor or line at fault.
 */
export function loadGpt2(engine, { config, safetensors, vocab, merges, vocabName, mergesName }) {
  const bpe = engine.createBpeTokenizer({ vocab, merges, vocabName, mergesName });
  let model;
  try {
    model = engine.loadCheckpoint({ config, safetensors });
    if (bpe.size > model.vocabulary.length) {
      throw invalid(
        'vocab',
        `${vocabName} has ${bpe.size} tokens, more than the checkpoint's vocab_size (${model.vocabulary.length}): they are not this model's files`,
      );
    }
  } catch (error) {
    model?.dispose();
    bpe.dispose();
    throw error;
  }
  // Each id's bytes, from the vocabulary file (the engine checked it): what the page shows of a
  // predicted token, and whether a continued piece ends inside a character.
  const text = typeof vocab === 'string' ? vocab : new TextDecoder().decode(vocab);
  const bytesOf = new Array(model.vocabulary.length).fill(null);
  for (const [spelling, id] of Object.entries(JSON.parse(text))) bytesOf[id] = spellingBytes(spelling);
  const vocabulary = Object.freeze(bytesOf.map((b, id) => (b ? tokenText(b) : `#${id}`)));
  const context = model.contextLength;

  /** Text → as LanguageModel.encode with keep 'end', plus chips; at most `room` tokens. */
  function encode(textIn, room = context) {
    const pieces = bpe.pieces(textIn);
    const kept = keepEnd(pieces, room);
    return {
      ids: kept.ids,
      tokens: kept.labels,
      chips: kept.chips,
      unknown: kept.ids.map(() => false),
      total: pieces.ids.length,
      cut: kept.cut,
      start: false, // GPT-2 reads no token before the text (as transformers' tokenizer adds none)
    };
  }

  const complete = (ids) => {
    const bytes = ids.flatMap((id) => Array.from(bytesOf[id] ?? []));
    try {
      strict.decode(Uint8Array.from(bytes));
      return true;
    } catch {
      return false;
    }
  };

  return {
    config: { ...model.config, tokenizer: vocabName },
    vocabulary,
    vocabularyLevel: 'bpe',
    contextLength: context,
    parameterCount: model.parameterCount,
    encode: (t) => encode(t),
    /** As LanguageModel.trace of { tokens }: the steps asked for, and nextLogits [V] (never [T × V] logits unless asked). */
    trace(input, options = {}) {
      const ids = input.tokens ?? encode(input.text).ids;
      const steps = options.steps;
      const every = !Array.isArray(steps) || steps.includes('logits') || steps.includes('probabilities');
      return model.traceWith((handle) => {
        if (!handle.trace(Int32Array.from(ids), every))
          throw new AttentionError(handle.errorCode(), handle.errorField(), handle.errorMessage());
        return { ids, nextLogits: handle.traceNextLogits().slice() };
      }, options);
    },
    layerInput: (input, layer) => model.layerInput({ tokens: input.tokens ?? encode(input.text).ids }, layer),
    layerOptions: (input, layer) => model.layerOptions({ tokens: input.tokens ?? encode(input.text).ids }, layer),
    /**
     * One new token after `text` (its last context − 4 tokens read): { tokens, ids, text }. A
     * token that ends inside a character is followed by as many more (up to 3) as complete it,
     * so that continue never writes half a character.
     */
    generate({ text: before }, options = {}) {
      const { ids } = encode(before, Math.max(1, context - 4));
      if (!ids.length) throw invalid('text', 'text has no token to read: it is empty');
      let made = model.generate({ tokens: ids }, options).ids;
      if (made.length && !complete(made) && (options.count ?? 1) === 1) {
        const more = model.generate({ tokens: ids }, { ...options, count: 4 }).ids;
        const k = more.findIndex((_, i) => complete(more.slice(0, i + 1)));
        if (k >= 0) made = more.slice(0, k + 1);
      }
      return { tokens: made.map((id) => vocabulary[id]), ids: made, text: before + bpe.decode(made) };
    },
    /**
     * Head roles measured on held-out `text` (model.measureRoles, the native tool's measure in
     * steps), read by this model's own tokenizer. The roles read each token's text without its
     * leading space (' .' ends a sentence as '.' does, ' the' is 'the' again later); couplet and
     * rhyme are skipped (a BPE model's text has no poem lines). Options as measureRoles'.
     */
    measureRoles(sampleText, options = {}) {
      const ids = bpe.pieces(sampleText).ids;
      const symbols = vocabulary.map((v) => v.replace(/^ +/, ''));
      return model.measureRoles({ ids, symbols }, { ...options, poem: false });
    },
    dispose() {
      model.dispose();
      bpe.dispose();
    },
  };
}
