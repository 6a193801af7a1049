// A cell's number (web/src/format.js formatFit): two significant digits, "<.01" for what is
// smaller, never an exponent (in a grid it ran into the next cell: "6e−35e−3"), never "…"
// where a cell has the room of a minus and two digits, and never wider than its room,
// counted in digit widths with a minus a third wider than a digit (counted as one character,
// "−.37" overflowed its cell).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { digitWidths, formatFit } from '../../web/src/format.js';
import { NUMBER_ROOM } from '../../web/src/views/matrix.js';

// Seeded values over 16 decades, both signs (a small LCG: deterministic, no Math.random).
function values(count = 4000) {
  let state = 987654;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => (next() < 0.5 ? -1 : 1) * 10 ** (next() * 16 - 8) * (1 + next()));
}

// A cell's text back to a number: "−.42" → −0.42, "4.2k" → 4200; null for "<.01", "≈0" and "…".
function parse(text) {
  const m = /^(−?)(\d*\.?\d*)([kM]?)$/.exec(text);
  if (!m) return null;
  return (m[1] ? -1 : 1) * Number(m[2]) * { '': 1, k: 1e3, M: 1e6 }[m[3]];
}
// Significant digits shown: "1100" has two (its zeros place the point), "1.0" and ".010" two.
const significantDigits = (text) =>
  (text.includes('.') ? text : text.replace(/0+$/, '')).replace(/[^\d]/g, '').replace(/^0+/, '').length;

test('formatFit: two significant digits where they fit, the value rounded to them', () => {
  assert.equal(formatFit(0.4237, NUMBER_ROOM), '.42');
  assert.equal(formatFit(-0.4237, NUMBER_ROOM), '−.42');
  assert.equal(formatFit(-1.234, NUMBER_ROOM), '−1.2');
  assert.equal(formatFit(1, NUMBER_ROOM), '1.0');
  assert.equal(formatFit(-12.3, NUMBER_ROOM), '−12');
  assert.equal(formatFit(0.0423, NUMBER_ROOM), '.042');
  assert.equal(formatFit(1234, NUMBER_ROOM), '1.2k');
  assert.equal(formatFit(1234, 4), '1200');
  assert.equal(formatFit(-1234, NUMBER_ROOM), '−1k');
  assert.equal(formatFit(12345, NUMBER_ROOM), '12k');
  for (const v of values()) {
    const text = formatFit(v, 5);
    const shown = parse(text);
    if (shown === null) continue;
    const digits = significantDigits(text.replace(/[kM]$/, ''));
    assert.ok(digits <= 2, `${v} → "${text}": more than two significant digits`);
    // Within half a unit of the last digit shown.
    const scale = Math.abs(v) >= 1e6 ? 1e6 : Math.abs(v) >= 1e3 && /k$/.test(text) ? 1e3 : 1;
    const decimals = (text.replace(/[kM]$/, '').split('.')[1] ?? '').length;
    assert.ok(
      Math.abs(shown - v) <= 0.5 * 10 ** -decimals * scale * (1 + 1e-9) + Math.abs(v) * 0.051,
      `${v} → ${text}`,
    );
  }
});

test('formatFit: "<.01" for a value under 0.01, ">−.01" below zero, "≈0" where those are too wide', () => {
  assert.equal(formatFit(0.006, NUMBER_ROOM), '<.01');
  assert.equal(formatFit(4e-4, NUMBER_ROOM), '<.01');
  assert.equal(formatFit(-0.006, 6), '>−.01');
  assert.equal(formatFit(-0.006, NUMBER_ROOM), '≈0');
  assert.equal(formatFit(0.006, 3), '≈0');
  assert.equal(formatFit(0.00996, NUMBER_ROOM), '.010');
});

test('formatFit: no exponent below 10¹², no "…" in a cell of NUMBER_ROOM below ±1,000, never wider than the room', () => {
  for (const room of [2, 2.5, 2.9, 3.3, NUMBER_ROOM, 4.5, 6]) {
    for (const v of values()) {
      const text = formatFit(v, room);
      assert.ok(text.length > 0, `${v} in ${room}: blank`);
      if (text !== '…') assert.ok(digitWidths(text) <= room, `${v} in ${room}: "${text}" is wider than the cell`);
      if (Math.abs(v) < 1e12) assert.doesNotMatch(text, /e/, `${v} in ${room}: "${text}" has an exponent`);
      if (room >= NUMBER_ROOM && Math.abs(v) < 1e3) assert.notEqual(text, '…', `${v} in ${room}`);
      // Never a zero for a value that is not zero.
      if (parse(text) !== null) assert.notEqual(parse(text), 0, `${v} in ${room}: "${text}" reads as zero`);
    }
  }
  assert.equal(formatFit(-Infinity, NUMBER_ROOM), '−∞');
  assert.equal(formatFit(0, 1), '0');
});

test('digitWidths: a minus, "<" and "≈" are wider than a digit, a point narrower', () => {
  assert.equal(digitWidths('42'), 2);
  assert.ok(digitWidths('−.42') > 3.5 && digitWidths('−.42') <= NUMBER_ROOM);
  assert.ok(digitWidths('6e−3') > 4, 'an exponent is wider than NUMBER_ROOM');
});
