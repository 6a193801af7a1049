// The committed canon lists (docs/models.md, "The canon"), which the measuring tool
// (canon-measure.mjs) scores a model on: models/canon/tang-quatrains.json (唐诗三百首's 五言绝句 and 七言绝句 in
// their training wording) and models/canon/brown-phrases.json (fixed phrases of the Brown training
// text, chosen from counts). prepare-corpora.mjs writes both; the rules are in docs/models.md.

export const QUATRAIN_FORMS = ['五言绝句', '七言绝句'];
// A line of a poem ends at one of these (the poem's text keeps them).
const LINE_END = /[，。？！；、：]/u;

/** A poem's lines: the runs of characters between its punctuation marks. */
export function poemLines(text) {
  return text.split(new RegExp(LINE_END.source, 'gu')).filter((line) => line.length > 0);
}

/**
 * The quatrains of the anthology ([{ form, author, title, text }], simplified, training wording):
 * the poems the package classifies as 五言绝句 or 七言绝句, in its order, with their lines.
 * `regular` says whether it has 4 lines of 5 (五言) or 7 (七言) characters.
 */
export function quatrainList(anthology) {
  return anthology
    .filter((poem) => QUATRAIN_FORMS.includes(poem.form))
    .map(({ form, author, title, text }) => {
      const lines = poemLines(text);
      const width = form === '五言绝句' ? 5 : 7;
      const regular = lines.length === 4 && lines.every((line) => Array.from(line).length === width);
      return { form, author, title, text, lines, regular };
    });
}

// Brown phrases: a context of 2 or 3 words and the word that follows it, all of a–z only, with
// the context seen at least PHRASE_MIN_CONTEXT times and followed by that word in at least
// PHRASE_MIN_SHARE of them, the word not one of the PHRASE_COMMON_WORDS most frequent words of
// the text (a content word: "the united" → states, not "a number" → of, which even the shipped
// model of 2026-11-30 got right 40 times out of 40). A 3-word context counts only when its last
// 2 words do not already pass with the same word ("government of the" → united, but not
// "of the united" → states). The PHRASE_COUNT most frequent (by the count of the whole phrase;
// ties in alphabetical order) are kept.
export const PHRASE_MIN_CONTEXT = 10;
export const PHRASE_MIN_SHARE = 0.6;
export const PHRASE_COMMON_WORDS = 100;
export const PHRASE_COUNT = 40;
const WORD = /^[a-z]+$/;

/** [{ context, next, count, contextCount, share }] from lines of space-separated tokens. */
export function brownPhrases(
  lines,
  {
    minContext = PHRASE_MIN_CONTEXT,
    minShare = PHRASE_MIN_SHARE,
    commonWords = PHRASE_COMMON_WORDS,
    count = PHRASE_COUNT,
  } = {},
) {
  const frequency = new Map();
  for (const line of lines) {
    for (const w of line.split(' ')) if (WORD.test(w)) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  }
  const common = new Set(
    [...frequency]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, commonWords)
      .map(([w]) => w),
  );
  const contexts = new Map(); // "w1 w2" → count as a context (followed by a word)
  const phrases = new Map(); // "w1 w2\tw3" → count
  for (const line of lines) {
    const words = line.split(' ');
    for (let end = 2; end < words.length; end++) {
      if (!WORD.test(words[end])) continue;
      for (const n of [2, 3]) {
        if (end - n < 0) continue;
        const context = words.slice(end - n, end);
        if (!context.every((w) => WORD.test(w))) continue;
        const key = context.join(' ');
        contexts.set(key, (contexts.get(key) ?? 0) + 1);
        phrases.set(`${key}\t${words[end]}`, (phrases.get(`${key}\t${words[end]}`) ?? 0) + 1);
      }
    }
  }
  const passes = (context, next) => {
    const c = contexts.get(context) ?? 0;
    const n = phrases.get(`${context}\t${next}`) ?? 0;
    return c >= minContext && n / c >= minShare;
  };
  const chosen = [];
  for (const [key, n] of phrases) {
    const [context, next] = key.split('\t');
    if (common.has(next) || !passes(context, next)) continue;
    const words = context.split(' ');
    if (words.length === 3 && passes(words.slice(1).join(' '), next)) continue;
    const contextCount = contexts.get(context);
    chosen.push({ context, next, count: n, contextCount, share: Number((n / contextCount).toFixed(3)) });
  }
  chosen.sort((a, b) => b.count - a.count || (a.context + ' ' + a.next < b.context + ' ' + b.next ? -1 : 1));
  return chosen.slice(0, count);
}
