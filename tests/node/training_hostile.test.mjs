// What the trainer does with calls once found wrong by hostile-input testing:
// a diverged trainer refuses every later call with the divergence's own error, and save()'s
// options are read as every other options object is (unknown names and wrong types refused).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAttentionError, createEngine } from './support.mjs';
import { TINY } from './training_support.mjs';

const engine = await createEngine();

test('a diverged trainer refuses every later call with the same error, and can still be disposed', () => {
  // Six layers of attention only, without residuals: their product overflows float32 at once.
  const trainer = engine.createTrainer({
    ...TINY,
    batchSize: 8,
    layers: 6,
    attentionOnly: true,
    residual: false,
    learningRate: 10,
    clipNorm: 0,
    initStd: 10,
    seed: 1,
  });
  let diverged;
  for (let i = 0; i < 50 && !diverged; i++) {
    try {
      trainer.step(1);
    } catch (error) {
      diverged = error;
    }
  }
  assert.ok(diverged, 'learning rate 10 without clipping must diverge within 50 steps');
  assert.equal(diverged.name, 'AttentionError');
  assert.equal(diverged.code, 'NON_FINITE');
  assert.match(diverged.message, /training diverged/);
  const same = { code: diverged.code, field: diverged.field, message: diverged.message };
  const calls = [
    () => trainer.step(1),
    () => trainer.predict('1 2 3 0'),
    () => trainer.attention({ text: '1 2 3 0 |' }),
    () => trainer.headScores(8),
    () => trainer.trace({ text: '1 2 3 0 |' }),
    () => trainer.save(),
    () => trainer.evaluate(8),
    () => trainer.steps,
  ];
  for (const call of calls) assertAttentionError(call, same);
  trainer.dispose();
  assertAttentionError(() => trainer.step(1), { code: 'DISPOSED', field: 'model' });
});

test("save()'s options are checked: unknown names, wrong types and a bare string are refused", () => {
  const trainer = engine.createTrainer(TINY);
  try {
    assertAttentionError(() => trainer.save({ precison: 'float16' }), {
      code: 'INVALID_ARGUMENT',
      field: 'precison',
      message: /unknown option "precison" of save\(\); options are: precision/,
    });
    assertAttentionError(() => trainer.save('float16'), { code: 'INVALID_ARGUMENT', field: 'options' });
    assertAttentionError(() => trainer.save(null), { code: 'INVALID_ARGUMENT', field: 'options' });
    assertAttentionError(() => trainer.save([]), { code: 'INVALID_ARGUMENT', field: 'options' });
    assertAttentionError(() => trainer.save({ precision: 16 }), { code: 'INVALID_ARGUMENT', field: 'precision' });
    const model = engine.loadModel(trainer.save({ precision: 'float16' }));
    try {
      assert.equal(model.parameterCount, trainer.parameterCount);
    } finally {
      model.dispose();
    }
    assert.ok(trainer.save().length > trainer.save({ precision: 'float16' }).length);
  } finally {
    trainer.dispose();
  }
});
