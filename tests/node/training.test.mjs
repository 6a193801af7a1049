// Training from JS: a tiny trainer learns, its metrics are finite, a saved model
// loads back with the same trace, every damaged file and every bad configuration is refused
// with an AttentionError naming what is wrong, and nothing leaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAttentionError, createEngine } from './support.mjs';
import { Engine } from '../../dist/engine/engine.js';
import { compileModule } from '../../dist/engine/module.js';
import { TINY, reseal, replaceText, withConfig } from './training_support.mjs';

const engine = await createEngine();

test('a tiny sort model learns: the loss falls and every metric is finite', () => {
  const trainer = engine.createTrainer({ ...TINY, learningRate: 1e-2, warmupSteps: 10, totalSteps: 100 });
  try {
    const first = trainer.step(1);
    const metrics = [first];
    for (let i = 0; i < 10; i++) metrics.push(trainer.step(10));
    const last = metrics.at(-1);
    for (const m of metrics) {
      for (const key of ['step', 'loss', 'accuracy', 'gradientNorm', 'learningRate', 'tokensPerSecond']) {
        assert.ok(Number.isFinite(m[key]), `${key} (${m[key]}) is finite at step ${m.step}`);
      }
      assert.ok(m.accuracy >= 0 && m.accuracy <= 1);
      assert.ok(m.gradientNorm > 0 && m.tokensPerSecond > 0);
    }
    assert.equal(last.step, 101);
    assert.equal(trainer.steps, 101);
    // Warmup: the first update uses learningRate · 1/10; the cosine ends at minLearningRate.
    assert.ok(Math.abs(first.learningRate - 1e-2 / 10) < 1e-12, `lr ${first.learningRate}`);
    assert.ok(Math.abs(last.learningRate - 1e-4) < 1e-9, `lr ${last.learningRate}`);
    // ln 5 ≈ 1.61 is a uniform guess over the 5 symbols; a learning model goes far below it.
    assert.ok(first.loss > 1.3, `first loss ${first.loss}`);
    assert.ok(last.loss < 0.6 * first.loss, `loss ${first.loss} → ${last.loss}`);
    assert.ok(last.accuracy > 0.6, `accuracy ${last.accuracy}`);
    const held = trainer.evaluate(200);
    assert.equal(held.examples, 200);
    assert.ok(Number.isFinite(held.loss) && held.loss < first.loss, `held-out loss ${held.loss}`);
    assert.ok(held.tokenAccuracy > 0.5, `held-out token accuracy ${held.tokenAccuracy}`);
  } finally {
    trainer.dispose();
  }
});

test('the same seed trains to the same numbers', () => {
  const run = () => {
    const t = engine.createTrainer(TINY);
    try {
      return [t.step(5).loss, t.save()];
    } finally {
      t.dispose();
    }
  };
  const [lossA, fileA] = run();
  const [lossB, fileB] = run();
  assert.equal(lossA, lossB);
  assert.deepEqual(fileA, fileB);
});

test("threads splits the batch into shards: the first loss is the whole batch's, the run reproducible", () => {
  // This build runs the shards one after another; the threaded one at once, to the same numbers.
  const run = (threads, steps) => {
    const t = engine.createTrainer({ ...TINY, batchSize: 9, threads });
    try {
      const first = t.step(1).loss;
      if (steps > 1) t.step(steps - 1);
      return { first, file: t.save() };
    } finally {
      t.dispose();
    }
  };
  const one = run(1, 1);
  for (const threads of [2, 3]) {
    const split = run(threads, 1);
    assert.ok(Math.abs(split.first - one.first) < 1e-6 * one.first, `${threads}: ${split.first} vs ${one.first}`);
    assert.notDeepEqual(split.file, one.file, 'the shards add in another order than one pass does');
  }
  assert.deepEqual(run(3, 20).file, run(3, 20).file);
});

