// How the page splits a sentence: dictionary words (Intl.Segmenter: 小明|在|北京|的|清华大学|读书),
// user-perceived characters, or whitespace.

export const TOKENIZATION_MODES = ['words', 'chars', 'whitespace'];

const wordSegmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const graphemeSegmenter = new Intl.Segmenter('zh', { granularity: 'grapheme' });

/** Tokens with the offset just after each one in `text`: [{ token, end }]. */
export function segmentSentence(text, mode) {
  const out = [];
  if (mode === 'whitespace') {
    for (const match of text.matchAll(/\S+/gu)) out.push({ token: match[0], end: match.index + match[0].length });
    return out;
  }
  const segmenter = mode === 'chars' ? graphemeSegmenter : wordSegmenter;
  for (const { segment, index } of segmenter.segment(text)) {
    // Whitespace separates; punctuation and emoji stay as tokens of their own.
    const token = segment.trim();
    if (token !== '') out.push({ token, end: index + segment.length });
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
