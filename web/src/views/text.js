// Text that must fit a given room in a drawing: its width estimated without a layout (views
// draw on every keystroke; measuring each label would force one), and cut with "…" to fit.
// The whole text stays in tooltips, aria-labels and tables.

const charWidth = (ch) => (ch.codePointAt(0) >= 0x1100 ? 1 : 0.62);

/** A label's width in px at `font` px, estimated: CJK and other wide characters 1 em, others 0.62 em. */
export function textWidth(text, font) {
  let em = 0;
  for (const ch of text) em += charWidth(ch);
  return em * font;
}

/** `text` cut with "…" to fit `width` px at `font` px (one pass: a token may be thousands of characters). */
export function fitText(text, width, font) {
  if (textWidth(text, font) <= width) return text;
  const room = width / font - charWidth('…');
  let em = 0;
  let out = '';
  for (const ch of text) {
    em += charWidth(ch);
    if (em > room) break;
    out += ch;
  }
  return `${out}…`;
}

const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\u3000-\u303f\uff00-\uffef]/u;

/**
 * Whether an upright label is written vertically rather than turned a quarter: a label with a
 * CJK character. Turned −90°, a Chinese character lies on its side; written vertical-rl (class
 * `cjk`, app.css and the export's rules) it stands upright, and Latin in it turns clockwise.
 */
export const writesVertically = (text) => CJK.test(text);
