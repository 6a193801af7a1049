// What the training playground reads from a trainer, through the public JS API:
// each step's attention entropy and score gradient, head scores, one example's attention
// snapshot and the model's answer to a typed input, each against an independent reference
// (uniform attention's closed forms, the trace's own weights, the trace's arg-max chain).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAttentionError, createEngine } from './support.mjs';
import { TINY } from './training_support.mjs';

const engine = await createEngine();

function withTrainer(config, fn) {
  const trainer = engine.createTrainer(config);
  try {
    return fn(trainer);
  } finally {
    trainer.dispose();
  }
}

// With weights of std 1e-6 every score q·k is ≈ 1e-10: each causal row i attends uniformly to
// its i + 1 keys. TINY sorts 4 symbols: T = 8 positions, dK = 32 / 4 = 8.
const UNIFORM = { ...TINY, initStd: 1e-6 };
const T = 8;
const sum = (n, f) => Array.from({ length: n }, (_, i) => f(i)).reduce((a, b) => a + b, 0);

test('attentionEntropy is uniform attention’s at a tiny initialisation; unscaled, the score gradient is √dK larger', () => {
  const causal = withTrainer(UNIFORM, (t) => t.step(1));
  // Row i's entropy is ln(i + 1); the mean over the T rows (every layer and head alike).
  const expected = sum(T, (i) => Math.log(i + 1)) / T;
  assert.ok(Math.abs(causal.attentionEntropy - expected) < 1e-5, `${causal.attentionEntropy} vs ${expected}`);
  const bidirectional = withTrainer({ ...UNIFORM, causal: false }, (t) => t.step(1));
  assert.ok(Math.abs(bidirectional.attentionEntropy - Math.log(T)) < 1e-5, `${bidirectional.attentionEntropy}`);
  // Identical forward passes (the scores are ≈ 0 either way), so ∂L/∂(q·kᵀ) differs only by the
  // factor 1/√dK that the scaled model's softmax input carries.
  const unscaled = withTrainer({ ...UNIFORM, scale: false }, (t) => t.step(1));
  assert.ok(Math.abs(unscaled.loss - causal.loss) < 1e-6, `${unscaled.loss} vs ${causal.loss}`);
  assert.ok(causal.scoreGradientNorm > 0);
  const ratio = unscaled.scoreGradientNorm / causal.scoreGradientNorm;
  assert.ok(Math.abs(ratio / Math.sqrt(8) - 1) < 1e-3, `ratio ${ratio}, √8 = ${Math.sqrt(8)}`);
  // …and the gradient at the softmax's input is the same in both.
  assert.equal(unscaled.softmaxGradientNorm, unscaled.scoreGradientNorm);
  assert.ok(Math.abs(causal.softmaxGradientNorm / unscaled.softmaxGradientNorm - 1) < 1e-3);
  // Trained, attention sharpens: the entropy falls below uniform's.
  withTrainer({ ...TINY, learningRate: 1e-2 }, (t) => {
    const first = t.step(1);
    const later = t.step(150);
    for (const m of [first, later]) {
      assert.ok(Number.isFinite(m.attentionEntropy) && Number.isFinite(m.scoreGradientNorm));
      assert.ok(m.scoreGradientNorm > 0);
    }
    assert.ok(later.attentionEntropy < expected - 0.1, `${first.attentionEntropy} → ${later.attentionEntropy}`);
  });
});

test('headScores: uniform attention’s previous-token score, the same numbers every call, null induction for modular', () => {
  withTrainer(UNIFORM, (t) => {
    const scores = t.headScores(16);
    assert.equal(scores.previousToken.length, 2);
    assert.equal(scores.induction.length, 2);
    // Rows 1 … T−1 give 1/(i + 1) to the previous key.
    const expected = sum(T - 1, (i) => 1 / (i + 2)) / (T - 1);
    for (const row of scores.previousToken) {
      assert.equal(row.length, 4);
      for (const s of row) assert.ok(Math.abs(s - expected) < 1e-6, `${s} vs ${expected}`);
    }
    // Sort's answers read their symbol from the input: with uniform rows it gets 1/(i + 1) too,
    // so the score lies between the last row's 1/8 and the first answer row's 1/5.
    for (const row of scores.induction) for (const s of row) assert.ok(s > 1 / 8 && s < 1 / 5, `${s}`);
    assert.deepEqual(t.headScores(16), scores);
  });
  withTrainer({ ...TINY, task: 'induction', length: 6 }, (t) => {
    t.step(3);
    const scores = t.headScores();
    for (const row of [...scores.induction, ...scores.previousToken]) {
      for (const s of row) assert.ok(s > 0 && s < 1, `${s}`);
    }
  });
  withTrainer({ ...TINY, task: 'modular', modulus: 7 }, (t) => {
    const scores = t.headScores(8);
    assert.equal(scores.induction, null);
    assert.equal(scores.previousToken[1].length, 4);
  });
  withTrainer(TINY, (t) => {
    for (const bad of [0, 4097, 1.5, '8']) {
      assertAttentionError(() => t.headScores(bad), { code: 'INVALID_ARGUMENT', field: 'count' });
    }
  });
});

