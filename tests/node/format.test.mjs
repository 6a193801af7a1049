// The page's one number formatter (web/src/format.js) against JavaScript's own rounding:
// tooltips keep 4 significant digits, cells are never blank and never read as zero.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatShort, formatValue } from '../../web/src/format.js';

// Seeded values over 12 decades, both signs (a small LCG: deterministic, no Math.random).
function values(count = 2000) {
  let state = 12345;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => (next() < 0.5 ? -1 : 1) * 10 ** (next() * 12 - 6) * (1 + next()));
}
const parse = (text) => Number(text.replace(/−/g, '-'));

test('formatValue: 4 significant digits, the value toPrecision(4) gives; a true minus, no "+"', () => {
  for (const v of values()) {
    const text = formatValue(v);
    assert.doesNotMatch(text, /[-+]/, text);
    assert.equal(parse(text), Number(v.toPrecision(4)), `${v} → ${text}`);
  }
  assert.equal(formatValue(-Infinity), '−∞');
  assert.equal(formatValue(0), '0');
  assert.equal(formatValue(0.1234567), '0.1235');
  assert.equal(formatValue(-0.00012345678), '−1.235e−4');
});

test('formatShort: 3 significant digits', () => {
  for (const v of values()) assert.equal(parse(formatShort(v)), Number(v.toPrecision(3)), `${v}`);
});

// formatFit (a cell's number: two significant digits, "<.01", no exponent) is tested in
// number-format.test.mjs.
