// A key given twice in a link: both pages read the first value of every key
// (the explorer's web/src/state.js, the playground's web/src/playground/state.js) and name the
// repeated keys, as they name the bad ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultState, stateFromURL } from '../../web/src/state.js';
import * as playground from '../../web/src/playground/state.js';
import { VIEW_KEYS } from '../../web/src/views/registry.js';

test('the playground: the first value of a repeated key wins, for the task as for every knob', () => {
  const base = playground.defaultState('en');
  const { state, notices, repeated } = playground.stateFromURL('task=sort&task=modular&L=4&L=1', base);
  assert.equal(state.task, 'sort');
  assert.equal(state.layers, 4);
  assert.deepEqual(repeated, ['task', 'L']);
  assert.deepEqual(notices, []);
  // A bad first value is named (its default stands) and a later good one is not used; a bad
  // later value is named too.
  const bad = playground.stateFromURL('task=sort&H=9&H=2&seed=1&seed=x&embed=1&embed=0&task=nope', base);
  assert.equal(bad.state.heads, base.heads);
  assert.equal(bad.state.seed, 1);
  assert.equal(bad.state.task, 'sort');
  assert.equal(bad.chrome.embed, true);
  assert.deepEqual(bad.notices, ['H', 'seed', 'task']);
  assert.deepEqual(bad.repeated, ['H', 'seed', 'embed', 'task']);
  // A long repeated key is named in a few words.
  const long = playground.stateFromURL(`${'k'.repeat(5000)}=1&${'k'.repeat(5000)}=2`, base);
  assert.ok(long.repeated[0].length <= 40 && long.notices[0].length <= 40, long.repeated[0]);
});

test('the explorer: the first value of a repeated key wins, and the key is named', () => {
  const base = defaultState('en');
  const { state, notices, repeated } = stateFromURL('?h=4&d=16&h=1&lang=zh&lang=en&step=3&step=99', base, VIEW_KEYS);
  assert.equal(state.heads, 4);
  assert.equal(state.lang, 'zh');
  assert.equal(state.step, 3);
  assert.deepEqual(repeated, ['h', 'lang', 'step']);
  assert.deepEqual(notices, ['step=99'], 'a later value out of range is named, and not used');
  assert.deepEqual(stateFromURL('?d=16', base, VIEW_KEYS).repeated, []);
  // Every bad value is named, a repeated key's too; the first good value stands.
  const bad = stateFromURL('?seed=x&seed=7&seed=-1', base, VIEW_KEYS);
  assert.equal(bad.state.seed, base.seed);
  assert.deepEqual(bad.notices, ['seed=x', 'seed=-1']);
  assert.deepEqual(bad.repeated, ['seed']);
});
