// A page's state in its link, for both pages (state.js, the explorer's; playground/state.js):
// each page declares its fields as rows, and this module reads and writes them. Imports
// only the engine's generated catalog (a leaf), so that a page's state module (and the server)
// loads no drawing code.
//
//   const ROWS = [{ key: 't', field: 'temperature', kind: decimal(TEMPERATURE) }, …];
//   const table = fieldTable(ROWS);                   // URL key → row, a Map
//   readQuery('?t=2&t=3&x=1', kindsOf(table))         // { values: Map t → 2, refused: [x=1], repeated: ['t'] }
//   writeQuery(state, ROWS, reference)                // 't=2': the fields that differ from `reference`
//
// A kind is { parse(text) → value or undefined (refused), format(value) → text or undefined (no
// link can carry it), optionally same(a, b) (an array's equality by content) } and, for numbers,
// its bounds { min, max }: a control reads them from the same object the link's parser checks.
import { LIMITS } from './catalog.js';

/** A seed: a whole number the engine's RandomState takes (uint32, Limits::kMaxSeed). */
export const SEED = Object.freeze({ min: 0, max: LIMITS.maxSeed });

// Numbers are read as written in decimal digits only: Number() would also take '', ' 42',
// '0x10', '1e3' and '4294967295.0', so a link could mean something other than it shows.
const DIGITS = /^[0-9]{1,10}$/;
const DECIMAL = /^([0-9]{1,6}|[0-9]{0,6}\.[0-9]{1,20})$/; // 2, 0.5, .5

/** A whole number in { min, max }. */
export function int({ min, max }) {
  return { min, max, parse: (text) => inRange(DIGITS.test(text) ? Number(text) : undefined, min, max), format: String };
}

/** A decimal number in { min, max }: digits with at most one point, no exponent or sign. */
export function decimal({ min, max }) {
  return {
    min,
    max,
    parse: (text) => inRange(DECIMAL.test(text) ? Number(text) : undefined, min, max),
    format: String,
  };
}

/** One of `values` (strings). */
export function oneOf(values) {
  return { values, parse: (text) => (values.includes(text) ? text : undefined), format: String };
}

/** One of `values` (numbers), written in decimal digits. */
export function oneOfNumbers(values) {
  const parse = (text) => (DIGITS.test(text) && values.includes(Number(text)) ? Number(text) : undefined);
  return { values, min: Math.min(...values), max: Math.max(...values), parse, format: String };
}

/**
 * A set of whole numbers in { min, max }, at most `count` of them, written ascending and
 * comma-separated ('0,5'; '' for none). The value is a sorted array; `same` compares two
 * values by content, as writeQuery needs for an array.
 */
export function intSet({ min, max, count }) {
  const one = int({ min, max });
  const parse = (text) => {
    if (text === '') return [];
    const parts = text.split(',');
    if (parts.length > count) return undefined;
    const values = parts.map(one.parse);
    if (values.includes(undefined)) return undefined;
    return [...new Set(values)].sort((a, b) => a - b);
  };
  const format = (values) => values.join(',');
  return { min, max, count, parse, format, same: (a, b) => format(a) === format(b) };
}

/** true or false, written 1 or 0. */
export const flag = Object.freeze({
  parse: (text) => (text === '1' ? true : text === '0' ? false : undefined),
  format: (value) => (value ? '1' : '0'),
});

/** Any text of at most `maxChars` UTF-16 units. */
export function text(maxChars) {
  return { maxChars, parse: (t) => (t.length <= maxChars ? t : undefined), format: String };
}

/** A 0-based index written from 1 (layer=1 is layer 0), within `kind`'s bounds as written. */
export function oneBased(kind) {
  return {
    min: kind.min,
    max: kind.max,
    parse: (t) => (kind.parse(t) === undefined ? undefined : kind.parse(t) - 1),
    format: (v) => kind.format(v + 1),
  };
}

/** Whether `value` is a whole number within a kind's (or bounds') { min, max }. */
export const isWholeIn = ({ min, max }, value) => Number.isInteger(value) && value >= min && value <= max;

const inRange = (v, min, max) => (v !== undefined && v >= min && v <= max ? v : undefined);

/**
 * The rows as a Map from URL key: a key from a link such as `toString` or `__proto__` must find
 * nothing, not a member every object inherits. Two rows with one key are a mistake in the table.
 */
export function fieldTable(rows) {
  const table = new Map();
  for (const row of rows) {
    if (table.has(row.key)) throw new Error(`url-fields: the key ${row.key} has two rows`);
    table.set(row.key, row);
  }
  return table;
}

/** URL key → kind, for readQuery, from a fieldTable. */
export const kindsOf = (table) => new Map([...table].map(([key, row]) => [key, row.kind]));

/**
 * Reads a query string against `kinds` (a Map: URL key → kind; no other key is allowed):
 * { values: Map key → value, refused: [{ key, text }], repeated: [key] }. A key given more than
 * once counts once, at its first value (docs/embedding.md): a bad first value leaves the key
 * out and a later good one is not used; `repeated` names such keys once each, and every bad
 * value is refused, a later one's too, so that a notice names every bad value of a link.
 */
export function readQuery(search, kinds) {
  const values = new Map();
  const refused = [];
  const repeated = [];
  const seen = new Set();
  for (const [key, t] of new URLSearchParams(search)) {
    const first = !seen.has(key);
    seen.add(key);
    if (!first && !repeated.includes(key)) repeated.push(key);
    const value = kinds.get(key)?.parse(t);
    if (value === undefined) refused.push({ key, text: t });
    else if (first) values.set(key, value);
  }
  return { values, refused, repeated };
}

/**
 * The query string of `state` (without '?'): in the rows' order, each row's field that differs
 * from `reference` (a row with `always` even when it does not), skipping a row whose `when(state)`
 * is false and a value its kind cannot write.
 */
export function writeQuery(state, rows, reference) {
  const params = new URLSearchParams();
  for (const { key, field, kind, always = false, when } of rows) {
    if (when && !when(state)) continue;
    const same = kind.same ?? ((a, b) => a === b);
    if (!always && same(state[field], reference[field])) continue;
    const t = kind.format(state[field]);
    if (t !== undefined) params.set(key, t);
  }
  return params.toString();
}

/** A link's key or value can be kilobytes long: a notice names it in `max` characters. */
export function clip(t, max) {
  if (t.length <= max) return t;
  return `${t.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, '')}…`; // never half a surrogate pair
}

/** `list` clipped to `max` characters each, each distinct text once, in order. */
export const clippedOnce = (list, max) => [...new Set(list.map((t) => clip(t, max)))];
