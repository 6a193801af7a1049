// Model files that pass every check of the reader but were forged to hurt and
// generation options the API used to ignore: a large vocabulary × context must not cost a
// gigabyte unless the caller asks for every position's logits (then a limit names vocabulary ×
// tokens); weights so large that the forward pass overflows are named as the model's fault at
// every entry point, and nothing is generated from their NaN logits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertAttentionError, createEngine, root } from './support.mjs';
import {
  corpusModelFile,
  hugeWeightsModelFile,
  largeVocabularyModelFile,
  parseModelFile,
  writeModelFile,
} from './corpus_model_support.mjs';

const engine = await createEngine();
const MiB = 2 ** 20;

test('a 65,536-symbol, 2,048-token model: trace and predict of 1,250 characters stay within 200 MiB of WASM memory', () => {
  const file = largeVocabularyModelFile(engine, { vocabSize: 65536, contextLength: 2048 });
  const model = engine.loadModel(file);
  try {
    assert.equal(model.vocabulary.length, 65536);
    assert.equal(model.contextLength, 2048);
    // 1,250 distinct-enough symbols of the vocabulary (none read as <unk>).
    const text = Array.from({ length: 1250 }, (_, i) => model.vocabulary[4 + ((i * 7919) % 65000)]).join('');
    const trace = model.trace(text, { steps: ['weights'] });
    const memory = engine.heapStats().memory;
    // T × V floats would be 312 MiB for each of logits, probabilities and their gradient.
    assert.ok(memory < 200 * MiB, `WASM memory ${(memory / MiB).toFixed(0)} MiB after the trace`);
    assert.equal(trace.ids.length, 1250);
    assert.equal(trace.unknown.filter(Boolean).length, 0);
    assert.equal(trace.layers[0].step('weights', 0).rows, 1250);
    // The last position's logits come with every trace, as predict() reads them.
    assert.equal(trace.nextLogits.length, 65536);
    const predicted = model.predict(text, { topK: 3 });
    assert.equal(predicted.predictions.length, 3);
    const top = predicted.predictions[0];
    assert.equal(trace.nextLogits[top.id], Math.max(...trace.nextLogits), 'predict reads the trace’s last logits');
    assert.equal(model.layerInput(text, 0).rows, 1250);
    assert.ok(engine.heapStats().memory < 200 * MiB, 'after predict and layerInput');
    // Every position's logits are an explicit request, with its own limit naming vocabulary × tokens.
    for (const steps of [undefined, ['logits'], ['weights', 'probabilities']]) {
      assertAttentionError(() => model.trace(text, steps ? { steps } : {}), {
        code: 'LIMIT_EXCEEDED',
        field: 'tokens',
        message: /vocabulary × tokens = 65536 × 1250 = 81920000 values/,
      });
    }
    // A short text may ask for them: 256 tokens × 65,536 is the limit.
    const short = Array.from(text).slice(0, 200).join('');
    const full = model.trace(short, { steps: ['logits'] });
    assert.equal(full.step('logits').rows, 200);
    assert.deepEqual(full.step('logits').data.subarray(199 * 65536), full.nextLogits);
    assert.ok(engine.heapStats().memory < 200 * MiB);
  } finally {
    model.dispose();
  }
});

test('a trace that does not ask for logits or probabilities has neither step; one that does has both', () => {
  const file = corpusModelFile(engine, { symbols: [...'床前明月光'], length: 8 });
  const model = engine.loadModel(file);
  try {
    const text = '床前明月光';
    const bounded = model.trace(text, { steps: ['weights'] });
    assertAttentionError(() => bounded.step('logits'), { code: 'UNKNOWN_STEP', field: 'step' });
    const full = model.trace(text);
    const logits = full.step('logits');
    assert.deepEqual(logits.data.subarray((logits.rows - 1) * logits.cols), bounded.nextLogits);
    assert.deepEqual(full.nextLogits, bounded.nextLogits);
  } finally {
    model.dispose();
  }
});

