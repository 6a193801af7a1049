// A key given twice in a link (issue 26, item 10): both pages read the first value of every key
// (the explorer's web/src/state.js, the playground's web/src/playground/state.js) and name the
// repeated keys, as they name the bad ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultState, stateFromURL } from '../../web/src/state.js';
import * as playground from '../../web/src/playground/state.js';

test('the playground: the first value of a repeated key wins, for the task as for every knob', () => {
  const base = playground.defaultState('en');
  const { state, notices, repeated } = playground.stateFromURL('task=sort&task=modular&L=4&L=1', base);
  assert.equal(state.task, 'sort');
  assert.equal(state.layers, 4);
  assert.deepEqual(repeated, ['task', 'L']);
  assert.deepEqual(notices, []);
  // A bad first value is named (its default stands), the later good one is not read.
  const bad = playground.stateFromURL('task=sort&H=9&H=2&seed=1&seed=x&embed=1&embed=0', base);
  assert.equal(bad.state.heads, base.heads);
  assert.equal(bad.state.seed, 1);
  assert.equal(bad.chrome.embed, true);
  assert.deepEqual(bad.notices, ['H']);
  assert.deepEqual(bad.repeated, ['H', 'seed', 'embed']);
  // A long repeated key is named in a few words.
  const long = playground.stateFromURL(`${'k'.repeat(5000)}=1&${'k'.repeat(5000)}=2`, base);
  assert.ok(long.repeated[0].length <= 40 && long.notices[0].length <= 40, long.repeated[0]);
});

test('the explorer: the first value of a repeated key wins, and the key is named', () => {
  const base = defaultState('en');
  const { state, notices, repeated } = stateFromURL('?h=4&d=16&h=1&lang=zh&lang=en&step=3&step=99', base);
  assert.equal(state.heads, 4);
  assert.equal(state.lang, 'zh');
  assert.equal(state.step, 3);
  assert.deepEqual(repeated, ['h', 'lang', 'step']);
  assert.deepEqual(notices, []);
  assert.deepEqual(stateFromURL('?d=16', base).repeated, []);
});
