// How a sentence becomes tokens, the page's way (and by default the API's and the CLI's):
// dictionary words (Intl.Segmenter: 小明|在|北京|的|清华大学|读书), user-perceived characters,
// or whitespace. Whitespace the user typed always separates tokens; punctuation and emoji are
// tokens of their own. The engine's own C++ tokenizer (engine.tokenize) is the other choice.

export const TOKENIZATION_MODES = ['words', 'chars', 'whitespace'];

const wordSegmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const graphemeSegmenter = new Intl.Segmenter('zh', { granularity: 'grapheme' });

/** Tokens with the offset just after each one in `text`: [{ token, end }]. */
export function segmentSentence(text, mode) {
  const out = [];
  const segmenter = mode === 'chars' ? graphemeSegmenter : wordSegmenter;
  // Split at whitespace first, so that no segmenter ever joins what the user kept apart.
  for (const chunk of text.matchAll(/\S+/gu)) {
    const start = chunk.index;
    if (mode === 'whitespace') {
      out.push({ token: chunk[0], end: start + chunk[0].length });
      continue;
    }
    for (const { segment, index } of segmenter.segment(chunk[0])) {
      const token = segment.trim();
      if (token !== '') out.push({ token, end: start + index + segment.length });
    }
  }
  return out;
}

export function tokenizeSentence(text, mode) {
  return segmentSentence(text, mode).map((s) => s.token);
}

/** `text` cut just after its first `count` tokens. */
export function truncateToTokens(text, mode, count) {
  const segments = segmentSentence(text, mode);
  return segments.length <= count ? text : text.slice(0, segments[count - 1].end);
}
