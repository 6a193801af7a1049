// The Tang canon (docs/models.md, "The canon"): which poems learners type, in which wording, and
// how often the training text repeats them. Pure functions over plain data (prepare-corpora.mjs
// reads the files; tests/node/canon_prepare.test.mjs feeds hand-made poems):
//
//   const split = tangSplit({ poems, anthology, popular });   // { train, heldOut, stats }
//
// poems:     [{ author, title, text }] the Quan Tang Shi in file order, text simplified;
// anthology: [{ form, author, title, text }] 唐诗三百首 (its popular wording), simplified;
// popular:   indices into poems, most popular first (popularOrder).

// A 唐诗三百首 poem is "the same poem" as a Quan Tang Shi poem when their character-bigram sets
// (punctuation left out) have a Dice coefficient of at least 0.5; the best match wins (ties:
// the same author, then the lower index). Measured on chinese-poetry@2.0.1: 319 of 320 match
// (the lowest at 0.50, 杜甫 赠卫八处士; 静夜思 at 0.76 because of 床前看月光 → 床前明月光).
export const MATCH_DICE = 0.5;
export const HELD_OUT_EVERY = 50;
// The popular poems: the POPULAR_COUNT best by so360 hit count among the eligible (popularOrder),
// 唐诗三百首 left out. Each 唐诗三百首 poem appears ANTHOLOGY_TIMES times in the training text,
// each popular poem POPULAR_TIMES times (docs/models.md gives the resulting shares).
export const POPULAR_COUNT = 3000;
export const ANTHOLOGY_TIMES = 16;
export const POPULAR_TIMES = 3;

const PUNCTUATION = /[\p{P}\s]/gu;

function bigrams(text) {
  const chars = Array.from(text.replace(PUNCTUATION, ''));
  const set = new Set();
  for (let i = 0; i + 1 < chars.length; i++) set.add(chars[i] + chars[i + 1]);
  return set;
}

/** An inverted index of the texts' character bigrams, for the best Dice match of a text. */
export class BigramIndex {
  constructor(texts, authors = []) {
    this.sets = texts.map(bigrams);
    this.authors = authors;
    this.postings = new Map();
    this.sets.forEach((set, index) => {
      for (const gram of set) {
        if (!this.postings.has(gram)) this.postings.set(gram, []);
        this.postings.get(gram).push(index);
      }
    });
  }

  /** { index, dice } of the best match of `text` (index −1, dice 0 when nothing shares a bigram). */
  best(text, author) {
    const grams = bigrams(text);
    const shared = new Map();
    for (const gram of grams) for (const i of this.postings.get(gram) ?? []) shared.set(i, (shared.get(i) ?? 0) + 1);
    const sameAuthor = (i) => (author !== undefined && this.authors[i] === author ? 1 : 0);
    let best = { index: -1, dice: 0 };
    for (const [index, count] of shared) {
      const dice = (2 * count) / (grams.size + this.sets[index].size);
      const order = dice - best.dice || sameAuthor(index) - sameAuthor(best.index) || best.index - index;
      if (best.index < 0 || order > 0) best = { index, dice };
    }
    return best;
  }
}

// Hit counts say little for fragments (句), unknown authors, editors' titles (题拟) and
// one-character titles (松, 雪): the query matches unrelated text. Those are not eligible.
const FRAGMENT_TITLES = new Set(['句', '逸句', '偈', '失题', '']);
const UNKNOWN_AUTHORS = new Set(['無名氏', '不詳', '佚名', '无名氏', '不详']);

/**
 * Quan Tang Shi indices, most popular first: poems whose (author, title) is unique in both
 * the poems and the rank entries ([{ author, title, so360 }], traditional as in the files), not
 * a fragment, an unknown author, a □ gap or a one-character title; by so360 count (the engine
 * whose ranking puts the most 唐诗三百首 poems on top, docs/models.md), ties by index.
 */
export function popularOrder(poems, ranks) {
  const count = (list) => {
    const counts = new Map();
    for (const { author, title } of list)
      counts.set(`${author}\u0000${title}`, (counts.get(`${author}\u0000${title}`) ?? 0) + 1);
    return counts;
  };
  const inPoems = count(poems);
  const inRanks = count(ranks);
  const byKey = new Map(ranks.map((r) => [`${r.author}\u0000${r.title}`, r]));
  const eligible = [];
  poems.forEach(({ author, title }, index) => {
    const key = `${author}\u0000${title}`;
    const base = title.replace(/\s*[一二三四五六七八九十○]+$/u, '');
    if (inPoems.get(key) !== 1 || inRanks.get(key) !== 1) return;
    if (FRAGMENT_TITLES.has(base) || Array.from(base).length <= 1 || UNKNOWN_AUTHORS.has(author)) return;
    if (`${author}${title}`.includes('□') || title.includes('題擬') || title.includes('题拟')) return;
    const hits = Number(byKey.get(key).so360);
    if (Number.isFinite(hits) && hits > 0) eligible.push({ index, hits });
  });
  eligible.sort((a, b) => b.hits - a.hits || a.index - b.index);
  return eligible.map((e) => e.index);
}

