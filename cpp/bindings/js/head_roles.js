// The keys a head role predicts on one text, for marking them on the page and
// scoring a head on the typed text beside the role measured on held-out text. The definitions
// are cpp/include/attention/train/head_roles.hpp's (TextRoleKeys), written again here for the
// browser; tests/node/head_roles.test.mjs checks that these keys, pooled over the committed
// held-out sample with the engine's weights, give the scores of models/tang.roles.json.
//
// Marks end lines: a run of them ends one ("。\n" is one line end).
//   previous   i − 1
//   lineStart  the last mark before i, unless it is i − 1
//   couplet    the token at i's offset in the previous line; not for marks, not from the
//              second line of the text (its previous line may have begun before the window)
//   rhyme      the last non-mark token of the previous line, for a line's non-mark tokens but its first
//   duplicate  every earlier occurrence of i's token but i − 1 (not for marks, <unk>)
//   first      0, for i ≥ 2
//   induction  the token after each earlier occurrence of i's token (on text; the stored
//              score is measured on repeated random sequences), unless that is i itself
// The part-of-speech roles need tags the typed text does not have: no keys (null).

/** The tokens that end a line: a poem's punctuation, and an English sentence's. */
export const ROLE_MARKS = Object.freeze(['\n', '，', '。', '！', '？', '；', '.', '!', '?', ';']);

/** Roles whose keys this module finds on any text. */
export const TEXT_ROLES = Object.freeze([
  'previous',
  'lineStart',
  'couplet',
  'rhyme',
  'duplicate',
  'first',
  'induction',
]);

const isMark = (token) => ROLE_MARKS.includes(token);

/** [{ begin, end }] of each line of `tokens` (end exclusive, after the line's run of marks). */
function linesOf(tokens) {
  const lines = [];
  let begin = 0;
  tokens.forEach((token, i) => {
    if (isMark(token) && (i + 1 === tokens.length || !isMark(tokens[i + 1]))) {
      lines.push({ begin, end: i + 1 });
      begin = i + 1;
    }
  });
  if (begin < tokens.length) lines.push({ begin, end: tokens.length });
  return lines;
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
    if (role === 'lineStart' && lastMark >= 0 && lastMark !== i - 1) k.push(lastMark);
    if (role === 'couplet' && !mark && line >= 2) {
      const j = lines[line - 1].begin + (i - here.begin);
      if (j < here.begin && !isMark(tokens[j])) k.push(j);
    }
    if (role === 'rhyme' && !mark && line >= 1 && i > here.begin) {
      let j = lines[line - 1].end - 1;
      while (j >= lines[line - 1].begin && isMark(tokens[j])) j -= 1;
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
