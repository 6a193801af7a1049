// How a sentence becomes tokens, the page's way (and by default the API's and the CLI's):
// dictionary words (Intl.Segmenter: 小明|在|北京|的|清华大学|读书), user-perceived characters,
// or whitespace. Whitespace the user typed always separates tokens; punctuation and emoji are
// tokens of their own. The engine's own C++ tokenizer (engine.tokenize) is the other choice.

export const TOKENIZATION_MODES = ['words', 'chars', 'whitespace'];

const wordSegmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const graphemeSegmenter = new Intl.Segmenter('zh', { granularity: 'grapheme' });

// A keystroke splits the whole sentence again, and every word but the one typed in splits as it
// did: the split of each short chunk is kept ([{ token, end }] within the chunk), up to MAX_KEPT
// chunks. (Segmenting 32 words one by one took 0.19 ms in node, a lookup each ~0.01 ms.) A long
// chunk, a sentence without spaces (Chinese), is split anew: each keystroke makes it another
// chunk, and kept they would hold the text thousands of times (a 2,000-character text edited
// 500 times kept 59 MB).
const MAX_KEPT = 4096;
const MAX_KEPT_LENGTH = 32;
const kept = { words: new Map(), chars: new Map() };

/** The tokens of one whitespace-free `chunk` with the offset just after each one in it. */
function splitChunk(chunk, mode) {
  const known = kept[mode];
  let split = known.get(chunk);
  if (!split) {
    split = [];
    const segmenter = mode === 'chars' ? graphemeSegmenter : wordSegmenter;
    for (const { segment, index } of segmenter.segment(chunk)) {
      const token = segment.trim();
      if (token !== '') split.push({ token, end: index + segment.length });
    }
    if (chunk.length > MAX_KEPT_LENGTH) return split;
    if (known.size >= MAX_KEPT) known.clear();
    known.set(chunk, split);
  }
  return split;
}

/** Tokens with the offset just after each one in `text`: [{ token, end }]. */
export function segmentSentence(text, mode) {
  const out = [];
  // Split at whitespace first, so that no segmenter ever joins what the user kept apart.
  for (const chunk of text.matchAll(/\S+/gu)) {
    const start = chunk.index;
    if (mode === 'whitespace') {
      out.push({ token: chunk[0], end: start + chunk[0].length });
      continue;
    }
    for (const { token, end } of splitChunk(chunk[0], mode === 'chars' ? 'chars' : 'words'))
      out.push({ token, end: start + end });
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
