// The heads of a long trace on the threaded engine (dist/engine-mt): its engine
// spreads them over every core (Trace::Run's pool), and the trace is the single-threaded engine's
// bit for bit, every step of every head; an overflowing head fails with the same error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEngine as createThreaded } from '../../dist/engine-mt/engine.js';
import { createEngine } from './support.mjs';
import { corpusModelFile } from './corpus_model_support.mjs';

const threaded = await createThreaded();
const single = await createEngine();
// 640 tokens, 8 heads: far above the work from which heads are spread (Trace::kMinSpreadWork).
const tokens = Array.from({ length: 640 }, (_, i) => `t${(i * 7) % 97}`);
const OPTIONS = { tokens, dModel: 64, heads: 8, mask: { type: 'causal' }, seed: 3 };

/** Every step of every head, as Float32Arrays by "name:head". */
function steps(engine, options) {
  const live = engine.open(options);
  try {
    const out = new Map();
    for (const name of live.stepNames) {
      const heads = live.info(name).perHead ? live.heads : 1;
      for (let h = 0; h < heads; h++) out.set(`${name}:${h}`, live.step(name, h).data);
    }
    return out;
  } finally {
    live.dispose();
  }
}

const bits = (data) => new Uint32Array(data.buffer, data.byteOffset, data.length);

test('the threaded engine runs more than one thread here', { skip: threaded.threads < 2 && 'one core' }, () => {
  assert.ok(threaded.threads >= 2);
});

test("a long trace from the threaded engine is the single-threaded engine's, bit for bit", () => {
  const a = steps(threaded, OPTIONS);
  const b = steps(single, OPTIONS);
  assert.deepEqual([...a.keys()], [...b.keys()]);
  assert.ok(a.has('headOutput:7') && a.has('rowEntropy:7'));
  for (const [key, data] of a) {
    assert.ok(
      bits(data).every((v, i) => v === bits(b.get(key))[i]),
      `${key} differs`,
    );
  }
});

test('an overflowing head fails with the same error in both engines', () => {
  // Head 5's columns of W_Q and W_K are huge: its Q·Kᵀ overflows float32, the other heads' do not.
  const huge = (name) => {
    const live = single.open({ ...OPTIONS, tokens: tokens.slice(0, 2) });
    try {
      const w = live.step(name);
      for (let r = 0; r < w.rows; r++) w.data.fill(1e30, r * w.cols + 40, r * w.cols + 48);
      return { data: w.data, rows: w.rows, cols: w.cols };
    } finally {
      live.dispose();
    }
  };
  const options = { ...OPTIONS, given: { wQ: huge('wQ'), wK: huge('wK') } };
  const failure = (engine) => {
    try {
      engine.open(options).dispose();
    } catch (error) {
      return { name: error.name, code: error.code, field: error.field, message: error.message };
    }
    return null;
  };
  const expected = failure(single);
  assert.equal(expected?.code, 'NON_FINITE');
  assert.match(expected.message, /head 5/);
  assert.deepEqual(failure(threaded), expected);
});

test("a trained model's trace from the threaded engine is the single-threaded engine's, bit for bit", () => {
  // Each layer's attention is traced on the engine's pool too (bindings/model_trace.cpp): at 128
  // tokens and 8 heads both Q, K, V and the heads are spread (n·n·heads = 131,072 ≥ 65,536).
  const file = corpusModelFile(single, {
    symbols: [...'abcdefghij'],
    length: 64,
    layers: 2,
    heads: 8,
    dModel: 64,
    initStd: 0.02,
  });
  const models = [threaded.loadModel(file), single.loadModel(file)];
  try {
    const input = { tokens: Array.from({ length: 128 }, (_, i) => 4 + ((i * 7) % 10)) };
    const [a, b] = models.map((model) => model.trace(input));
    let compared = 0;
    for (const [l, layer] of a.layers.entries()) {
      for (const name of layer.stepNames) {
        const heads = Array.isArray(layer.steps[name]) ? layer.heads : 1;
        for (let h = 0; h < heads; h++) {
          const x = bits(layer.step(name, h).data);
          const y = bits(b.layers[l].step(name, h).data);
          assert.ok(x.length === y.length && x.every((v, i) => v === y[i]), `layer ${l} ${name}:${h} differs`);
          compared++;
        }
      }
    }
    assert.ok(compared > 2 * 8 * 10, `every head's steps of both layers (${compared})`);
    assert.ok(
      bits(a.nextLogits).every((v, i) => v === bits(b.nextLogits)[i]),
      'the next-token logits',
    );
  } finally {
    for (const model of models) model.dispose();
  }
});
