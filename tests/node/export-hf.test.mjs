// Our models exported as Hugging Face GPT-2 checkpoints (model.exportCheckpoint(), `attention-explorer
// export-hf`): read back by engine.loadCheckpoint they give the original model's logits and every
// layer's attention weights; GPT-2's forward pass in NumPy (tests/reference/export_forward.py over
// gpt2_reference.py) on the exported files gives the engine's; what GPT-2 cannot express is
// refused by its key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TOLERANCE, assertAttentionError, createEngine, relativeError, root } from './support.mjs';
import { GPT2_REFUSALS, TINY } from './training_support.mjs';
import { vocabText } from '../../bin/export_hf.mjs';
import { readModelFile } from '../../dist/engine/hf_export.js';

const engine = await createEngine();
const SHIPPED = ['tang', 'brown'];
const modelBytes = (name) => readFileSync(path.join(root, 'models', `${name}.model`));
const asReference = (step) => ({ shape: [step.rows, step.cols], data: Array.from(step.data) });

/** A small sort model of GPT-2's shape, trained a few steps. */
function trainedTaskModel() {
  const trainer = engine.createTrainer({ ...TINY, positionalEncoding: 'learned' });
  try {
    trainer.step(20);
    return trainer.save();
  } finally {
    trainer.dispose();
  }
}

/** Largest relative errors of trace `a` against trace `b` (both { layers[l].step, step }). */
function traceErrors(a, b, layers, heads) {
  let attention = 0;
  for (let l = 0; l < layers; l++) {
    for (let h = 0; h < heads; h++) {
      attention = Math.max(
        attention,
        relativeError(a.layers[l].step('weights', h), asReference(b.layers[l].step('weights', h))),
      );
    }
  }
  return { attention, logits: relativeError(a.step('logits'), asReference(b.step('logits'))) };
}

/** Token ids to read: the document start first when the model has one, then seeded ids. */
function idsFor(model, count) {
  let seed = 11;
  const ids = Array.from({ length: count }, () => (seed = (seed * 48271) % 2147483647) % model.vocabulary.length);
  const start = model.vocabulary.indexOf(model.config.documentStart);
  return start >= 0 ? [start, ...ids.slice(1)] : ids;
}

const cases = [
  ...SHIPPED.map((name) => [name, () => modelBytes(name)]),
  ['a freshly trained sort model', trainedTaskModel],
];

for (const [name, bytesOf] of cases) {
  test(`export-hf of ${name} → loadCheckpoint: the same logits and attention weights in every layer`, () => {
    const bytes = bytesOf();
    const original = engine.loadModel(bytes);
    const exported = original.exportCheckpoint();
    const checkpoint = engine.loadCheckpoint({ config: exported.config, safetensors: exported.safetensors });
    try {
      assert.equal(checkpoint.parameterCount, original.parameterCount);
      const ids = idsFor(original, Math.min(original.config.contextLength, 24));
      const { layers, heads } = original.config;
      const errors = traceErrors(checkpoint.trace({ tokens: ids }), original.trace({ tokens: ids }), layers, heads);
      console.log(`${name}: ${ids.length} tokens, relative errors`, errors);
      assert.ok(errors.attention < 1e-6, `attention weights: relative error ${errors.attention}`);
      assert.ok(errors.logits < 1e-6, `logits: relative error ${errors.logits}`);
    } finally {
      checkpoint.dispose();
      original.dispose();
    }
  });
}

for (const [name, bytesOf] of [
  ['tang', () => modelBytes('tang')],
  ['a freshly trained sort model', trainedTaskModel],
]) {
  test(`GPT-2's forward pass in NumPy on the exported ${name} gives the engine's logits and weights`, () => {
    const bytes = bytesOf();
    const folder = mkdtempSync(path.join(tmpdir(), 'export-hf-'));
    const original = engine.loadModel(bytes);
    try {
      const exported = original.exportCheckpoint();
      writeFileSync(path.join(folder, 'config.json'), JSON.stringify(exported.config));
      writeFileSync(path.join(folder, 'model.safetensors'), exported.safetensors);
      const ids = idsFor(original, Math.min(original.config.contextLength, 12));
      const run = spawnSync(
        '/usr/bin/python3',
        [path.join(root, 'tests/reference/export_forward.py'), folder, ids.join(',')],
        {
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      assert.equal(run.status, 0, run.stderr);
      const expected = JSON.parse(run.stdout);
      const trace = original.trace({ tokens: ids });
      let attention = 0;
      expected.attention.forEach((heads, l) =>
        heads.forEach((reference, h) => {
          attention = Math.max(attention, relativeError(trace.layers[l].step('weights', h), reference));
        }),
      );
      const logits = relativeError(trace.step('logits'), expected.logits);
      console.log(`${name} against NumPy: relative errors`, { attention, logits });
      assert.ok(attention < TOLERANCE, `attention weights: relative error ${attention}`);
      assert.ok(logits < TOLERANCE, `logits: relative error ${logits}`);
    } finally {
      original.dispose();
      rmSync(folder, { recursive: true, force: true });
    }
  });
}

test('a GPT-2 checkpoint opened by loadCheckpoint is not exported again: its files are already one', () => {
  const folder = path.join(root, 'tests/fixtures/hf-tiny-gpt2');
  const model = engine.loadCheckpoint({
    config: readFileSync(path.join(folder, 'config.json'), 'utf8'),
    safetensors: readFileSync(path.join(folder, 'model.safetensors')),
  });
  try {
    assertAttentionError(() => model.exportCheckpoint(), {
      code: 'INVALID_ARGUMENT',
      message: /GPT-2 checkpoint stays in its config\.json and model\.safetensors/,
    });
  } finally {
    model.dispose();
  }
});

for (const name of SHIPPED) {
  test(`the README's Python reads ${name}'s vocab.txt into the ids the engine reads the same text as`, () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'export-hf-readme-'));
    const model = engine.loadModel(modelBytes(name));
    try {
      const run = spawnSync(
        process.execPath,
        [path.join(root, 'bin/attention-explorer.mjs'), 'export-hf', path.join(root, `models/${name}.model`), folder],
        { encoding: 'utf8' },
      );
      assert.equal(run.status, 0, run.stderr);
      // The snippet's vocabulary and ids lines, as written, with the folder put in.
      const readme = readFileSync(path.join(folder, 'README.md'), 'utf8');
      const lines = readme.split('```python\n')[1].split('```')[0].split('\n').filter(Boolean);
      assert.equal(lines.length, 5, 'a five-line snippet');
      const python = [
        'import json',
        ...lines.slice(2, 4).map((line) => line.replaceAll('path/to/this/folder', folder)),
        'print(json.dumps({"x": x, "text": "".join(vocab[i] for i in x)}))',
      ].join('\n');
      const out = spawnSync('/usr/bin/python3', ['-c', python], { encoding: 'utf8' });
      assert.equal(out.status, 0, out.stderr);
      const { x } = JSON.parse(out.stdout);
      const text = lines[3].match(/for \w in "([^"]+)"/)[1];
      assert.deepEqual(x, Array.from(model.encode(text).ids));
    } finally {
      model.dispose();
      rmSync(folder, { recursive: true, force: true });
    }
  });
}