const OVERFLOW = {
  code: 'NON_FINITE',
  field: 'model',
  message: /^this model's forward pass overflows at layer 0 \(its q is not a finite number\)/,
};

test('weights of ±3.4e38 load, then every entry point names the model’s overflow, and nothing is generated', () => {
  const model = engine.loadModel(hugeWeightsModelFile(engine));
  try {
    assertAttentionError(() => model.predict('月光', { topK: 3 }), OVERFLOW);
    assertAttentionError(() => model.generate('月光', { count: 3 }), OVERFLOW);
    assertAttentionError(() => model.generate('月光', { count: 3, greedy: false, seed: 4 }), OVERFLOW);
    assertAttentionError(() => model.trace('月光'), OVERFLOW);
    assertAttentionError(() => model.trace('月光', { steps: ['weights'] }), OVERFLOW);
    assertAttentionError(() => model.trace({ tokens: [4, 5] }, { layer: 0 }), OVERFLOW);
    assertAttentionError(() => model.layerInput('月光', 0), OVERFLOW);
    assertAttentionError(() => model.headLabels('月光'), OVERFLOW);
  } finally {
    model.dispose();
  }
});

test('the CLI’s generate on such a model prints nothing and exits 1, naming the overflow', () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'attention-overflow-')), 'huge.model');
  writeFileSync(file, hugeWeightsModelFile(engine));
  const cli = path.join(root, 'bin/attention-explorer.mjs');
  for (const extra of [[], ['--seed', '3']]) {
    const run = spawnSync(process.execPath, [cli, 'generate', '--model', file, '月光', ...extra], { encoding: 'utf8' });
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /model: this model's forward pass overflows at layer 0 .*\[NON_FINITE\]/);
  }
});

test('an overflow after the blocks is named there', () => {
  // The blocks' weights as trained; a final LayerNorm gain of 3.4e38 takes its output beyond float.
  const file = corpusModelFile(engine, {
    symbols: [...'床前明月光'],
    length: 8,
    edit: (m) => ({
      ...m,
      tensors: m.tensors.map((t) => (t.name === 'lnFinalGain' ? { ...t, data: t.data.map(() => 3.4e38) } : t)),
    }),
  });
  const model = engine.loadModel(file);
  try {
    assertAttentionError(() => model.predict('床前', { topK: 3 }), {
      code: 'NON_FINITE',
      field: 'model',
      message: /^this model's forward pass overflows at its final LayerNorm \(its lnFinal is not a finite number\)/,
    });
  } finally {
    model.dispose();
  }
});

test('greedy generation refuses what shapes sampling (temperature, topK, seed), as the CLI does', () => {
  const model = engine.loadModel(corpusModelFile(engine, { symbols: [...'床前明月光'], length: 8 }));
  try {
    assertAttentionError(() => model.generate('床前', { greedy: true, temperature: 5 }), {
      code: 'INVALID_ARGUMENT',
      field: 'temperature',
      message: /^temperature \(5\) shapes sampling, which greedy: true does not do: give greedy: false too/,
    });
    assertAttentionError(() => model.generate('床前', { temperature: 0.5 }), {
      code: 'INVALID_ARGUMENT',
      field: 'temperature',
    });
    assertAttentionError(() => model.generate('床前', { topK: 2 }), { code: 'INVALID_ARGUMENT', field: 'topK' });
    assertAttentionError(() => model.generate('床前', { seed: 9 }), { code: 'INVALID_ARGUMENT', field: 'seed' });
    // The defaults, given or not, are greedy's own; sampling takes them all.
    const greedy = model.generate('床前', { count: 3 });
    assert.deepEqual(model.generate('床前', { count: 3, greedy: true, temperature: 1, topK: 0, seed: 1 }), greedy);
    const sampled = model.generate('床前', { count: 3, greedy: false, temperature: 5, topK: 2, seed: 9 });
    assert.equal(sampled.ids.length, 3);
  } finally {
    model.dispose();
  }
});

