// The link helper both pages read and write their state with (web/src/url-fields.js): a field
// row's kind parses, bounds and writes its value; the first value of a repeated key wins; a long
// key is clipped for a notice; and each page's rows (web/src/state.js, playground/state.js)
// round-trip every field a link can carry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clip,
  decimal,
  fieldTable,
  flag,
  int,
  oneBased,
  oneOf,
  oneOfNumbers,
  readQuery,
  SEED,
  text,
  writeQuery,
} from '../../web/src/url-fields.js';
import * as explorer from '../../web/src/state.js';
import * as playground from '../../web/src/playground/state.js';
import { VIEW_KEYS } from '../../web/src/views/registry.js';

test('int(bounds) takes decimal digits within its bounds only', () => {
  const k = int({ min: 1, max: 16 });
  assert.deepEqual(['1', '16', '007'].map(k.parse), [1, 16, 7]);
  for (const t of ['0', '17', '', ' 4', '+4', '4.0', '1e1', '0x4', '-1', '12345678901'])
    assert.equal(k.parse(t), undefined, t);
  assert.deepEqual([k.min, k.max, k.format(12)], [1, 16, '12']);
  assert.equal(int(SEED).parse('4294967295'), 4294967295);
  assert.equal(int(SEED).parse('4294967296'), undefined);
});

test('decimal(bounds) takes a point but no exponent, sign or empty text', () => {
  const k = decimal({ min: 0.05, max: 20 });
  assert.deepEqual(['.5', '0.05', '20', '1.25'].map(k.parse), [0.5, 0.05, 20, 1.25]);
  for (const t of ['0.04', '20.01', '2e0', '-1', '', '1.', '.']) assert.equal(k.parse(t), undefined, t);
});

test('oneOf, oneOfNumbers, flag, text and oneBased parse and write back', () => {
  assert.equal(oneOf(['a', 'b']).parse('b'), 'b');
  assert.equal(oneOf(['a', 'b']).parse('toString'), undefined);
  const d = oneOfNumbers([16, 32]);
  assert.deepEqual([d.parse('32'), d.parse('0016'), d.parse('24'), d.parse('32.0')], [32, 16, undefined, undefined]);
  assert.deepEqual([d.min, d.max], [16, 32]);
  assert.deepEqual(['1', '0', 'true', ''].map(flag.parse), [true, false, undefined, undefined]);
  assert.deepEqual([flag.format(true), flag.format(false)], ['1', '0']);
  assert.deepEqual([text(3).parse('abc'), text(3).parse('abcd')], ['abc', undefined]);
  const layer = oneBased(int({ min: 1, max: 64 }));
  assert.deepEqual([layer.parse('1'), layer.parse('0'), layer.format(0)], [0, undefined, '1']);
});

test('readQuery keeps a repeated key’s first value and names it once, refusing every bad value', () => {
  const kinds = new Map([
    ['h', int({ min: 1, max: 4 })],
    ['s', text(10)],
  ]);
  const { values, refused, repeated } = readQuery('?h=9&h=2&s=a&s=b&s=c&toString=1', kinds);
  assert.deepEqual([...values], [['s', 'a']], 'a bad first value leaves the key out; a later good one is not used');
  assert.deepEqual(refused, [
    { key: 'h', text: '9' },
    { key: 'toString', text: '1' },
  ]);
  assert.deepEqual(repeated, ['h', 's']);
});

test('writeQuery writes what differs from the reference, always rows, and only when a row applies', () => {
  const rows = [
    { key: 'a', field: 'a', kind: int({ min: 0, max: 9 }), always: true },
    { key: 'b', field: 'b', kind: flag },
    { key: 'c', field: 'c', kind: text(5), when: (s) => s.b },
    { key: 'm', field: 'm', kind: { parse: String, format: () => undefined } },
  ];
  const reference = { a: 1, b: false, c: '', m: 'x' };
  assert.equal(writeQuery(reference, rows, reference), 'a=1');
  assert.equal(
    writeQuery({ a: 1, b: false, c: 'hi', m: 'y' }, rows, reference),
    'a=1',
    'c needs b; m cannot be written',
  );
  assert.equal(writeQuery({ a: 2, b: true, c: 'hi', m: 'x' }, rows, reference), 'a=2&b=1&c=hi');
  assert.throws(() => fieldTable([rows[0], rows[0]]), /the key a has two rows/);
});