test("the exporter's reader widens a float16 model file (tang.model) as the engine does", () => {
  const bytes = modelBytes('tang');
  const model = engine.loadModel(bytes);
  const widened = readModelFile(model.save()); // float32, widened by the engine
  model.dispose();
  const stored = readModelFile(bytes); // float16, widened by hf_export.js
  assert.deepEqual(Object.keys(stored.tensors), Object.keys(widened.tensors));
  for (const [name, { shape, data }] of Object.entries(stored.tensors)) {
    assert.deepEqual(shape, widened.tensors[name].shape, name);
    assert.ok(
      data.every((v, i) => Object.is(v, widened.tensors[name].data[i])),
      `${name}: every value as the engine widens it`,
    );
  }
  assert.deepEqual(stored.vocabulary, widened.vocabulary);
});

test('config.json says what GPT2Config needs, and vocab.txt is the vocabulary in id order', () => {
  const model = engine.loadModel(modelBytes('tang'));
  const { config, vocabulary } = model.exportCheckpoint();
  model.dispose();
  assert.deepEqual(
    {
      model_type: config.model_type,
      architectures: config.architectures,
      activation_function: config.activation_function,
      layer_norm_epsilon: config.layer_norm_epsilon,
      tie_word_embeddings: config.tie_word_embeddings,
      scale_attn_weights: config.scale_attn_weights,
      sizes: [config.vocab_size, config.n_positions, config.n_embd, config.n_layer, config.n_head],
      ids: [config.bos_token_id, config.eos_token_id, config.pad_token_id],
    },
    {
      model_type: 'gpt2',
      architectures: ['GPT2LMHeadModel'],
      activation_function: 'gelu_new',
      layer_norm_epsilon: 1e-5,
      tie_word_embeddings: true,
      scale_attn_weights: true,
      sizes: [5000, 64, 128, 4, 4],
      ids: [2, 3, 0],
    },
  );
  const lines = vocabText(vocabulary).split('\n').slice(0, -1);
  assert.equal(lines.length, 5000);
  assert.equal(lines[6], '\\n', 'the line break the Tang model reads first is written \\n');
  assert.equal(lines[4], '，');
});

// Each switch GPT-2 does not have, on a tiny trained model (else GPT-2's shape), by its key.
for (const [change, key] of GPT2_REFUSALS) {
  test(`export-hf refuses a model of ${JSON.stringify(change)} naming model.config.${key}`, () => {
    const trainer = engine.createTrainer({ ...TINY, positionalEncoding: 'learned', ...change });
    try {
      assertAttentionError(() => trainer.exportCheckpoint(), {
        code: 'INVALID_ARGUMENT',
        field: `model.config.${key}`,
        message: new RegExp(`^model\\.config\\.${key}`),
      });
    } finally {
      trainer.dispose();
    }
  });
}

test('attention-explorer export-hf writes the folder, and refuses by the key with exit 1', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'export-hf-cli-'));
  const cli = (...args) =>
    spawnSync(process.execPath, [path.join(root, 'bin/attention-explorer.mjs'), 'export-hf', ...args], {
      encoding: 'utf8',
    });
  try {
    const out = path.join(folder, 'brown');
    const run = cli(path.join(root, 'models/brown.model'), out);
    assert.equal(run.status, 0, run.stderr);
    for (const file of ['config.json', 'model.safetensors', 'vocab.txt', 'README.md']) {
      assert.ok(existsSync(path.join(out, file)), file);
    }
    const readme = readFileSync(path.join(out, 'README.md'), 'utf8');
    assert.match(readme, /GPT2LMHeadModel\.from_pretrained/);
    assert.match(readme, /lower-cased/);
    const trainer = engine.createTrainer(TINY); // sinusoidal positions, the trainer's default
    const sinusoidal = path.join(folder, 'sinusoidal.model');
    writeFileSync(sinusoidal, trainer.save());
    trainer.dispose();
    const refused = cli(sinusoidal, path.join(folder, 'no'));
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /model\.config\.positionalEncoding/);
    assert.equal(existsSync(path.join(folder, 'no')), false, 'nothing is written for a refused model');
    assert.equal(cli(path.join(folder, 'missing.model'), out).status, 2);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