test("save → loadModel gives the trainer's trace, every step of every layer and head", () => {
  const trainer = engine.createTrainer({ ...TINY, layers: 2 });
  const bytes = (trainer.step(30), trainer.save());
  const model = engine.loadModel(bytes);
  try {
    const { format, vocabulary, task, taskLength, taskAlphabet, layers, dModel, vocabSize, contextLength } =
      model.config;
    assert.deepEqual(
      { format, vocabulary, task, taskLength, taskAlphabet, layers, dModel, vocabSize, contextLength },
      {
        format: 'attention-explorer model',
        vocabulary: 'task',
        task: 'sort',
        taskLength: 4,
        taskAlphabet: 5,
        layers: 2,
        dModel: 32,
        vocabSize: 6,
        contextLength: 8,
      },
    );
    assert.equal(model.parameterCount, trainer.parameterCount);
    assert.deepEqual(model.vocabulary, ['0', '1', '2', '3', '4', '|']);
    const input = { text: '3 1 4 2 | 1' };
    const a = trainer.trace(input);
    const b = model.trace(input);
    assert.deepEqual(b.tokens, ['3', '1', '4', '2', '|', '1']);
    assert.deepEqual(a.stepNames, ['embedding', 'lnFinal', 'logits', 'probabilities']);
    assert.equal(b.layers.length, 2);
    for (const name of ['ln1', 'attention', 'residual1', 'ln2', 'ffnHidden', 'ffnActivation', 'ffnOut', 'residual2'])
      assert.ok(b.layers[1].stepNames.includes(name), name);
    let compared = 0;
    const same = (x, y) => {
      assert.deepEqual([x.rows, x.cols, x.rowLabels, x.colLabels], [y.rows, y.cols, y.rowLabels, y.colLabels]);
      assert.deepEqual(x.data, y.data, `${x.name} layer ${x.layer} head ${x.head}`);
      compared++;
    };
    for (const name of a.stepNames) same(a.step(name), b.step(name));
    for (let l = 0; l < 2; l++) {
      for (const name of a.layers[l].stepNames) {
        for (const s of [a.layers[l].steps[name]].flat()) same(s, b.layers[l].step(name, s.head ?? 0));
      }
    }
    assert.ok(compared > 100, `${compared} steps compared`);
    // The probabilities: one row per position, columns labelled with the vocabulary, rows sum to 1.
    const p = b.step('probabilities');
    assert.deepEqual([p.rows, p.cols, p.colLabels], [6, 6, model.vocabulary]);
    for (let i = 0; i < p.rows; i++) {
      const sum = p.data.subarray(i * p.cols, (i + 1) * p.cols).reduce((s, v) => s + v, 0);
      assert.ok(Math.abs(sum - 1) < 1e-5, `row ${i} sums to ${sum}`);
    }
    // A layer alone is shaped like engine.run()'s result.
    const layer = model.trace({ tokens: [3, 1, 4, 2, 5] }, { layer: 1 });
    assert.equal(layer.step('weights', 3).rows, 5);
    assert.deepEqual(layer.step('weights', 3).colLabels, ['3', '1', '4', '2', '|']);
    // Causal: no query sees a later key.
    assert.equal(layer.step('weights', 0).data[1], 0);
  } finally {
    trainer.dispose();
    model.dispose();
  }
});

test("each layer's explorer trace recomputes the model's own attention output", () => {
  for (const extra of [
    {},
    { attentionOnly: true, dK: 4 },
    { causal: false, scale: false, positionalEncoding: 'learned' },
  ]) {
    const trainer = engine.createTrainer({ ...TINY, ...extra });
    try {
      trainer.step(5);
      const trace = trainer.trace({ text: '40312|' });
      for (const layer of trace.layers) {
        const output = layer.step('output').data;
        const attention = layer.step('attention').data;
        let worst = 0;
        let largest = 1e-6;
        output.forEach((v, i) => {
          worst = Math.max(worst, Math.abs(v - attention[i]));
          largest = Math.max(largest, Math.abs(attention[i]));
        });
        assert.ok(worst / largest < 1e-5, `${JSON.stringify(extra)} layer ${layer.layer}: ${worst / largest}`);
        assert.equal(layer.stepNames.includes('ln1'), !extra.attentionOnly);
        assert.equal(layer.stepNames.includes('ffnHidden'), !extra.attentionOnly);
      }
      assert.equal(trace.stepNames.includes('lnFinal'), !extra.attentionOnly);
    } finally {
      trainer.dispose();
    }
  }
});

test('a float16 model file loads with probabilities close to float32', () => {
  const trainer = engine.createTrainer(TINY);
  trainer.step(20);
  const half = trainer.save({ precision: 'float16' });
  const full = trainer.save();
  assert.ok(half.length < 0.6 * full.length, `${half.length} vs ${full.length} bytes`);
  const model = engine.loadModel(half);
  try {
    const a = trainer.trace({ text: '2 2 0 1 |' }).step('probabilities').data;
    const b = model.trace({ text: '2 2 0 1 |' }).step('probabilities').data;
    a.forEach((v, i) => assert.ok(Math.abs(v - b[i]) < 1e-2, `${v} vs ${b[i]}`));
  } finally {
    trainer.dispose();
    model.dispose();
  }
});

