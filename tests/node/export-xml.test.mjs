// An exported figure is well-formed XML whatever the text: XML 1.0 forbids C0 controls (but tab
// and line breaks), U+FFFE/U+FFFF and lone surrogates, even as character references, and a
// token holding a typed U+0007 made an SVG that no viewer opens. xmlSafe shows a control by its
// control picture (␇) and the rest as U+FFFD; the browser test (tests/e2e/hostile-text.test.mjs)
// parses the page's own export with a strict XML parser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { xmlSafe } from '../../web/src/explorer/export.js';

/** The characters XML 1.0 allows (its Char production), for every UTF-16 unit of `text`. */
function wellFormedChars(text) {
  for (const ch of text) {
    const c = ch.codePointAt(0);
    const ok =
      c === 0x9 ||
      c === 0xa ||
      c === 0xd ||
      (c >= 0x20 && c <= 0xd7ff) ||
      (c >= 0xe000 && c <= 0xfffd) ||
      (c >= 0x10000 && c <= 0x10ffff);
    if (!ok) return `U+${c.toString(16).padStart(4, '0')}`;
  }
  const reference = /&#(x[0-9a-f]+|[0-9]+);/gi.exec(text);
  if (reference) {
    const [, r] = reference;
    const c = r[0].toLowerCase() === 'x' ? parseInt(r.slice(1), 16) : Number(r);
    if (c < 0x20 && ![9, 10, 13].includes(c)) return reference[0];
  }
  return null;
}

test('every C0 control becomes its control picture; tab and line breaks stay', () => {
  const all = Array.from({ length: 32 }, (_, c) => String.fromCharCode(c)).join('');
  const safe = xmlSafe(`<text>${all}</text>`);
  assert.equal(wellFormedChars(safe), null);
  assert.equal(safe, `<text>␀␁␂␃␄␅␆␇␈\t\n␋␌\r␎␏␐␑␒␓␔␕␖␗␘␙␚␛␜␝␞␟</text>`);
});

test('references to controls, U+FFFE, U+FFFF and lone surrogates are replaced; good text is kept', () => {
  assert.equal(xmlSafe('a&#7;b&#x1B;c&#x0b;d&#12;'), 'a␇b␛c␋d␌');
  assert.equal(xmlSafe('&#9;&#10;&#xA;&#13;&#32;&#x20;'), '&#9;&#10;&#xA;&#13;&#32;&#x20;');
  assert.equal(xmlSafe('x\uFFFEy\uFFFFz'), 'x\uFFFDy\uFFFDz');
  assert.equal(xmlSafe('a\uD800b\uDC00c'), 'a\uFFFDb\uFFFDc');
  assert.equal(xmlSafe('猫 😀 &amp; &lt;t&gt; ‍'), '猫 😀 &amp; &lt;t&gt; ‍');
  for (const text of ['\u0007', 'a\uD83D', '&#x7;', '\uDE00x'])
    assert.equal(wellFormedChars(xmlSafe(text)), null, text);
});
