// The playground's worker-side logic (web/src/playground/session.js) against the engine's own
// answers, and its link format (state.js): the JS greedy answer equals the engine's C++
// predict(), snapshots equal the engine's attention(), links round-trip and hostile keys are refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEngine } from './support.mjs';
import { parseExample, presetOf, PRESETS, trainerConfig } from '../../web/src/playground/presets.js';
import { answer, fixedInput, fixedSequence, headScores, snapshot, taskOf } from '../../web/src/playground/session.js';
import { defaultState, queryOf, stateFromURL } from '../../web/src/playground/state.js';
import { emptyHistory, reachedAt, TARGET } from '../../web/src/playground/history.js';
import { strings } from '../../web/src/playground/i18n.js';

const engine = await createEngine();

test('the page’s greedy answer (session.answer) is the engine’s predict() and its snapshot the engine’s attention()', () => {
  const trainer = engine.createTrainer(trainerConfig('sort', PRESETS.sort.knobs));
  try {
    trainer.step(150); // half-trained: answers are neither all right nor all the same
    let right = 0;
    for (let i = 0; i < 12; i++) {
      const input = Array.from({ length: 8 }, (_, j) => (i * 7 + j * j * 3 + j) % 10);
      const page = answer(trainer, input);
      const cpp = trainer.predict(input.join(' '));
      assert.deepEqual(page.prompt, cpp.input, `prompt of ${input}`);
      assert.deepEqual(page.answer, cpp.answer, `answer to ${input}`);
      if (page.answer.join() === page.expected.join()) right++;
    }
    assert.ok(right < 12, 'some answers are wrong at step 150, so the comparison has teeth');
    const sequence = fixedSequence(trainer);
    const mine = snapshot(trainer, sequence);
    const theirs = trainer.attention({ tokens: sequence });
    assert.deepEqual([mine.layers, mine.heads, mine.length], [theirs.layers, theirs.heads, theirs.length]);
    let worst = 0;
    mine.weights.forEach((w, i) => (worst = Math.max(worst, Math.abs(w - theirs.weights[i]))));
    assert.ok(worst <= 1e-6, `largest difference ${worst}`);
  } finally {
    trainer.dispose();
  }
});

test('head scores of a snapshot: a hand-made attention pattern scores 1 where it should', () => {
  // T = 5, tokens a b c a b: at position 3 ("a" again) an induction head reads position 1 ("b").
  const T = 5;
  const weights = new Float32Array(2 * T * T);
  for (let q = 0; q < T; q++) weights[q * T + Math.max(0, q - 1)] = 1; // head 0: previous token
  weights[T * T + 3 * T + 1] = 1; // head 1: induction at 3 → 1
  weights[T * T + 4 * T + 2] = 1; // and at 4 ("b" again) → 2
  for (const q of [0, 1, 2]) weights[T * T + q * T + q] = 1; // elsewhere: itself
  const scores = headScores({ tokens: ['a', 'b', 'c', 'a', 'b'], layers: 1, heads: 2, length: T, weights });
  assert.deepEqual(scores.previousToken[0], [1, 0]);
  assert.deepEqual(scores.induction[0], [0, 1]);
});

test('typed examples: a wrong count or symbol is named; digits may run together', () => {
  const sort = { name: 'sort', length: 8, alphabet: 10 };
  assert.deepEqual(parseExample(sort, '31415926', 16), { input: [3, 1, 4, 1, 5, 9, 2, 6] });
  assert.deepEqual(parseExample(sort, '3 1 4', 16).error, { key: 'exampleCount', args: [8, 3] });
  assert.deepEqual(parseExample(sort, '3 1 4 1 5 9 2 x', 16).error, { key: 'exampleSymbol', args: ['x', 9] });
  const modular = { name: 'modular', modulus: 13 };
  assert.deepEqual(parseExample(modular, '7 + 9 =', 4), { input: [7, 9] });
  assert.deepEqual(parseExample(modular, '7 13', 4).error, { key: 'exampleSymbol', args: ['13', 12] });
  const induction = { name: 'induction', length: 10, alphabet: 64 };
  assert.deepEqual(parseExample(induction, '5', 19).error, { key: 'exampleRange', args: [2, 18, 1] });
});

test('trainers of every preset follow the preset’s own fixed input', () => {
  for (const name of Object.keys(PRESETS)) {
    const trainer = engine.createTrainer(trainerConfig(name, PRESETS[name].knobs));
    try {
      assert.deepEqual(fixedInput(taskOf(trainer)), PRESETS[name].input, name);
    } finally {
      trainer.dispose();
    }
  }
});

