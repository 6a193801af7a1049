// Every number the page prints goes through here: cells, tooltips, bar values, legends,
// arithmetic. One rule set so that the same value reads the same everywhere:
// - tooltips and the arithmetic panel: 4 significant digits (formatValue);
// - labels and ticks: 3 significant digits (formatShort);
// - cells: two significant digits, else one where two do not fit (zeros kept), "<.01" for
//   a value under 0.01, thousands as "4.2k"; never an exponent, which is wider than a cell
//   and runs into the next one (never blank either, which would read as zero);
// - a true minus sign (−), ±∞ for masked scores, exponents as "e−4" with no "+".
import { format } from 'd3-format';

const MINUS = '−';

// d3's format() parses its specifier on every call: a grid of cells asked for ~10 per cell.
const formats = new Map();
function formatOf(specifier) {
  if (!formats.has(specifier)) formats.set(specifier, format(specifier));
  return formats.get(specifier);
}
const fixed = (digits) => formatOf(`.${digits}~r`);
const kept = (digits) => formatOf(`.${digits}r`);
const exponent = (digits) => formatOf(`.${Math.max(0, digits - 1)}~e`);

/** d3's text with a true minus and no "+" in exponents: "-4.2e-5" → "−4.2e−5", "1e+3" → "1e3". */
function clean(text) {
  return text.replace(/-/g, MINUS).replace('e+', 'e');
}

function special(v) {
  if (v === -Infinity) return `${MINUS}∞`;
  if (v === Infinity) return '∞';
  if (Number.isNaN(v)) return 'NaN';
  if (v === 0) return '0';
  return null;
}

/** `digits` significant digits; an exponent below 1e−3 or from 1e4 (1e5 for 4 digits). */
function significant(v, digits) {
  const s = special(v);
  if (s !== null) return s;
  const a = Math.abs(v);
  const big = digits >= 4 ? 1e5 : 1e4;
  return clean(a >= big || a < 1e-3 ? exponent(digits)(v) : fixed(digits)(v));
}

/** Tooltips and the arithmetic panel: 4 significant digits ("0.1235", "−1.235e−4"). */
export function formatValue(v) {
  return significant(v, 4);
}

/** Labels, ticks and table cells: 3 significant digits. */
export function formatShort(v) {
  return significant(v, 3);
}

// How wide each character a cell may print is, in widths of a (tabular) digit: DejaVu Sans,
// the widest of the page's fonts (system-ui on Linux; Segoe UI and San Francisco are narrower).
// The minus, "<" and "≈" are a third wider than a digit: counting them as one character let
// "−.37" and "6e−3" overflow their cells, and a row of them ran together ("6e−35e−3").
const GLYPH_WIDTH = { '.': 0.5, '−': 1.32, '<': 1.32, '>': 1.32, '≈': 1.32, '∞': 1.32, k: 0.91, M: 1.36, e: 0.97 };

/** The width of `text` in digit widths (a digit is 1): what formatFit fits into a cell. */
export function digitWidths(text) {
  let width = 0;
  for (const c of text) width += GLYPH_WIDTH[c] ?? 1;
  return Math.round(width * 100) / 100; // "−.42" is 3.82, not 3.8200000000000003
}

// Below this, a cell says "<.01": two significant digits of 0.0042 (".0042") read as noise on a
// teaching figure, and an exponent ("4.2e−3") is wider than any cell.
const SMALL = 0.01;

/** `v` with `digits` significant digits and no exponent, its leading "0." cut: ".42", "−4.2", "420". */
function plain(v, digits) {
  return clean(kept(digits)(v)).replace(/^(−?)0\./, '$1.');
}

/** `v` with `digits` significant digits and a k (thousand) or M (million) suffix: "4.2k", "−12M". */
function suffixed(v, digits) {
  const [unit, div] = Math.abs(v) >= 999500 ? ['M', 1e6] : ['k', 1e3];
  return `${plain(v / div, digits)}${unit}`;
}

/**
 * A cell's number in at most `room` digit widths (digitWidths: a minus is 1.32, a point 0.5), or
 * "…" when not even one digit fits. Two significant digits, else one (zeros kept: "1.0" says
 * two digits): ".42", "−.42", "4.2", "−12", "420", "4.2k"; a value under 0.01 is "<.01" (">−.01"
 * below zero), else "≈0" where that is too wide. Never an exponent before 10¹²: in a grid, an
 * exponent is wider than its cell and runs into the next ("6e−35e−3").
 */
export function formatFit(v, room) {
  const s = special(v);
  if (s !== null) return digitWidths(s) <= room ? s : '…';
  const a = Math.abs(v);
  const fits = (text) => digitWidths(text) <= room;
  if (Number(a.toPrecision(2)) < SMALL) {
    const small = v > 0 ? '<.01' : '>−.01';
    if (fits(small)) return small;
    return fits('≈0') ? '≈0' : '…';
  }
  // Candidates in order, made only until one fits (a cell's text is written on every keystroke).
  const candidates = [];
  if (Number(a.toPrecision(2)) < 1e4)
    candidates.push(
      () => plain(v, 2),
      () => plain(v, 1),
    );
  // From 100 where the plain number is too wide ("−.4k" where "−420" is not).
  if (a >= 99.5 && a < 1e12)
    candidates.push(
      () => suffixed(v, 2),
      () => suffixed(v, 1),
    );
  if (a >= 1e12) candidates.push(() => clean(exponent(1)(v)));
  for (const make of candidates) {
    const text = make();
    if (fits(text)) return text;
  }
  // A small value whose one digit does not fit (−0.04 in three widths): about zero, not a blank.
  if (a < 0.05 && fits('≈0')) return '≈0';
  return '…';
}

// One formatter per locale: building one loads locale data (about 10 ms on the page's first frame).
const countFormats = new Map();

/** Counts with the locale's grouping: 1,050,624. */
export function formatCount(n, lang) {
  const locale = lang === 'zh' ? 'zh-CN' : 'en-US';
  if (!countFormats.has(locale)) countFormats.set(locale, new Intl.NumberFormat(locale));
  return countFormats.get(locale).format(n);
}
