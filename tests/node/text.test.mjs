// web/src/views/text.js: labels cut with "…" to the room a drawing has for them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitText, textWidth } from '../../web/src/views/text.js';

test('fitText keeps text that fits and cuts the rest to fit, Latin and Chinese', () => {
  assert.equal(fitText('dog', 40, 11), 'dog');
  for (const [text, room] of [
    ['internationalization', 60],
    ['清华大学读书', 40],
    ['mixed清华text', 50],
  ]) {
    const cut = fitText(text, room, 11);
    assert.ok(cut.endsWith('…') && cut.length < text.length, cut);
    assert.ok(text.startsWith(cut.slice(0, -1)), `${cut} is the start of ${text}`);
    assert.ok(textWidth(cut, 11) <= room, `${cut}: ${textWidth(cut, 11)} px in ${room} px`);
    // One character more (and the "…") would not have fitted.
    assert.ok(textWidth(`${text.slice(0, cut.length)}…`, 11) > room, `${cut} is as long as fits`);
  }
  // Wide characters count a whole em: four CJK characters are as wide as about 6.5 Latin ones.
  assert.equal(textWidth('清华大学', 10), 40);
  assert.equal(textWidth('abcd', 10), 24.8);
});

test('fitText cuts a 200,000-character token in one pass', () => {
  const token = 'x'.repeat(200000);
  const cut = fitText(token, 100, 12);
  assert.equal(cut, `${'x'.repeat(11)}…`);
});