test('a model file of another shape (a `train` command’s: sort of 4 over 5, induction of 6) gets a fixed example that fits it', () => {
  for (const config of [
    { task: 'sort', length: 4, alphabet: 5, layers: 1, dModel: 16, heads: 2 },
    { task: 'induction', length: 6, alphabet: 12, layers: 1, dModel: 16, heads: 2 },
    { task: 'modular', modulus: 5, layers: 1, dModel: 16, heads: 2 },
  ]) {
    const trainer = engine.createTrainer(config);
    const model = engine.loadModel(trainer.save());
    try {
      const sequence = fixedSequence(model);
      assert.ok(sequence.length >= 2 && sequence.length <= model.contextLength, `${config.task}: ${sequence}`);
      const snap = snapshot(model, sequence);
      assert.equal(snap.length, sequence.length);
      const task = taskOf(model);
      const typed = parseExample(task, fixedInput(task).join(' '), model.contextLength);
      assert.ok(typed.input, `${config.task}: its own fixed input reads back (${JSON.stringify(typed.error)})`);
      assert.equal(answer(model, typed.input).prompt.length <= model.contextLength, true);
    } finally {
      model.dispose();
      trainer.dispose();
    }
  }
});

test('links round-trip; out-of-range values and inherited names are ignored and named', () => {
  const base = defaultState('en');
  const query = 'task=induction&L=3&H=1&d=64&scale=0&ao=0&lr=0.003&b=16&seed=7&ex=5+12+40&lang=zh';
  const { state, notices } = stateFromURL(query, base);
  assert.deepEqual(notices, []);
  assert.equal(queryOf(state), query);
  const bad = stateFromURL('task=sort&L=9&d=48&lr=1&toString=1&__proto__=x&b=-1', base);
  assert.deepEqual(bad.notices, ['L', 'd', 'lr', 'toString', '__proto__', 'b']);
  assert.equal(queryOf(bad.state), 'task=sort&lang=en', 'the preset, nothing else');
  assert.deepEqual(stateFromURL('task=nope', base).notices, ['task']);
});

test('heatmap pages hold at most 16 heatmaps: whole layers while a layer fits, else 16 heads of one layer', async () => {
  const { heatmapPages, MAX_MAPS } = await import('../../web/src/playground/heatmaps.js');
  const count = (p) => (p.layers[1] - p.layers[0] + 1) * (p.heads[1] - p.heads[0] + 1);
  assert.deepEqual(heatmapPages(2, 4), [{ layers: [0, 1], heads: [0, 3] }], 'a preset: one page');
  assert.deepEqual(heatmapPages(6, 4), [
    { layers: [0, 3], heads: [0, 3] },
    { layers: [4, 5], heads: [0, 3] },
  ]);
  for (const [L, H] of [
    [6, 64],
    [3, 17],
    [1, 1],
    [4, 16],
  ]) {
    const pages = heatmapPages(L, H);
    assert.ok(
      pages.every((p) => count(p) <= MAX_MAPS),
      `${L} × ${H}`,
    );
    assert.equal(
      pages.reduce((sum, p) => sum + count(p), 0),
      L * H,
      `${L} × ${H}: every head on exactly one page`,
    );
  }
  assert.deepEqual(heatmapPages(6, 64)[1], { layers: [0, 0], heads: [16, 31] });
});

test('a link with a bad and a repeated key: both named, the first value of the repeated key kept', () => {
  // The page's notice (main.js) joins these with the strings' ignoredURL and repeatedURL.
  const query = 'task=induction&L=3&H=1&d=64&scale=0&ao=0&lr=0.003&b=16&seed=7&ex=5+12+40+7+33+12&lang=zh';
  const { state, notices, repeated } = stateFromURL(`?${query}&L=9&bogus=1`, defaultState('en'));
  assert.equal(state.layers, 3);
  assert.deepEqual(notices, ['L', 'bogus']);
  assert.deepEqual(repeated, ['L']);
  assert.equal(queryOf(state), query, 'the page writes the link back without them');
  const zh = strings('zh');
  assert.equal(zh.ignoredURL(notices.join(', ')), '忽略了链接中的这些值：L, bogus。');
  assert.equal(zh.repeatedURL(repeated.join(', ')), '链接中这些键出现了不止一次（每个键只用第一个值）：L。');
});

test('the step held-out exact match first reached 95% is marked, in both languages', () => {
  const history = emptyHistory();
  assert.equal(reachedAt(history), null, 'no measurement yet');
  history.heldOut.push([50, 0.4], [100, 0.94], [150, 0.95], [200, 0.9], [250, 1]);
  assert.equal(reachedAt(history), 150, 'the first at or above 95%, not a later one');
  assert.equal(TARGET, 0.95);
  assert.equal(reachedAt({ heldOut: [[10, 0.949]] }), null);
  assert.equal(strings('en').reached(150), 'reached 95% at step 150');
  assert.equal(strings('zh').reached(150), '第 150 步达到 95%');
});

test('a preset asked for a name that is no task is refused by name, prototype keys too', () => {
  for (const name of ['__proto__', 'toString', 'constructor', 'text', 'nope', undefined]) {
    assert.throws(() => presetOf(name), /is not one of copy, reverse, sort, induction, modular/, String(name));
  }
  assert.equal(presetOf('sort'), PRESETS.sort);
});
