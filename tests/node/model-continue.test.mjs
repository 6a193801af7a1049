// The model panel's continue (web/src/models/panel-continue.js) with a stand-in worker: what it
// asks for, the pieces it remembers appending, and what ends them. No page, no engine.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createStore } from '../../web/src/store.js';
import { createContinuer } from '../../web/src/models/panel-continue.js';

/** A worker that appends the next of `pieces` to the text (or refuses with `error`), and records each request. */
function standIn(pieces, error = null) {
  const asked = [];
  return {
    asked,
    async ask(type, payload) {
      asked.push({ type, ...payload });
      if (error) throw new Error(error);
      return { text: payload.text + pieces[asked.length - 1] };
    },
  };
}

const start = { model: 'tang', sentence: '床前', sampleTemperature: 0.8, topK: 5 };

test('continue asks for one token with a new seed each time', async () => {
  const store = createStore({ ...start });
  const engine = standIn(['明', '月']);
  const continuer = createContinuer({ store, engine, notice: () => {} });
  await continuer.run(true);
  await continuer.run(false);
  assert.deepEqual(
    engine.asked.map(({ type, text, greedy, topK, seed, temperature }) => [
      type,
      text,
      greedy,
      topK,
      seed,
      temperature,
    ]),
    [
      ['modelGenerate', '床前', true, 0, 1, 0.8], // greedy takes no top k
      ['modelGenerate', '床前明', false, 5, 2, 0.8],
    ],
  );
  assert.equal(store.get().sentence, '床前明月');
});

test('continue marks its pieces until the learner types', async () => {
  const store = createStore({ ...start });
  const continuer = createContinuer({ store, engine: standIn(['明', '月']), notice: () => {} });
  await continuer.run(false);
  await continuer.run(false);
  assert.deepEqual(continuer.marks(store.get()), { added: ['明', '月'], loop: null });
  store.set({ sentence: '床前明月光' });
  assert.deepEqual(continuer.marks(store.get()), { added: [], loop: null });
});

test('a greedy loop is marked, a sampled repeat is not', async () => {
  const store = createStore({ ...start });
  const continuer = createContinuer({ store, engine: standIn(['，', '，', '，', '，']), notice: () => {} });
  for (let i = 0; i < 3; i++) await continuer.run(false);
  assert.equal(continuer.marks(store.get()).loop, null);
  await continuer.run(true);
  assert.deepEqual(continuer.marks(store.get()), { added: ['，', '，', '，', '，'], loop: ['，'] });
});

test('a refused continue says why and leaves the sentence', async () => {
  const store = createStore({ ...start });
  const said = [];
  const continuer = createContinuer({
    store,
    engine: standIn([], 'no model "tang" is loaded'),
    notice: (t) => said.push(t),
  });
  await continuer.run(true);
  assert.deepEqual(said, ['no model "tang" is loaded']);
  assert.equal(store.get().sentence, '床前');
  assert.deepEqual(continuer.marks(store.get()), { added: [], loop: null });
});