test('the page’s greedy continue, which sends its sampling settings along, is still greedy', async () => {
  const { modelHandlers } = await import('../../web/src/models/service.js');
  const handlers = modelHandlers(engine);
  const bytes = corpusModelFile(engine, { symbols: [...'床前明月光'], length: 8 });
  handlers.modelLoad({ name: 'poem', bytes });
  const model = engine.loadModel(bytes);
  try {
    const expected = model.generate({ text: '床前' }, { count: 1 }).text;
    // As panel-continue.js sends a second greedy click: the seed has moved on, the temperature is the slider's.
    const made = handlers.modelGenerate({ name: 'poem', text: '床前', greedy: true, temperature: 2, topK: 0, seed: 2 });
    assert.equal(made.text, expected);
  } finally {
    model.dispose();
    handlers.modelDispose({ name: 'poem' });
  }
});

test('forged weights (tensors scaled by 1e20 … 1e38, seeded): every answer is finite or names the model’s overflow', () => {
  const base = parseModelFile(corpusModelFile(engine, { symbols: [...'床前明月光'], length: 8 }));
  let state = 0x51f15e;
  const next = () => ((state ^= state << 13), (state ^= state >>> 17), (state ^= state << 5), state >>> 0);
  const start = engine.heapStats().inUse;
  let overflowed = 0;
  for (let i = 0; i < 40; i++) {
    // One to four tensors, each scaled by 10^k (k 20 … 38), clamped to ±3.4e38: still a valid file.
    const scaled = new Map();
    for (let n = 1 + (next() % 4); n > 0; n--) scaled.set(next() % base.tensors.length, 10 ** (20 + (next() % 19)));
    const tensors = base.tensors.map((t, at) =>
      scaled.has(at) ? { ...t, data: t.data.map((x) => Math.max(-3.4e38, Math.min(3.4e38, x * scaled.get(at)))) } : t,
    );
    const model = engine.loadModel(writeModelFile({ ...base, tensors }));
    try {
      const calls = {
        predict: () => model.predict('床前', { topK: 3 }).predictions.map((p) => p.probability),
        greedy: () => model.generate('床前', { count: 2 }).ids,
        sampled: () => model.generate('床前', { count: 2, greedy: false, seed: i }).ids,
        trace: () => model.trace('床前明', { steps: ['weights'] }).nextLogits,
        layerInput: () => model.layerInput('床前明', 0).data,
      };
      const refused = Object.entries(calls).filter(([name, call]) => {
        try {
          const values = Array.from(call());
          assert.ok(values.every(Number.isFinite), `forgery ${i}: ${name} answered ${values}`);
          return false;
        } catch (error) {
          if (error.code !== 'NON_FINITE') throw error;
          assert.equal(error.field, 'model', `forgery ${i}: ${name}`);
          assert.match(error.message, /^this model's forward pass overflows at /);
          return true;
        }
      });
      // predict and generate run the same pass: they refuse alike, and the trace too. (The
      // trace may refuse alone: the explorer forms q·kᵀ before scaling it; layerInput runs
      // layer 0 only.)
      const whole = ['predict', 'greedy', 'sampled'].filter((name) => refused.some(([n]) => n === name));
      if (whole.length) {
        overflowed++;
        assert.equal(whole.length, 3, `forgery ${i}: ${whole} refused, not all three`);
        assert.ok(
          refused.some(([n]) => n === 'trace'),
          `forgery ${i}: the trace answered`,
        );
      }
    } finally {
      model.dispose();
    }
  }
  assert.ok(overflowed >= 5, `${overflowed} of 40 forgeries overflow: the walk reaches the check`);
  assert.equal(engine.heapStats().inUse, start, 'nothing is left behind');
});
