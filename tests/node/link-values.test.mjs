// What a link or an attribute may say, checked on the parsers the pages use (web/src/state.js
// stateFromURL and parseField, web/src/attributes.js stateFromAttributes): hostile keys find
// nothing, a refused value is named in a few words, seeds are whole decimal numbers 0 … 2³²−1
// and every number is decimal digits. The pages' own use of them (the notice shown, the seed
// box marked invalid, a component's live attribute) is in tests/e2e/links.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultState, parseField, stateFromURL } from '../../web/src/state.js';
import { stateFromAttributes } from '../../web/src/attributes.js';
import { VIEW_KEYS } from '../../web/src/views/registry.js';

// Names every plain object inherits: looked up in a table that is not own-property only, each
// one finds a function instead of "no such field".
const INHERITED = ['toString', 'constructor', '__proto__', 'valueOf', 'hasOwnProperty'];
const base = defaultState('en');

/** Something with getAttribute, as stateFromAttributes reads an element. */
const element = (attributes) => ({
  getAttribute: (name) => (Object.hasOwn(attributes, name) ? attributes[name] : null),
});

test('a link whose key or value is an inherited name keeps the defaults and names each value', () => {
  for (const name of INHERITED) {
    const queries = [`${name}=1`, `lang=${name}`, `view=${name}`, `step=${name}`];
    const { state, notices, repeated } = stateFromURL(`?${queries.join('&')}`, base, VIEW_KEYS);
    assert.deepEqual(notices, queries, name);
    assert.deepEqual(repeated, [], name);
    assert.deepEqual(state, base, name);
  }
  // The page's own keys still work beside an inherited one.
  const { state, notices } = stateFromURL('?toString=1&step=7&view=heatmap&lang=zh', base, VIEW_KEYS);
  assert.deepEqual([state.step, state.view, state.lang], [7, 'heatmap', 'zh']);
  assert.deepEqual(notices, ['toString=1']);
  for (const name of INHERITED) assert.equal(parseField(name, '1'), undefined, name);
});

test('a refused key or value of 5,000 characters is named in a few words, never half a character', () => {
  const { notices } = stateFromURL(`?view=${'v'.repeat(5000)}&${'k'.repeat(5000)}=1`, base, VIEW_KEYS);
  assert.equal(notices.length, 2);
  assert.ok(notices[0].startsWith('view=vvvv') && notices[1].startsWith('kkkk'), notices.join(' '));
  for (const notice of notices) assert.ok(notice.length <= 60 && notice.endsWith('…'), `${notice.length} characters`);
  // A cut that would fall inside a surrogate pair (😀 is two UTF-16 units; 'view=x' puts the 60th
  // unit in the middle of one) leaves the whole pair out.
  const [emoji] = stateFromURL(`?view=x${'😀'.repeat(100)}`, base, VIEW_KEYS).notices;
  assert.ok(!/[\uD800-\uDBFF]…$/.test(emoji) && emoji.endsWith('…'), emoji);
});

const ACCEPTED_SEEDS = ['0', '1', '2147483648', '3000000000', '4294967295', '0042'];
const REFUSED_SEEDS = [
  '4294967296',
  '-1',
  '1.5',
  '1e3',
  '',
  '0x10',
  ' 42',
  '+5',
  '42abc',
  '4294967295.0',
  '99999999999',
];

test('seed= takes whole decimal numbers 0 … 4294967295 and refuses the rest, naming each', () => {
  for (const seed of ACCEPTED_SEEDS) {
    const { state, notices } = stateFromURL(`?seed=${encodeURIComponent(seed)}`, base, VIEW_KEYS);
    assert.equal(state.seed, Number(seed), seed);
    assert.deepEqual(notices, [], seed);
    // The seed box reads with the same parser (web/src/controls.js).
    assert.equal(parseField('seed', seed), Number(seed), seed);
  }
  // Every refused value in one link: each is named, and the default stays.
  const { state, notices } = stateFromURL(
    `?${REFUSED_SEEDS.map((seed) => `seed=${encodeURIComponent(seed)}`).join('&')}`,
    base,
    VIEW_KEYS,
  );
  assert.equal(state.seed, 42, 'refused seeds fall back to the default');
  assert.deepEqual(
    notices,
    REFUSED_SEEDS.map((seed) => `seed=${seed}`),
  );
  for (const seed of REFUSED_SEEDS) assert.equal(parseField('seed', seed), undefined, seed);
});

test('every number in a link is decimal digits: d, h, w, t, step, head and q', () => {
  const refused = ['d=16.0', 'h=0x4', 'w=1e1', 't=2e0', 'step=%202', 'head=%2B1', 'q=-0', 't=', 'w=1.'];
  const { state, notices } = stateFromURL(`?mask=window&${refused.join('&')}`, base, VIEW_KEYS);
  for (const field of ['dModel', 'heads', 'window', 'temperature', 'step', 'head', 'query'])
    assert.equal(state[field], base[field], field);
  assert.deepEqual(notices, refused.map(decodeURIComponent));
  const accepted = stateFromURL('?d=16&h=4&mask=window&w=3&t=.5&step=3&head=2&q=1', base, VIEW_KEYS);
  const s = accepted.state;
  assert.deepEqual([s.dModel, s.heads, s.window, s.temperature, s.step, s.head, s.query], [16, 4, 3, 0.5, 3, 1, 1]);
  assert.deepEqual(accepted.notices, []);
});

test('<attention-explorer> attributes: an inherited name as lang or value is named, English stays', () => {
  for (const name of INHERITED) {
    const { state, notices } = stateFromAttributes(
      element({ lang: name, sentence: 'a b', view: name, mask: name }),
      base,
    );
    assert.equal(state.lang, 'en', name);
    assert.equal(state.step, 1, name);
    for (const attribute of ['lang', 'view', 'mask']) assert.ok(notices.includes(`${attribute}=${name}`), notices);
  }
});

test('the seed attribute: the full range, anything else refused and named', () => {
  for (const seed of ['4294967295', '3000000000', '0']) {
    const { state, notices } = stateFromAttributes(element({ sentence: 'a b c', seed }), base);
    assert.equal(state.seed, Number(seed));
    assert.deepEqual(notices, []);
  }
  for (const seed of ['4294967296', '-1', '1.5', '1e3']) {
    const { state, notices } = stateFromAttributes(element({ sentence: 'a b c', seed }), base);
    assert.equal(state.seed, 42);
    assert.deepEqual(notices, [`seed=${seed}`]);
  }
});
