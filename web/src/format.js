// Every number the page prints goes through here: cells, tooltips, bar values, legends,
// arithmetic. One rule set so that the same value reads the same everywhere:
// - tooltips and the arithmetic panel: 4 significant digits (formatValue);
// - labels and ticks: 3 significant digits (formatShort);
// - cells: as many significant digits as fit (3, 2 or 1, zeros kept), else a compact
//   exponent, else "…" (never blank, which would read as zero);
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

/**
 * A cell's text in at most `chars` characters: 3, 2 or 1 significant digits (leading "0."
 * dropped: ".25"), then a one-digit exponent ("4e−4"), else "≈0" for a small value and "…"
 * for a large one (hover gives the value).
 */
export function formatFit(v, chars) {
  const s = special(v);
  if (s !== null) return [...s].length <= chars ? s : '…';
  const a = Math.abs(v);
  // Candidates in order, made only until one fits (a cell's text is written on every keystroke).
  // Zeros kept ("−1.0", not "−1"): a cell's text says how many digits it shows.
  const formats = a >= 0.01 && a < 1e4 ? [kept(3), kept(2), kept(1), formatOf('.2f'), formatOf('.1f')] : [];
  const leadingZero = formats.length;
  for (const [k, f] of [...formats, exponent(2), exponent(1)].entries()) {
    // −0.06 in three characters: one decimal, "−.1" (a rounding to "0" is refused here).
    const text = k < leadingZero ? clean(f(v)).replace(/^(−?)0\./, '$1.') : clean(f(v));
    if ([...text].length <= chars && !/^−?\.?0*$/.test(text)) return text;
  }
  // Too small to print in this cell: say "about zero" rather than leave a blank or a 0.
  if (a < 0.05 && chars >= 2) return '≈0';
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
