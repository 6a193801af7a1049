// training/apply-scores.mjs writes a scoring run's held-out numbers into a committed model file's
// configuration: the engine's own reader (the WASM build of model_file.cpp, which checks the
// size field and the FNV-1a checksum) must load the rewritten file, see the new numbers, and
// compute the same logits as from the original file (the tensors untouched).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createEngine, root } from './support.mjs';
import { formatNumber, withConfigNumbers } from '../../training/apply-scores.mjs';

const engine = await createEngine();

test('numbers are written as the trainer writes them (%.17g)', () => {
  assert.equal(formatNumber(4.6224989024641783), '4.6224989024641783');
  assert.equal(formatNumber(0.75), '0.75');
  assert.equal(formatNumber(5), '5');
  assert.equal(Number(formatNumber(Math.PI)), Math.PI);
  assert.throws(() => formatNumber(Number.NaN), /not a finite number/);
});

test('a rewritten model file loads with the new numbers and the same weights', () => {
  const original = new Uint8Array(readFileSync(path.join(root, 'models', 'brown.model')));
  const numbers = { heldOutLoss: 4.25, kn5Loss: 4.6479368883043115, bigramLambda: 0.7 };
  const rewritten = withConfigNumbers(original, numbers);
  const before = engine.loadModel(original);
  const after = engine.loadModel(rewritten);
  try {
    for (const [key, value] of Object.entries(numbers)) assert.equal(after.config[key], value, key);
    assert.equal(after.config.unigramLoss, before.config.unigramLoss);
    assert.equal(after.config.title, before.config.title);
    assert.deepEqual(after.vocabulary, before.vocabulary);
    const tokens = [5, 17, 42, 99, 7, 300];
    const logits = (model) => model.trace({ tokens }, { steps: ['logits'] }).step('logits').data;
    assert.deepEqual(Array.from(logits(after)), Array.from(logits(before)));
  } finally {
    before.dispose();
    after.dispose();
  }
});

test('a key the configuration lacks, or a damaged file, is refused by name', () => {
  const original = new Uint8Array(readFileSync(path.join(root, 'models', 'brown.model')));
  assert.throws(() => withConfigNumbers(original, { kn7Loss: 1 }), /no number "kn7Loss"/);
  const damaged = original.slice();
  damaged[damaged.length - 100] ^= 1;
  assert.throws(() => withConfigNumbers(damaged, { heldOutLoss: 1 }), /bad checksum/);
});