/** A seeded permutation (mulberry32 + Fisher–Yates): the same seed, the same order. */
function shuffled(items, seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const chars = (lines) => lines.reduce((sum, line) => sum + Array.from(line).length, 0);

/**
 * The Tang training and held-out lines with the canon weighted:
 * - a 唐诗三百首 poem replaces the text of its Quan Tang Shi match (its popular wording); one
 *   without a match, or whose match another took, is added to the training text;
 * - held out: every HELD_OUT_EVERY-th poem (index % 50 = 49) as before, except canon poems,
 *   poems matching a canon poem (Dice ≥ MATCH_DICE: the same poem under another author or
 *   title), and poems whose text is a training poem's or matches one at Dice ≥ MATCH_DICE (the
 *   Quan Tang Shi's own repeats), which train instead, in their place in file order
 *   (`trainBeforeCopies`: the training lines without those copies, as the shipped model had);
 * - the training text: every other poem once in file order, then ANTHOLOGY_TIMES − 1 rounds of
 *   the 唐诗三百首 poems, the first POPULAR_TIMES − 1 of them with the popular poems too, each
 *   round in a seeded order (seed = round) so that no window sees a poem twice in a row.
 */
export function tangSplit({
  poems,
  anthology,
  popular,
  popularCount = POPULAR_COUNT,
  anthologyTimes = ANTHOLOGY_TIMES,
  popularTimes = POPULAR_TIMES,
  heldOutEvery = HELD_OUT_EVERY,
}) {
  const texts = poems.map((p) => p.text);
  const index = new BigramIndex(
    texts,
    poems.map((p) => p.author),
  );
  const replaced = new Map(); // Quan Tang Shi index → 唐诗三百首 text
  const extra = [];
  const unmatched = [];
  for (const poem of anthology) {
    const match = index.best(poem.text, poem.author);
    if (match.dice >= MATCH_DICE && !replaced.has(match.index)) replaced.set(match.index, poem.text);
    else {
      extra.push(poem.text);
      if (match.dice < MATCH_DICE) unmatched.push(`${poem.author} ${poem.title}`);
    }
  }
  for (const [i, text] of replaced) texts[i] = text;
  const popularSet = popular.filter((i) => !replaced.has(i)).slice(0, popularCount);
  const canon = new Set([...replaced.keys(), ...popularSet]);
  const anthologyTexts = [...[...replaced.keys()].sort((a, b) => a - b).map((i) => texts[i]), ...extra];
  const popularTexts = popularSet.map((i) => texts[i]);
  const canonIndex = new BigramIndex([...anthologyTexts, ...popularTexts]);

  // Which poems the every-50th rule holds out, less the canon and its copies (they train).
  const isHeldOut = (i) => i % heldOutEvery === heldOutEvery - 1;
  const held = new Map(); // index → 'canon' | 'canonCopy' | 'trainCopy' | 'heldOut'
  texts.forEach((text, i) => {
    if (!isHeldOut(i)) return;
    if (canon.has(i)) held.set(i, 'canon');
    else held.set(i, canonIndex.best(text).dice >= MATCH_DICE ? 'canonCopy' : 'heldOut');
  });
  // The Quan Tang Shi repeats poems under other titles and poets: a held-out poem whose text is a
  // training poem's, or whose bigrams match one's at Dice ≥ MATCH_DICE, would score the model
  // on what it trained on. It trains instead (compared with the poems that train once, the
  // anthology's unmatched poems included).
  const trainOnce = [...texts.filter((_, i) => held.get(i) !== 'heldOut'), ...extra];
  const trainTexts = new Set(trainOnce);
  const trainIndex = new BigramIndex(trainOnce);
  let movedExact = 0;
  for (const [i, kind] of held) {
    if (kind !== 'heldOut') continue;
    const exact = trainTexts.has(texts[i]);
    if (exact || trainIndex.best(texts[i]).dice >= MATCH_DICE) {
      held.set(i, 'trainCopy');
      movedExact += exact ? 1 : 0;
    }
  }

  const heldOut = texts.filter((_, i) => held.get(i) === 'heldOut');
  const moved = (kind) => [...held.values()].filter((k) => k === kind).length;
  // The training lines with or without the moved copies: every poem that trains once in file
  // order, the unmatched anthology poems, then the rounds of repeats.
  const trainLines = (withCopies) => {
    const lines = texts.filter((_, i) => held.get(i) !== 'heldOut' && (withCopies || held.get(i) !== 'trainCopy'));
    lines.push(...extra);
    for (let round = 1; round < Math.max(anthologyTimes, popularTimes); round++) {
      const repeats = [
        ...(round < anthologyTimes ? anthologyTexts : []),
        ...(round < popularTimes ? popularTexts : []),
      ];
      lines.push(...shuffled(repeats, round));
    }
    return lines;
  };
  const train = trainLines(true);
  const once = texts.length - heldOut.length + extra.length;
  const trainChars = chars(train);
  return {
    train,
    // The shipped model's training text (it was trained before copies of training poems moved):
    // what scoring it on the clean held-out split counts its vocabulary and baselines on.
    trainBeforeCopies: trainLines(false),
    heldOut,
    stats: {
      poems: texts.length,
      anthology: anthology.length,
      anthologyMatched: replaced.size,
      unmatched,
      popular: popularSet.length,
      heldOutBefore: held.size,
      heldOut: heldOut.length,
      heldOutMovedCanon: moved('canon'),
      heldOutMovedCopies: moved('canonCopy'),
      heldOutMovedTrainCopies: moved('trainCopy'),
      heldOutMovedTrainExact: movedExact,
      trainLinesOnce: once,
      trainLines: train.length,
      trainChars,
      anthologyShare: (chars(anthologyTexts) * anthologyTimes) / trainChars,
      popularShare: (chars(popularTexts) * popularTimes) / trainChars,
    },
  };
}
