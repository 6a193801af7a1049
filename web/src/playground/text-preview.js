// What a text will make before it is sent to the engine: its tokens, its vocabulary and the
// model's parameters, for the summary line while the learner types or pastes. Without it the
// line kept the last trained text's numbers until Train was pressed. Plain functions: the node
// tests compare them with the engine's own counts.
import { contextLengthFor, countTokens } from './texts.js';

/** The vocabulary's own symbols beside the text's (the engine's <pad>, <unk>, <bos>, <eos>). */
export const SPECIAL_TOKENS = 4;

// Word level as the engine's Tokenize reads it (vocabulary.hpp): white space separates; each
// punctuation mark, symbol and CJK character is a token of its own; the rest runs into words.
const CJK = '\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\p{sc=Hangul}';
const WORD_TOKEN = new RegExp(`[${CJK}]|[\\p{P}\\p{S}]|[^\\s\\p{P}\\p{S}\\p{Cc}${CJK}]+`, 'gu');

/**
 * The parameters of the page's text model (parameters.cpp's layout): token and learned position
 * embeddings, per layer the attention's four projections with biases and, unless attention-only,
 * two LayerNorms and a 4×d_model feed-forward layer, then a final LayerNorm; tied unembedding.
 */
export function textModelParameters({ vocabSize, contextLength, layers, heads, dModel, attentionOnly }) {
  const d = dModel;
  const p = d % heads === 0 ? d : heads * Math.floor(d / heads);
  const f = 4 * d;
  const attention = 3 * (d * p + p) + (p * d + d);
  const block = attentionOnly ? attention : attention + 2 * (2 * d) + (d * f + f) + (f * d + d);
  return vocabSize * d + contextLength * d + layers * block + (attentionOnly ? 0 : 2 * d);
}

/**
 * { tokens, vocabSize, parameters, exact } of `text` at `level` with the page's `knobs`:
 * exact at character level (code points, as the engine counts them); at word level an estimate
 * (`exact` false), the engine's splitting of rare scripts may differ. `maxVocabulary`: the
 * engine's limit of distinct symbols (the rest would be <unk>).
 */
export function previewText(text, level, knobs, maxVocabulary = Infinity) {
  const body = text.replace(/^\uFEFF/, '');
  let tokens;
  const distinct = new Set();
  if (level === 'character') {
    tokens = countTokens(body, level);
    for (const c of body) distinct.add(c);
  } else {
    tokens = 0;
    for (const [word] of body.matchAll(WORD_TOKEN)) {
      tokens += 1;
      distinct.add(word);
    }
  }
  const vocabSize = Math.min(distinct.size, maxVocabulary) + SPECIAL_TOKENS;
  const contextLength = contextLengthFor(level === 'character' ? tokens : countTokens(body, level));
  const parameters = textModelParameters({ ...knobs, vocabSize, contextLength });
  return { tokens, vocabSize, parameters, exact: level === 'character' };
}
