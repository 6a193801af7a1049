// The threaded engine (dist/engine-mt) in node: its pthreads run on worker_threads
// (node_threads.js). The same seed and `threads` give the same weights, bit for bit, run after
// run and whichever thread ran which shard; and the single-threaded build, running the same
// shards one after another, gives the same numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { createEngine as createThreaded } from '../../dist/engine-mt/engine.js';
import { createEngine } from './support.mjs';
import { TINY } from './training_support.mjs';

const threaded = await createThreaded();
const single = await createEngine();
// Wide enough that a shard's forward and backward take a while: the threads overlap for real.
const CONFIG = { ...TINY, dModel: 64, batchSize: 16, seed: 11 };
const STEPS = 12;

/** Losses of STEPS single steps and the model file after them. */
function train(engine, threads) {
  const trainer = engine.createTrainer({ ...CONFIG, threads });
  try {
    const losses = [];
    for (let i = 0; i < STEPS; i++) losses.push(trainer.step(1).loss);
    return { losses, file: trainer.save(), heldOut: trainer.evaluate(64).loss };
  } finally {
    trainer.dispose();
  }
}

test('the threaded build runs every core; the single-threaded one, one', () => {
  assert.equal(threaded.threads, availableParallelism());
  assert.equal(single.threads, 1);
});

test('the same seed and threads give the same weights in the threaded build, bit for bit', () => {
  for (const threads of [1, 2, 3]) {
    const a = train(threaded, threads);
    const b = train(threaded, threads);
    assert.deepEqual(a.losses, b.losses, `threads ${threads}: losses`);
    assert.deepEqual(a.file, b.file, `threads ${threads}: weights`);
  }
});

test('the threaded build matches the single-threaded build for the same seed and threads', () => {
  for (const threads of [1, 2]) {
    const a = train(threaded, threads);
    const b = train(single, threads);
    let worst = 0;
    for (let i = 0; i < STEPS; i++) worst = Math.max(worst, Math.abs(a.losses[i] - b.losses[i]) / b.losses[i]);
    const same = a.file.length === b.file.length && a.file.every((byte, i) => byte === b.file[i]);
    console.log(
      `threads ${threads}: largest relative loss difference ${worst.toExponential(2)}, weights ${same ? 'bit-identical' : 'differ'}`,
    );
    assert.ok(worst <= 1e-6, `threads ${threads}: losses differ by ${worst}`);
    assert.ok(Math.abs(a.heldOut - b.heldOut) <= 1e-6 * b.heldOut, `threads ${threads}: held-out loss`);
  }
});

test("a corpus trainer's threads reach the engine: its shards, the same in both builds", () => {
  // model_corpus_handle.cpp once dropped the field: every corpus trainer ran one shard.
  let text = '';
  for (let i = 0; i < 4000; i++) text += 'abcdefghijklmnop'[(i * 7 + (i >> 3)) % 16];
  const run = (engine, threads) => {
    const trainer = engine.createCorpusTrainer(text, {
      level: 'character',
      contextLength: 16,
      layers: 1,
      heads: 2,
      dModel: 16,
      batchSize: 8,
      threads,
    });
    try {
      trainer.step(3);
      return trainer.save();
    } finally {
      trainer.dispose();
    }
  };
  const two = run(threaded, 2);
  assert.deepEqual(two, run(single, 2), 'the same shards in either build');
  assert.notDeepEqual(two, run(threaded, 1), 'two shards add their gradients in another order than one');
});

test('several trainers alive at once, and one disposed at once, neither hang nor change the numbers', () => {
  // Every trainer runs its shards on the engine's one pool (a worker per core less the caller):
  // the number of trainers alive never asks for another thread (threads_resources.test.mjs).
  const reference = train(threaded, 2);
  threaded.createTrainer({ ...CONFIG, threads: 2 }).dispose();
  const many = Array.from({ length: 4 }, () => threaded.createTrainer({ ...CONFIG, threads: 2 }));
  try {
    for (const trainer of many) {
      const losses = [];
      for (let i = 0; i < STEPS; i++) losses.push(trainer.step(1).loss);
      assert.deepEqual(losses, reference.losses);
      assert.deepEqual(trainer.save(), reference.file);
    }
  } finally {
    for (const trainer of many) trainer.dispose();
  }
});
