// The page's own checks of "Your text" (web/src/playground/text-checks.js), which run before a
// text reaches the text box or the worker: the UTF-8 size of a paste counted without encoding
// it, a typed text's lone surrogate or NUL named by its character (the engine counted UTF-16
// units or bytes, and said "the file"), and a file's first bytes judged as text or not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { looksLikeText, typedTextFault, utf8Length } from '../../web/src/playground/text-checks.js';
import { strings } from '../../web/src/playground/i18n.js';

test('utf8Length is TextEncoder’s length, lone surrogates counted as U+FFFD; it stops past the limit', () => {
  const samples = [
    '',
    'abc',
    'é',
    '猫',
    '😀',
    'a😀b猫é',
    '\ud800',
    'x\udc00y',
    '\ud83d\ude00\ud83d',
    '\u200d'.repeat(7),
  ];
  for (const text of samples)
    assert.equal(utf8Length(text), new TextEncoder().encode(text).length, JSON.stringify(text));
  const long = '猫'.repeat(1000);
  assert.equal(utf8Length(long), 3000);
  const stopped = utf8Length(long, 10);
  assert.ok(stopped > 10 && stopped < 20, `${stopped}`);
  // 16 MiB + 1 byte is past 16 MiB, counted quickly.
  const big = 'a'.repeat(16 * 2 ** 20 + 1);
  const t0 = performance.now();
  assert.equal(utf8Length(big, 16 * 2 ** 20), 16 * 2 ** 20 + 1);
  assert.ok(performance.now() - t0 < 1000);
});

test('a typed lone surrogate or NUL is named by its character, from 1, in both languages', () => {
  assert.equal(typedTextFault('good text 😀 猫'), null);
  assert.deepEqual(typedTextFault('abcd\ud800efg'), { kind: 'textRefused', args: ['surrogate', [5]] });
  // A pair before it is one character.
  assert.deepEqual(typedTextFault('😀x\udc00'), { kind: 'textRefused', args: ['surrogate', [3]] });
  assert.deepEqual(typedTextFault('ab\0cd'), { kind: 'textRefused', args: ['nulText', [3]] });
  const en = strings('en').textRefused('surrogate', [5]);
  assert.equal(
    en,
    'The text has an unpaired surrogate at character 5 (half of a UTF-16 pair, not a character): delete it and try again.',
  );
  assert.doesNotMatch(en, /file|byte/);
  assert.match(strings('zh').textRefused('surrogate', [5]), /第 5 个字符/);
  assert.equal(
    strings('en').textRefused('nulText', [3]),
    'The text has a NUL character (U+0000) at character 3: delete it and try again.',
  );
  assert.match(strings('zh').textRefused('nulText', [3]), /第 3 个字符.*NUL/);
});

test("a file's first bytes: text, or binary / not UTF-8 (sent unshown, the engine names the byte)", () => {
  const utf8 = (s) => new TextEncoder().encode(s);
  assert.equal(looksLikeText(utf8('床前明月光\nthe cat\tsat\r\n')), true);
  // A prefix cut inside a character is still text.
  assert.equal(looksLikeText(utf8('abc猫').subarray(0, 5)), true);
  assert.equal(looksLikeText(Uint8Array.from([0x61, 0x00, 0x62])), false);
  assert.equal(looksLikeText(Uint8Array.from([0x61, 0xc3, 0x28])), false);
  const binary = Uint8Array.from({ length: 4096 }, (_, i) => ((i * 2654435761) >>> 24) | 1);
  assert.equal(looksLikeText(binary), false);
  // 1% of control characters is the engine's limit.
  assert.equal(looksLikeText(utf8(`${'a'.repeat(99)}\x07`)), true);
  assert.equal(looksLikeText(utf8(`${'a'.repeat(98)}\x07\x07`)), false);
});