test('clip names a long key in a few characters, never half a surrogate pair', () => {
  assert.equal(clip('abc', 5), 'abc');
  assert.equal(clip('abcdefgh', 5), 'abcd…');
  assert.equal(clip(`a${'😀'.repeat(5)}`, 3), 'a…');
});

test('the explorer’s link round-trips every field it writes', () => {
  const base = explorer.defaultState('en');
  const changed = {
    ...base,
    sentence: 'a b c',
    kv: 'd e',
    tokenization: 'chars',
    dModel: 16,
    heads: 4,
    seed: 4294967295,
    mask: 'bigbird',
    window: 3,
    global: [0, 2],
    dilation: 3,
    block: 2,
    random: 0,
    maskSeed: 7,
    scale: false,
    temperature: 0.5,
    positionalEncoding: false,
    init: 'randn',
    step: 3,
    view: 'heatmap',
    head: 1,
    query: 2,
    lang: 'zh',
  };
  const query = explorer.stateToURL(changed, base);
  const back = explorer.stateFromURL(query, base, VIEW_KEYS);
  assert.deepEqual(back.notices, []);
  assert.deepEqual(back.state, explorer.constrain(changed), query);
  assert.match(query, /t=0\.5/);
});

test('the playground’s link round-trips every field, the √d_k run (dk=1) too', () => {
  const base = playground.defaultState('en');
  const task = {
    ...playground.taskDefaults('induction', base),
    layers: 3,
    heads: 1,
    dModel: 64,
    scale: false,
    learningRate: 0.003,
    batchSize: 16,
    seed: 7,
    example: '5 12 40',
    lang: 'zh',
    experiment: true,
    dkSetting: 'textbook', // not the first setting, the default
    dkSeed: 3,
  };
  const query = playground.queryOf(task);
  assert.match(query, /(^|&)dk=1(&|$)/, query);
  const back = playground.stateFromURL(query, base);
  assert.deepEqual(back.notices, []);
  assert.deepEqual(back.state, task, query);
  // Your text: its source, level and short text.
  const own = { ...playground.taskDefaults('text', base), source: 'own', level: 'word', text: 'one two three' };
  assert.deepEqual(playground.stateFromURL(playground.queryOf(own), base).state, own);
});

test('the playground store’s own fields are no link field, and changing only them writes no link', async () => {
  const { createPageStore, touchesLink, UI_FIELDS } = await import('../../web/src/playground/page-store.js');
  const base = playground.defaultState('en');
  assert.deepEqual(
    UI_FIELDS.filter((field) => Object.hasOwn(base, field)),
    [],
  );
  const store = createPageStore(base);
  const seen = [];
  store.subscribe((state, changed) => seen.push(touchesLink(changed)));
  store.set({ playing: true, status: { step: 3, rate: null } });
  store.set({ layers: 3 });
  store.set({ heatmapPage: 1, seed: 9 });
  assert.deepEqual(seen, [false, true, true]);
  assert.equal(
    playground.queryOf(store.get()),
    'task=sort&L=3&seed=9&lang=en',
    'the link ignores the page’s own fields',
  );
});

test('every playground control is a link field with a label in both languages', async () => {
  const { strings } = await import('../../web/src/playground/i18n.js');
  const base = playground.defaultState('en');
  for (const { field, values, control } of playground.KNOB_CONTROLS) {
    for (const lang of ['en', 'zh']) assert.equal(typeof strings(lang)[field], 'string', `${field} in ${lang}`);
    const other = values ? values.find((v) => v !== base[field]) : control === 'check' ? !base[field] : base[field] + 1;
    const back = playground.stateFromURL(playground.queryOf({ ...base, [field]: other }), base).state;
    assert.equal(back[field], other, `${field} round-trips through the link`);
  }
});
