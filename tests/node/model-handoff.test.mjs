// The model handoff's pure parts (web/src/model-handoff.js), without a browser: the id a link
// carries and the values refused as one, what a stored record that is no model's is said to be,
// the name a page shows, and the explorer's sentences about a handed-over model in both
// languages. The IndexedDB store itself (keeping five, deleting malformed records, the bytes that
// reach the explorer) is proved in the browser: tests/e2e/handoff.test.mjs and playground.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  displayName,
  handoffId,
  LOCAL_PREFIX,
  MAX_NAME_CHARS,
  modelLink,
  recordFault,
} from '../../web/src/model-handoff.js';
import { defaultState, stateFromURL } from '../../web/src/state.js';
import { strings } from '../../web/src/i18n.js';
import { VIEW_KEYS } from '../../web/src/views/registry.js';

const ID = 'a1b2c3d4e5f6a7b8c9';

test('a model link carries its id and the other parameters; only local:<18 hex digits> is an id', () => {
  const link = modelLink('index.html', ID, { lang: 'zh', s: '1 2 3' });
  assert.match(link, /^index\.html\?/);
  const params = new URL(link, 'http://host/').searchParams;
  assert.equal(params.get('lang'), 'zh');
  assert.equal(params.get('s'), '1 2 3');
  assert.equal(handoffId(params.get('model')), ID, 'the receiver reads back the id it was handed');
  for (const value of [
    'local:../x',
    'local:',
    'tang',
    `local:${ID}0`,
    `local:${ID.toUpperCase()}`,
    `${LOCAL_PREFIX}${ID.slice(1)}`,
    '__proto__',
    'toString',
    null,
    undefined,
    42,
  ]) {
    assert.equal(handoffId(value), null, String(value));
  }
});

test('a model value that is no id is an ignored link value of the explorer: random weights stay', () => {
  // The explorer reads `model` as a link value unless it is a handed-over id (web/src/main.js).
  const base = defaultState('en');
  for (const value of ['local:../x', 'local:', '__proto__', 'toString']) {
    assert.equal(handoffId(value), null, value);
    const { state, notices } = stateFromURL(`?model=${encodeURIComponent(value)}&lang=en`, base, VIEW_KEYS);
    assert.equal(state.model, 'random', value);
    assert.deepEqual(notices, [`model=${value}`], value);
  }
  assert.equal(
    strings('en').ignoredURL('model=toString'),
    'Ignored link values (defaults used instead): model=toString',
  );
});

test('a stored record that is no model’s is named by the field at fault and what it holds', () => {
  const bytes = new Uint8Array([1, 2, 3]);
  assert.equal(recordFault({ bytes, savedAt: 1 }), null, 'a model');
  assert.equal(recordFault({ bytes, savedAt: 1, name: { a: 1 } }), null, 'a name is no part of the check');
  const cases = [
    [null, 'record', 'the handed-over record is null, not an object'],
    [42, 'record', 'the handed-over record is a number, not an object'],
    ['a string', 'record', 'the handed-over record is a string, not an object'],
    [undefined, 'record', 'the handed-over record is missing, not an object'],
    [{ bytes: new ArrayBuffer(2), savedAt: 1 }, 'bytes', 'its bytes are an ArrayBuffer, not a Uint8Array'],
    [{ bytes: [1, 2, 3], savedAt: 2 }, 'bytes', 'its bytes are an Array, not a Uint8Array'],
    [{ savedAt: 3 }, 'bytes', 'its bytes are missing, not a Uint8Array'],
    [{ bytes, savedAt: 'yesterday' }, 'savedAt', 'its savedAt is a string, not a finite number'],
    [{ bytes, savedAt: Infinity }, 'savedAt', 'its savedAt is a number, not a finite number'],
  ];
  for (const [record, field, message] of cases) {
    const error = recordFault(record);
    assert.equal(error.name, 'HandoffError');
    assert.equal(error.code, 'MALFORMED_HANDOFF');
    assert.equal(error.field, field, message);
    assert.equal(error.message, message);
  }
});

test('the name a page shows: a string cut to MAX_NAME_CHARS code points with "…", "model" for anything else', () => {
  assert.equal(displayName('copy.model'), 'copy.model');
  for (const odd of [{ a: 1 }, 42, null, undefined, '']) assert.equal(displayName(odd), 'model', String(odd));
  const long = displayName('x'.repeat(1 << 20));
  assert.equal(long, `${'x'.repeat(MAX_NAME_CHARS - 1)}…`);
  assert.equal(displayName('x'.repeat(MAX_NAME_CHARS)), 'x'.repeat(MAX_NAME_CHARS), 'exactly the limit stays whole');
  // Code points, not UTF-16 units: an emoji is never cut in half.
  const emoji = displayName('😀'.repeat(MAX_NAME_CHARS + 5));
  assert.equal(Array.from(emoji).length, MAX_NAME_CHARS);
  assert.equal(emoji, `${'😀'.repeat(MAX_NAME_CHARS - 1)}…`);
});

test('the explorer says what it found of a handed-over model, in both languages', () => {
  const en = strings('en');
  const zh = strings('zh');
  const damaged = recordFault({ bytes: new ArrayBuffer(2), savedAt: 1 });
  assert.equal(
    en.modelDamaged(damaged.field, damaged.message),
    'The model handed over from the playground is in this browser, but its record is damaged (its bytes are an ArrayBuffer, not a Uint8Array): train it again or open its file.',
  );
  // 中文: the field alone names what is damaged (the detail is the engine's English).
  assert.equal(
    zh.modelDamaged(damaged.field, damaged.message),
    '训练场交来的模型还在此浏览器中，但它的记录已损坏（bytes 不对）：请重新训练，或打开它的模型文件。',
  );
  assert.match(en.modelGone, /no longer in this browser/);
  assert.doesNotMatch(zh.modelGone, /[A-Za-z]/);
  assert.match(en.handoffFailed('blocked'), /could not be read \(blocked\)/);
  assert.match(zh.handoffFailed('blocked'), /^无法读取训练场交来的模型（blocked）/);
  // A damaged record is never said to be gone.
  assert.doesNotMatch(en.modelDamaged('record', 'x'), /no longer/);
});