test('every class of bad model file is refused, naming what is wrong', () => {
  const trainer = engine.createTrainer(TINY);
  const file = trainer.save();
  trainer.dispose();
  const refuses = (bytes, field, code, message) =>
    assertAttentionError(() => engine.loadModel(bytes), { code, field, message });
  refuses(new Uint8Array(0), 'model.size', 'INVALID_ARGUMENT');
  refuses(file.slice(0, file.length - 100), 'model.size', 'INVALID_ARGUMENT', /truncated/);
  refuses(file.slice(0, 30), 'model.size', 'INVALID_ARGUMENT', /truncated/);
  refuses(new Uint8Array([...file, 0]), 'model.size', 'INVALID_ARGUMENT');
  refuses(
    Uint8Array.from(file, (b, i) => (i === 0 ? 0x41 ^ 1 : b)),
    'model.magic',
    'INVALID_ARGUMENT',
  );
  const altered = file.slice();
  altered[file.length - 200] ^= 0x10;
  refuses(altered, 'model.checksum', 'INVALID_ARGUMENT');
  const version = file.slice();
  new DataView(version.buffer).setUint32(8, 2, true);
  refuses(version, 'model.version', 'INVALID_ARGUMENT', /2/);
  // A NaN with a valid checksum: the last float32 of the last tensor.
  const nan = reseal(file, (b) => new DataView(b.buffer).setFloat32(b.length - 12, NaN, true));
  refuses(nan, /^model\.tensors\[\d+\]\.data$/, 'NON_FINITE', /NaN|nan/);
  // The configuration: not the format, a field out of range, a shape the tensors do not have.
  const edit = (from, to) => reseal(file, (b) => replaceText(b, from, to));
  refuses(
    edit('"format":"attention-explorer model"', '"format":"attention-explorer xodel"'),
    'model.config.format',
    'INVALID_ARGUMENT',
  );
  refuses(edit('"layers":2', '"layers":0'), 'model.config.layers', 'INVALID_ARGUMENT', /from 1 to 12/);
  refuses(edit('"task":"sort"', '"task":"sorx"'), 'model.config.task', 'INVALID_ARGUMENT', /copy, reverse, sort/);
  refuses(edit('"dModel":32', '"dModel":16'), 'model.tensors.tokenEmbedding', 'SHAPE_MISMATCH');
  refuses(edit('{"', '["'), 'model.config', 'INVALID_ARGUMENT');
  // A corpus model's vocabulary starts with the special tokens; a task's does not.
  refuses(edit('"vocabulary":"task"', '"vocabulary":"word"'), 'model.vocabulary[0]', 'INVALID_ARGUMENT', /<pad>/);
  refuses(
    edit('"vocabulary":"task"', '"vocabulary":"taxi"'),
    'model.config.vocabulary',
    'INVALID_ARGUMENT',
    /task, character, word/,
  );
  refuses(edit('"taskAlphabet":5', '"taskAlphabet":6'), 'model.config.task', 'SHAPE_MISMATCH', /vocabSize 7/);
  refuses(edit('"vocabSize":6', '"vocabSize":7'), 'model.vocabulary', 'SHAPE_MISMATCH');
  assertAttentionError(() => engine.loadModel('not bytes'), { code: 'INVALID_ARGUMENT', field: 'bytes' });
  assertAttentionError(() => engine.loadModel([1, 2, 3]), { code: 'INVALID_ARGUMENT', field: 'bytes' });
});

