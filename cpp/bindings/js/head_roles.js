// The keys a head role predicts on one text, for marking them on the page and
// scoring a head on the typed text beside the role measured on held-out text. The definitions
// are cpp/include/attention/train/head_roles.hpp's (TextRoleKeys), written again here for the
// browser; tests/node/head_roles.test.mjs checks that these keys, pooled over the committed
// held-out sample with the engine's weights, give the scores of models/tang.roles.json.
//
// Marks end lines: a run of them ends one ("。\n" is one line end). A closing line's run has one
// of 。！？； . ! ? ; (a poem's even line, a sentence), an opening line's is ， alone; \n ends a poem.
//   previous   i − 1
//   lineStart  the last mark before i, unless it is i − 1 or the text's first token (the ↵ the
//              model reads first: a sink, first's key)
//   couplet    对仗: for a closing line right after an opening line of the same length (not the
//              text's first line, which may have begun before it), its non-mark tokens → the
//              token at the same offset in the opening line
//   rhyme      at the token before a closing line's last character (the query that predicts the
//              rhyme): the last character of the closing line before it, with no ↵ between
//   duplicate  every earlier occurrence of i's token but i − 1 (not for marks, <unk>)
//   first      0, for i ≥ 2
//   induction  the token after each earlier occurrence of i's token (on text; the stored
//              score is measured on repeated random sequences), unless that is i itself
// The part-of-speech roles need tags the typed text does not have: no keys (null). The marks and
// the role names are the engine's (kLineMarks, kRoles), read from the generated catalog.

import { LINE_MARKS, TEXT_ROLE_NAMES } from './catalog.js';

/** The tokens that end a line: a poem's punctuation, and an English sentence's (kLineMarks). */
export const ROLE_MARKS = Object.freeze(LINE_MARKS.map((m) => m.text));

/** Roles whose keys this module finds on any text (kRoles' weight roles that need no tags). */
export const TEXT_ROLES = TEXT_ROLE_NAMES;

const MARK_KIND = new Map(LINE_MARKS.map((m) => [m.text, m.kind]));
const isMark = (token) => MARK_KIND.has(token);
const is = (kind) => (token) => MARK_KIND.get(token) === kind;
const isClosing = is('closing');
const isOpening = is('opening');
const isPoemEnd = is('poemEnd');

/**
 * [{ begin, end, text }] of each line of `tokens`: end exclusive, after the line's run of marks;
 * text where that run begins (end when the text ends inside the line).
 */
function linesOf(tokens) {
  const lines = [];
  let begin = 0;
  tokens.forEach((token, i) => {
    if (isMark(token) && (i + 1 === tokens.length || !isMark(tokens[i + 1]))) {
      let text = i;
      while (text > begin && isMark(tokens[text - 1])) text -= 1;
      lines.push({ begin, end: i + 1, text });
      begin = i + 1;
    }
  });
  if (begin < tokens.length) lines.push({ begin, end: tokens.length, text: tokens.length });
  return lines;
}

/** What a line's marks say: { closing, opening (， alone), poem (a ↵) }; all false when cut. */
function endOf(line, tokens) {
  const marks = tokens.slice(line.text, line.end);
  return {
    closing: marks.some(isClosing),
    opening: marks.length > 0 && marks.every(isOpening),
    poem: marks.some(isPoemEnd),
  };
}

/** The last character of the closing line before line `line`, unless a poem ends first; −1. */
function previousRhyme(lines, line, tokens) {
  for (let k = line - 1; k >= 0; k--) {
    const end = endOf(lines[k], tokens);
    if (end.poem) return -1;
    if (end.closing) return lines[k].text > lines[k].begin ? lines[k].text - 1 : -1;
  }
  return -1;
}

/**
 * For each query position of `tokens` (the model's symbols, as typed), the keys `role` predicts:
 * an array of ascending positions (empty: the query does not count); null for a role this
 * module cannot find on text (the part-of-speech roles, "broad").
 */
export function roleKeys(role, tokens) {
  if (!TEXT_ROLES.includes(role)) return null;
  const lines = linesOf(tokens);
  const keys = tokens.map(() => []);
  let lastMark = -1;
  let line = 0;
  tokens.forEach((token, i) => {
    while (i >= lines[line].end) line += 1;
    const mark = isMark(token);
    const k = keys[i];
    const here = lines[line];
    if (role === 'previous' && i >= 1) k.push(i - 1);
    if (role === 'lineStart' && lastMark >= 1 && lastMark !== i - 1) k.push(lastMark);
    if (role === 'couplet' && !mark && line >= 2 && endOf(here, tokens).closing) {
      const before = lines[line - 1];
      if (endOf(before, tokens).opening && before.text - before.begin === here.text - here.begin) {
        k.push(before.begin + (i - here.begin));
      }
    }
    if (role === 'rhyme' && !mark && i === here.text - 2 && i >= here.begin && endOf(here, tokens).closing) {
      const j = previousRhyme(lines, line, tokens);
      if (j >= 0) k.push(j);
    }
    if (role === 'duplicate' && !mark && token !== '<unk>') {
      for (let j = 0; j < i - 1; j++) if (tokens[j] === token) k.push(j);
    }
    if (role === 'first' && i >= 2) k.push(0);
    if (role === 'induction') {
      for (let j = 0; j + 1 < i; j++) if (tokens[j] === token) k.push(j + 1);
    }
    if (mark) lastMark = i;
  });
  return keys;
}

/**
 * A head's score on one text: the mean over the queries with keys of the weight on them, and
 * the chance of a uniform causal row (mean of keys / (i + 1)). `weights` [T × T] row-major.
 * @returns {{ score: number, chance: number, ratio: number, queries: number } | null} null
 *   when no query has a key
 */
export function roleScore(weights, length, keys) {
  let score = 0;
  let chance = 0;
  let queries = 0;
  keys.forEach((k, i) => {
    if (!k.length) return;
    queries += 1;
    chance += k.length / (i + 1);
    for (const j of k) score += weights[i * length + j];
  });
  if (!queries) return null;
  return { score: score / queries, chance: chance / queries, ratio: score / chance, queries };
}
