// A trained model's next-token temperature and top-k are in the link: a state with
// them goes to a URL and comes back the same; values outside the controls' ranges are refused
// and named, as every other field's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultState, SAMPLE_TEMPERATURE, stateFromURL, stateToURL, TOP_K } from '../../web/src/state.js';
import { VIEW_KEYS } from '../../web/src/views/registry.js';

const base = defaultState('en');

test('temp= and topk= round-trip through the URL', () => {
  for (const [sampleTemperature, topK] of [
    [0.7, 5],
    [SAMPLE_TEMPERATURE.min, TOP_K.min],
    [SAMPLE_TEMPERATURE.max, TOP_K.max],
  ]) {
    const state = { ...base, model: 'tang', sampleTemperature, topK };
    const query = stateToURL(state, base);
    assert.match(query, /[?&]temp=/);
    assert.match(query, /[?&]topk=/);
    const back = stateFromURL(query, base, VIEW_KEYS);
    assert.deepEqual(back.notices, []);
    assert.equal(back.state.sampleTemperature, sampleTemperature);
    assert.equal(back.state.topK, topK);
  }
  // The defaults stay out of a link.
  assert.doesNotMatch(stateToURL({ ...base, model: 'tang' }, base), /temp=|topk=/);
});

test('temp= and topk= outside the controls’ ranges are refused and named', () => {
  const { state, notices } = stateFromURL('?model=tang&temp=9&topk=0', base, VIEW_KEYS);
  assert.deepEqual(notices, ['temp=9', 'topk=0']);
  assert.equal(state.sampleTemperature, base.sampleTemperature);
  assert.equal(state.topK, base.topK);
  assert.deepEqual(stateFromURL('?topk=51&temp=0.05', base, VIEW_KEYS).notices, ['topk=51', 'temp=0.05']);
});