test('bad trainer configurations are refused with the field and the allowed values', () => {
  const refuses = (config, field, message) =>
    assertAttentionError(() => engine.createTrainer(config), { code: 'INVALID_ARGUMENT', field, message });
  refuses({ task: 'sorting' }, 'task', /must be one of copy, reverse, sort, induction, modular/);
  refuses({ layers: 13 }, 'layers', /^layers \(13\) must be an integer from 1 to 12$/);
  refuses({ layers: 0 }, 'layers', /from 1 to 12/);
  refuses({ layers: 2.5 }, 'layers', /integer/);
  refuses({ heads: '4' }, 'heads', /heads \("4"\) must be an integer/);
  refuses({ dModel: 2000 }, 'dModel', /from 1 to 1024/);
  refuses({ dModel: 30, heads: 4 }, 'heads', /divide/); // checked in C++
  refuses({ task: 'induction', length: 1 }, 'length', /./); // checked in C++
  refuses({ learningRate: 0 }, 'learningRate', /greater than 0/);
  refuses({ learningRate: NaN }, 'learningRate', /NaN/);
  refuses({ beta2: 1 }, 'beta2', /from 0 to/);
  refuses({ batchSize: 0 }, 'batchSize', /from 1 to 4096/);
  refuses({ seed: -1 }, 'seed', /from 0 to 4294967295/);
  refuses(
    { threads: 0 },
    'threads',
    /^threads \(0\) must be an integer from 1 to 64 \(the batch's shards, run at once\)$/,
  );
  refuses({ positionalEncoding: 'rotary' }, 'positionalEncoding', /sinusoidal, learned/);
  refuses({ causal: 'yes' }, 'causal', /true or false/);
  refuses({ layer: 2 }, 'layer', /unknown field "layer"; fields are: task, length/);
  refuses({ toString: 1 }, 'toString', /unknown field/);
  refuses(null, 'config', /must be an object/);
  refuses([], 'config', /must be an object/);
});

test('bad calls on a trainer or model are refused', () => {
  const trainer = engine.createTrainer(TINY);
  try {
    assertAttentionError(() => trainer.step(0), { code: 'INVALID_ARGUMENT', field: 'count' });
    assertAttentionError(() => trainer.step(1.5), { code: 'INVALID_ARGUMENT', field: 'count' });
    assertAttentionError(() => trainer.trace({ text: '3 1 x' }), {
      code: 'INVALID_ARGUMENT',
      field: 'text',
      message: /^text \("x"\) is not in the vocabulary: 0 1 2 3 4 \|$/,
    });
    assertAttentionError(() => trainer.trace({ tokens: [1, 6] }), {
      code: 'INVALID_ARGUMENT',
      field: 'tokens[1]',
      message: /from 0 to 5/,
    });
    assertAttentionError(() => trainer.trace({ tokens: [] }), { code: 'LIMIT_EXCEEDED', field: 'tokens' });
    assertAttentionError(() => trainer.trace({ text: '0 1 2 3 | 0 1 2 3' }), {
      code: 'LIMIT_EXCEEDED',
      field: 'tokens',
      message: /1 to 8/,
    });
    assertAttentionError(() => trainer.trace({ text: '0 1' }, 2), {
      code: 'INVALID_ARGUMENT',
      field: 'layer',
      message: /from 0 to 1/,
    });
    assertAttentionError(() => trainer.trace('0 1'), { code: 'INVALID_ARGUMENT', field: 'input' });
    const traced = trainer.trace({ text: '0 1' });
    for (const head of ['__proto__', 'length', -1, 1.5, '0'])
      assertAttentionError(() => traced.layers[0].step('weights', head), { code: 'UNKNOWN_STEP', field: 'head' });
    assertAttentionError(() => traced.layers[0].step('output', 1), {
      code: 'UNKNOWN_STEP',
      field: 'head',
      message: /from 0 to 0/,
    });
    assertAttentionError(() => traced.step('toString'), { code: 'UNKNOWN_STEP', field: 'step' });
    assertAttentionError(() => trainer.trace({ text: '0 1' }).layers[0].step('weights', 4), {
      code: 'UNKNOWN_STEP',
      field: 'head',
    });
    assertAttentionError(() => trainer.save({ precision: 'int8' }), { code: 'INVALID_ARGUMENT', field: 'precision' });
  } finally {
    trainer.dispose();
  }
  assertAttentionError(() => trainer.step(1), { code: 'DISPOSED', field: 'model' });
  trainer.dispose(); // twice is harmless
});

test('200 create / step / trace / save / dispose cycles do not grow the WASM heap', () => {
  const cycle = (i) => {
    const trainer = engine.createTrainer({ ...TINY, dModel: 8, heads: 2, batchSize: 2, seed: i });
    trainer.step(1);
    if (i % 10 === 0) {
      trainer.trace({ text: '1 2 |' });
      const model = engine.loadModel(trainer.save());
      model.trace({ tokens: [0, 1] });
      model.dispose();
    }
    if (i % 25 === 0)
      assertAttentionError(() => engine.loadModel(new Uint8Array(9)), {
        code: 'INVALID_ARGUMENT',
        field: 'model.magic',
      });
    trainer.dispose();
  };
  cycle(0);
  const start = engine.heapStats();
  for (let i = 1; i <= 200; i++) cycle(i);
  const end = engine.heapStats();
  console.log(`  heap in use: start ${start.inUse} B, end ${end.inUse} B; memory ${start.memory} → ${end.memory} B`);
  assert.equal(end.inUse, start.inUse, 'every allocation of every cycle was freed');
  assert.equal(end.memory, start.memory, 'WASM memory did not grow');
});

test('forged files (any header byte changed, checksum recomputed) load or are refused, never crash', () => {
  const trainer = engine.createTrainer({ ...TINY, layers: 1, dModel: 8, heads: 2 });
  const file = trainer.save();
  trainer.dispose();
  // The header, configuration, vocabulary and the first tensor headers: where a changed byte
  // moves every offset after it. A seeded walk (xorshift) over positions and values.
  let state = 0x2545f491;
  const next = () => ((state ^= state << 13), (state ^= state >>> 17), (state ^= state << 5), state >>> 0);
  const start = engine.heapStats().inUse;
  let refused = 0;
  for (let i = 0; i < 400; i++) {
    const at = next() % 700;
    const forged = reseal(file, (b) => (b[at] = (b[at] + 1 + (next() % 255)) & 0xff));
    try {
      engine.loadModel(forged).dispose();
    } catch (error) {
      assert.equal(error.name, 'AttentionError', `byte ${at}: ${error.stack}`);
      assert.ok(error.field.startsWith('model'), `byte ${at}: field ${error.field}`);
      refused++;
    }
  }
  assert.ok(refused > 200, `${refused} of 400 refused: the forgeries reach the checks`);
  assert.equal(engine.heapStats().inUse, start, 'refused files leave nothing behind');
});

test('a forged configuration cannot make the engine allocate more than the file holds', () => {
  const trainer = engine.createTrainer({ ...TINY, layers: 1, dModel: 8, heads: 2 });
  const file = trainer.save();
  trainer.dispose();
  const same = withConfig(file, (config) => config);
  engine.loadModel(same).dispose(); // the helper itself keeps a file valid
  const huge = withConfig(file, (c) => ({ ...c, layers: 6, dModel: 256 }));
  const before = engine.heapStats().memory;
  assertAttentionError(() => engine.loadModel(huge), {
    code: 'SHAPE_MISMATCH',
    field: 'model.tensors.tokenEmbedding',
    message: /256/,
  });
  assert.equal(engine.heapStats().memory, before, 'WASM memory did not grow');
});

test('a trainer that would exhaust WASM memory is refused before it allocates', () => {
  const before = engine.heapStats().memory;
  assertAttentionError(() => engine.createTrainer({ layers: 2, dModel: 64, batchSize: 4096, length: 256 }), {
    code: 'LIMIT_EXCEEDED',
    field: 'batchSize',
    message: /needs \d+ MiB .* 4096 sequences of 512 tokens\); the engine allows 1024 MiB/,
  });
  assertAttentionError(
    () => engine.createTrainer({ layers: 6, dModel: 1024, heads: 8, dFF: 4096, batchSize: 1, length: 256 }),
    {
      code: 'LIMIT_EXCEEDED',
      field: 'dModel',
    },
  );
  assert.equal(engine.heapStats().memory, before, 'WASM memory did not grow');
});

test('a failure inside WASM during a step becomes INTERNAL; the trainer is orphaned, a fresh one trains', async () => {
  const instantiate = await compileModule();
  const instances = [];
  const fresh = new Engine(() => {
    const module = instantiate();
    instances.push(module);
    return module;
  });
  const trainer = fresh.createTrainer(TINY);
  const model = fresh.loadModel(trainer.save());
  const expected = trainer.step(2).loss;
  // The next step traps, as a step that ran out of memory would.
  instances[0].ModelHandle.prototype.step = () => {
    throw new WebAssembly.RuntimeError('memory access out of bounds');
  };
  assertAttentionError(() => trainer.step(1), { code: 'INTERNAL', field: 'engine', message: /a fresh instance/ });
  assert.equal(instances.length, 2, 'the instance was replaced');
  assertAttentionError(() => trainer.step(1), { code: 'DISPOSED', field: 'model', message: /restarted/ });
  assertAttentionError(() => model.trace({ text: '1 2' }), { code: 'DISPOSED', field: 'model', message: /restarted/ });
  trainer.dispose(); // harmless
  model.dispose();
  const again = fresh.createTrainer(TINY);
  assert.equal(again.step(2).loss, expected, 'the fresh instance trains to the same numbers');
  again.dispose();
});