test('attention(example) equals the trace’s weights of every layer and head, in a transferable copy', () => {
  withTrainer({ ...TINY, initStd: 0.3 }, (t) => {
    t.step(5);
    const snapshot = t.attention({ text: '40312|' });
    const trace = t.trace({ text: '40312|' });
    assert.deepEqual(snapshot.tokens, ['4', '0', '3', '1', '2', '|']);
    assert.equal(snapshot.layers, 2);
    assert.equal(snapshot.heads, 4);
    assert.equal(snapshot.length, 6);
    assert.ok(snapshot.weights instanceof Float32Array);
    assert.equal(snapshot.weights.length, 2 * 4 * 6 * 6);
    // Its own buffer (not a view into WASM memory): a worker can transfer it.
    assert.equal(snapshot.weights.buffer.byteLength, snapshot.weights.byteLength);
    let worst = 0;
    for (let l = 0; l < 2; l++) {
      for (let h = 0; h < 4; h++) {
        const weights = trace.layers[l].step('weights', h).data;
        const block = snapshot.weights.subarray((l * 4 + h) * 36, (l * 4 + h + 1) * 36);
        weights.forEach((w, i) => (worst = Math.max(worst, Math.abs(w - block[i]))));
      }
    }
    assert.ok(worst < 1e-6, `largest difference ${worst}`);
    const moved = structuredClone(snapshot, { transfer: [snapshot.weights.buffer] });
    assert.equal(moved.weights.length, 288);
    assert.equal(snapshot.weights.length, 0, 'transferred, not copied');
    assertAttentionError(() => t.attention({ text: '4 x' }), { code: 'INVALID_ARGUMENT', field: 'text' });
    assertAttentionError(() => t.attention({ tokens: new Array(9).fill(0) }), {
      code: 'LIMIT_EXCEEDED',
      field: 'tokens',
    });
    assertAttentionError(() => t.attention({ tokens: [0, , 1] }), { code: 'INVALID_ARGUMENT', field: 'tokens[1]' });
  });
  // 256 heads × 512² weights would be 256 MiB: refused before anything is allocated.
  withTrainer(
    { task: 'copy', length: 256, alphabet: 2, layers: 1, dModel: 256, heads: 256, dK: 1, batchSize: 1 },
    (t) => {
      const tokens = new Array(512).fill(0);
      assertAttentionError(() => t.attention({ tokens }), {
        code: 'LIMIT_EXCEEDED',
        field: 'tokens',
        message: /256 MiB; at most 64 MiB/,
      });
      assert.equal(t.attention({ tokens: tokens.slice(0, 128) }).weights.length, 256 * 128 * 128);
    },
  );
});

/** The model's arg-max next symbol after `symbols`, from the trace's probabilities. */
function nextSymbol(trainer, symbols) {
  const p = trainer.trace({ tokens: symbols }).step('probabilities');
  const row = p.data.subarray((p.rows - 1) * p.cols, p.rows * p.cols);
  return p.colLabels[row.indexOf(Math.max(...row))];
}

test('predict(input) follows the trace’s arg-max chain for every task', () => {
  const cases = [
    [{ task: 'sort' }, '3 1 4 2', ['3', '1', '4', '2', '|'], 4],
    [{ task: 'reverse' }, { text: '0 0 1 4' }, ['0', '0', '1', '4', '|'], 4],
    [{ task: 'copy' }, { tokens: [2, '3', 4, 0] }, ['2', '3', '4', '0', '|'], 4],
    // length 4: 4 filler symbols and a segment of 2, whose first symbol the model is given.
    [{ task: 'induction' }, '012234', ['0', '1', '2', '2', '3', '4', '3'], 1],
    [{ task: 'modular', modulus: 7 }, '3 6', ['3', '+', '6', '='], 1],
  ];
  for (const [task, input, prompt, answers] of cases) {
    withTrainer({ ...TINY, initStd: 0.3, ...task }, (t) => {
      t.step(3);
      const out = t.predict(input);
      assert.deepEqual(out.input, prompt);
      assert.equal(out.answer.length, answers);
      const sequence = out.input.slice();
      for (const symbol of out.answer) {
        assert.equal(symbol, nextSymbol(t, sequence), `${task.task} after ${sequence.join(' ')}`);
        sequence.push(symbol);
      }
    });
  }
});

test('a trained sort model sorts a typed input', () => {
  withTrainer({ ...TINY, learningRate: 1e-2, warmupSteps: 20, totalSteps: 400 }, (t) => {
    t.step(400);
    assert.ok(t.evaluate(200).exactMatch > 0.9);
    assert.deepEqual(t.predict('3 1 4 2').answer, ['1', '2', '3', '4']);
    assert.deepEqual(t.predict('4040').answer, ['0', '0', '4', '4']);
  });
});

test('predict refuses inputs the task does not take, naming the field and the allowed symbols', () => {
  withTrainer(TINY, (t) => {
    const cases = [
      ['3 1 2', 'input', /^input has 3 symbols; sort takes exactly 4 symbols from 0 to 4$/],
      ['3 1 | 2', 'input[2]', /^input\[2\] \("\|"\) must be one of the symbols from 0 to 4$/],
      ['3 1 2 4 0', 'input', /input has 5 symbols/],
      ['3 1 x 2', 'text', /not in the vocabulary/],
      [42, 'input', /must be \{ text \} or \{ tokens \}/],
      [{ tokens: [1, 2, 3, 9] }, 'tokens[3]', /token id from 0 to 5/],
    ];
    for (const [input, field, message] of cases) {
      assertAttentionError(() => t.predict(input), { code: 'INVALID_ARGUMENT', field, message });
    }
  });
  withTrainer({ ...TINY, task: 'modular', modulus: 7 }, (t) => {
    assertAttentionError(() => t.predict('3 + 6'), {
      code: 'INVALID_ARGUMENT',
      field: 'input',
      message: /^input has 3 symbols; modular takes exactly 2 symbols from 0 to 6$/,
    });
  });
});
