// Tokens that draw as nothing get a visible label (web/src/visible-token.js): a zero-width
// joiner flood trained at character level labelled every other heatmap row with nothing, and a
// lone combining mark joined the label beside it. One rule for the explorer's chips, the model
// panel and the playground's heatmap labels and readouts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { visibleToken } from '../../web/src/visible-token.js';
import { visible } from '../../web/src/models/paint.js';

test('white space, controls, joiners and lone marks are shown; other tokens are themselves', () => {
  const cases = [
    ['\n', '↵'],
    [' ', '␣'],
    ['\t', '⇥'],
    ['\u0007', '␇'],
    ['\u0000', '␀'],
    ['\u007f', '␡'],
    ['a\u0007b', 'a␇b'],
    ['line\nbreak', 'line↵break'],
    ['\u200d', 'U+200D'],
    ['\u200c\u200d', 'U+200C U+200D'],
    ['\ufeff', 'U+FEFF'],
    ['\ufe0f', 'U+FE0F'],
    ['\u0301', '◌\u0301'],
    ['\u0301\u0301', '◌\u0301\u0301'],
    ['a\u0301', 'a\u0301'],
    ['👨\u200d👩', '👨\u200d👩'],
    ['猫', '猫'],
    ['<unk>', '<unk>'],
    ['  ', '  '],
  ];
  for (const [token, shown] of cases) {
    assert.equal(visibleToken(token), shown, JSON.stringify(token));
    assert.equal(visible(token), shown, `paint.js: ${JSON.stringify(token)}`);
  }
});
