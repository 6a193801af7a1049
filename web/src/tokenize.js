// How the page splits a sentence: dictionary words (Intl.Segmenter: 小明|在|北京|的|清华大学|读书),
// user-perceived characters, or whitespace.

export const TOKENIZATION_MODES = ['words', 'chars', 'whitespace'];

const wordSegmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const graphemeSegmenter = new Intl.Segmenter('zh', { granularity: 'grapheme' });

export function tokenizeSentence(text, mode) {
  if (mode === 'whitespace') return text.split(/\s+/u).filter(Boolean);
  const segmenter = mode === 'chars' ? graphemeSegmenter : wordSegmenter;
  const tokens = [];
  for (const { segment } of segmenter.segment(text)) {
    // Whitespace separates; punctuation and emoji stay as tokens of their own.
    if (segment.trim() !== '') tokens.push(segment.trim());
  }
  return tokens;
}
