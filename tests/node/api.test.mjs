// The JS API's contract: shapes and labels, copies, live traces, the tokenizer, defaults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAttentionError, createEngine } from './support.mjs';
import { createEngine as createThreaded } from '../../dist/engine-mt/engine.js';

const engine = await createEngine();

test('run() copies every step with its shape and token labels', () => {
  const trace = engine.run({ text: '猫追着球跑', dModel: 16, heads: 4, mask: 'causal' });
  assert.deepEqual(trace.tokens, ['猫', '追', '着', '球', '跑']);
  assert.equal(trace.dK, 4);
  const weights = trace.step('weights', 3);
  assert.equal(weights.head, 3);
  assert.equal(weights.data.length, 25);
  assert.deepEqual(weights.colLabels, trace.tokens);
  for (let i = 0; i < 5; i++) {
    let sum = 0;
    for (let j = 0; j < 5; j++) {
      const a = weights.data[i * 5 + j];
      sum += a;
      if (j > i) assert.equal(a, 0, 'the causal mask leaves exactly 0 above the diagonal');
    }
    assert.ok(Math.abs(sum - 1) < 1e-6);
  }
  const masked = trace.step('masked', 0);
  assert.equal(masked.data[1], -Infinity);
  assert.equal(trace.steps.weights.length, 4);
  assert.deepEqual(trace.step('x').colLabels.slice(0, 3), ['0', '1', '2']);
  assert.deepEqual(trace.step('rowMax', 0).colLabels, ['rowMax']);
  assert.equal(trace.step('output').cols, 16);
});

// The threaded build's memory is a SharedArrayBuffer: a step handed out as a view of it, not a
// copy, would be one (and change under the next run). The single-threaded build's memory is a
// plain ArrayBuffer, where only the values can tell.
for (const [build, load] of [
  ['single-threaded', createEngine],
  ['threaded', createThreaded],
]) {
  test(`results are copies: a later run does not change an earlier trace (${build} build)`, async () => {
    const e = build === 'single-threaded' ? engine : await load();
    const first = e.run({ tokens: ['a', 'b'] }).step('output');
    const before = Float32Array.from(first.data);
    e.run({ tokens: Array.from({ length: 300 }, (_, i) => `t${i}`), dModel: 64, heads: 4 });
    assert.deepEqual(first.data, before);
    assert.ok(first.data.buffer instanceof ArrayBuffer, 'a plain ArrayBuffer of its own');
    assert.ok(!(first.data.buffer instanceof SharedArrayBuffer));
  });
}

test('a live trace reads steps on demand and must be disposed', () => {
  const live = engine.open({ tokens: ['a', 'b', 'c'], heads: 2 });
  assert.deepEqual(live.stepNames.slice(0, 3), ['x', 'pe', 'xPe']);
  const w1 = live.step('weights', 1);
  const w0 = live.step('weights', 0);
  assert.deepEqual(live.step('weights', 1).data, w1.data);
  assert.notDeepEqual(w0.data, w1.data);
  live.dispose();
  assert.equal(live.disposed, true);
  assertAttentionError(() => live.step('x'), { code: 'DISPOSED' });
  live.dispose(); // twice is harmless
});

test('run({ steps }) copies only the steps asked for', () => {
  const trace = engine.run({ tokens: ['a', 'b'] }, { steps: ['weights', 'output'] });
  assert.deepEqual(Object.keys(trace.steps), ['weights', 'output']);
  assertAttentionError(() => trace.step('x'), { code: 'UNKNOWN_STEP' });
});

test('cross-attention: queries from one sentence, keys and values from another', () => {
  const trace = engine.run({ text: 'I love hotpot', kvText: '我爱吃火锅', dModel: 16, heads: 2 });
  assert.equal(trace.cross, true);
  assert.deepEqual(trace.kvTokens, ['我', '爱', '吃', '火锅']);
  const scores = trace.step('scores', 1);
  assert.equal(scores.rows, 3);
  assert.equal(scores.cols, 4);
  assert.deepEqual(scores.colLabels, trace.kvTokens);
  assert.ok(trace.stepNames.includes('xKv'));
});

test('the same word has the same embedding in every sentence', () => {
  const a = engine.run({ text: '我 爱 吃 火锅', dModel: 8 }).step('x');
  const b = engine.run({ text: '火锅 好吃', dModel: 8 }).step('x');
  assert.deepEqual(a.data.slice(24, 32), b.data.slice(0, 8));
});

test('tokenize() splits words, punctuation, CJK characters and keeps emoji whole', () => {
  assert.deepEqual(engine.tokenize('The cat, 猫追着球跑! 👨‍👩‍👧'), [
    'The',
    'cat',
    ',',
    '猫',
    '追',
    '着',
    '球',
    '跑',
    '!',
    '👨‍👩‍👧',
  ]);
  assert.deepEqual(engine.tokenize('   '), []);
});

test('parameter count of the product example: 1,050,624', () => {
  const live = engine.open({ tokens: ['a'], dModel: 512, heads: 8, bias: true });
  try {
    assert.equal(live.parameterCount, 1050624);
  } finally {
    live.dispose();
  }
});

test('limits come from the engine', () => {
  assert.deepEqual(engine.limits, {
    maxTokens: 2048,
    maxAttendTokens: 4096,
    maxTextBytes: 100000,
    maxTokenBytes: 1024,
    maxDModel: 1024,
    maxDK: 1024,
    maxProjectionWidth: 4096,
    minTemperature: 0.01,
    maxTemperature: 100,
    // A seed is a uint32, as np.random.seed takes.
    maxSeed: 2 ** 32 - 1,
    maxGenerate: 1024,
    // The largest model file loadModel can accept, counted by hand in tests/cpp/train_model_io_test.cpp
    // (MaxModelFileBytesIsTheFileOfTheLargestModel): 2^27 float32 parameters, 65,536 symbols of
    // 1,024 bytes, 1 MiB of configuration, 197 tensor headers (12 layers).
    maxModelFileBytes: 605296924,
    maxLiveTraces: 256,
    maxLiveBytes: 2 ** 30,
  });
});
