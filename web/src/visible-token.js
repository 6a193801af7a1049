// A token as a label shows it: a character-level model reads white space, controls, joiners and
// combining marks as tokens of their own, and drawn as they are they show nothing (a chip, a
// heatmap row or column label, a readout), or join the label beside them: a zero-width joiner
// flood trained in the playground labelled every other row of its heatmaps with nothing.
//   '\n' → ↵   ' ' → ␣   '\t' → ⇥   a C0 control → its control picture (U+0007 → ␇), DEL → ␡
//   only combining marks → on a dotted circle (◌́), as Unicode's charts show them
//   only invisible format characters or variation selectors → their code points (U+200D)
// Any other token is itself (a line break inside a longer word-level token shows ↵).
const NAMED = new Map([
  ['\n', '↵'],
  [' ', '␣'],
  ['\t', '⇥'],
]);
const MARKS_ONLY = /^\p{M}+$/u;
// Default-ignorable: format characters (ZWJ, ZWNJ, BOM, bidirectional marks), variation
// selectors, the Hangul fillers, soft hyphen, combining grapheme joiner.
const INVISIBLE_ONLY = /^[\p{Cf}\u034F\u115F\u1160\u3164\uFE00-\uFE0F\u{E0100}-\u{E01EF}]+$/u;

export function visibleToken(token) {
  if (typeof token !== 'string' || token === '') return token;
  if (NAMED.has(token)) return NAMED.get(token);
  if (INVISIBLE_ONLY.test(token)) {
    return Array.from(token, (c) => `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
  }
  if (MARKS_ONLY.test(token)) return `◌${token}`;
  return token.replace(/[\u0000-\u001F\u007F]/g, (c) =>
    c === '\n' ? '↵' : c === '\t' ? '⇥' : c === '\x7F' ? '␡' : String.fromCharCode(0x2400 + c.charCodeAt(0)),
  );
}
