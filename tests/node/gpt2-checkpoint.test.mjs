// GPT-2 checkpoints through the public JS API on the WASM build (engine.loadCheckpoint) and
// the command line (trace --model <folder>), against GPT-2's forward pass in NumPy
// (tests/reference/gpt2_reference.py): every layer's attention weights per head and the logits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TOLERANCE, assertAttentionError, createEngine, fixtureDir, relativeError, root } from './support.mjs';
import { writeGpt2VocabularyCheckpoint } from './gpt2_support.mjs';

const engine = await createEngine();
const DTYPES = ['f32', 'f16', 'bf16'];
const LAYOUTS = ['bare', 'prefixed', 'prefixed_lm_head'];
const CASES = LAYOUTS.flatMap((layout) => DTYPES.map((dtype) => `${layout}_${dtype}`));

const folderOf = (name) => path.join(fixtureDir, name === 'hf-tiny-gpt2' ? name : `gpt2/${name}`);
const expectedOf = (name) =>
  JSON.parse(
    readFileSync(
      path.join(fixtureDir, name === 'hf-tiny-gpt2' ? 'gpt2/hf-tiny-gpt2.json' : `gpt2/${name}/expected.json`),
    ),
  );
const checkpointOf = (name) => ({
  config: readFileSync(path.join(folderOf(name), 'config.json'), 'utf8'),
  safetensors: readFileSync(path.join(folderOf(name), 'model.safetensors')),
});

/** The largest errors of a trace ({ layers: [{ step(name, head) }], step(name) }) against expected.json. */
function errorsOf(trace, expected) {
  let attention = 0;
  expected.attention.forEach((heads, l) =>
    heads.forEach((reference, h) => {
      attention = Math.max(attention, relativeError(trace.layers[l].step('weights', h), reference));
    }),
  );
  return { attention, logits: relativeError(trace.step('logits'), expected.logits) };
}

for (const name of [...CASES, 'hf-tiny-gpt2']) {
  test(`loadCheckpoint(${name}) matches NumPy in every layer's weights and the logits`, () => {
    const expected = expectedOf(name);
    const model = engine.loadCheckpoint(checkpointOf(name));
    try {
      assert.equal(model.config.layers, expected.attention.length);
      assert.equal(model.config.heads, expected.attention[0].length);
      assert.equal(model.config.positionalEncoding, 'learned');
      assert.equal(model.vocabulary[3], '3', 'a token is its id until a tokenizer names it');
      const { attention, logits } = errorsOf(model.trace({ tokens: expected.tokens }), expected);
      assert.ok(attention < TOLERANCE, `attention weights: relative error ${attention}`);
      assert.ok(logits < TOLERANCE, `logits: relative error ${logits}`);
    } finally {
      model.dispose();
    }
  });
}

test('loadCheckpoint takes config.json as text, bytes or object, and safetensors as an ArrayBuffer', () => {
  const { config, safetensors } = checkpointOf('prefixed_f16');
  const buffer = safetensors.buffer.slice(safetensors.byteOffset, safetensors.byteOffset + safetensors.length);
  for (const form of [new TextEncoder().encode(config), JSON.parse(config)]) {
    const model = engine.loadCheckpoint({ config: form, safetensors: buffer });
    assert.equal(model.parameterCount > 0, true);
    model.dispose();
  }
});

test('loadCheckpoint refuses a bad checkpoint by the key or tensor at fault', () => {
  const { config, safetensors } = checkpointOf('bare_f32');
  const other = JSON.stringify({ ...JSON.parse(config), model_type: 'llama' });
  assertAttentionError(() => engine.loadCheckpoint({ config: other, safetensors }), {
    code: 'INVALID_ARGUMENT',
    field: 'config.model_type',
    message: /\("llama"\) must be "gpt2"/,
  });
  // One layer more than GPT-2 small's 12.
  const deep = JSON.stringify({ ...JSON.parse(config), n_layer: 13 });
  assertAttentionError(() => engine.loadCheckpoint({ config: deep, safetensors }), {
    code: 'INVALID_ARGUMENT',
    field: 'config.n_layer',
    message: /layers \(13\) must be an integer from 1 to 12/,
  });
  const truncated = safetensors.subarray(0, safetensors.length - 4);
  assertAttentionError(() => engine.loadCheckpoint({ config, safetensors: truncated }), {
    field: /^safetensors\./,
  });
  assertAttentionError(() => engine.loadCheckpoint({ config, safetensors, vocab: {} }), {
    field: 'vocab',
    message: /the checkpoint is \{ config, safetensors \}/,
  });
  assertAttentionError(() => engine.loadCheckpoint({ config, safetensors: [1, 2] }), { field: 'safetensors' });
});

/**
 * A safetensors file of float32 tensors (name → [shape, value]), written as the format's own
 * writer does: the 8-byte header length, the JSON header padded with spaces, the data in order.
 */
function safetensorsOf(tensors) {
  const header = {};
  let offset = 0;
  for (const [name, [shape]] of Object.entries(tensors)) {
    const bytes = 4 * shape.reduce((a, b) => a * b, 1);
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const out = new Uint8Array(8 + json.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(new TextEncoder().encode(json), 8);
  let at = 8 + json.length;
  for (const [shape, value] of Object.values(tensors)) {
    const count = shape.reduce((a, b) => a * b, 1);
    new Float32Array(out.buffer, at, count).fill(value);
    at += 4 * count;
  }
  return out;
}

test('a loaded checkpoint holds its weights once: no gradients, and not the file’s bytes', () => {
  // One block of width 256 over 8,192 ids: 2,903,808 parameters, 11.6 MB of float32, counted by
  // hand (embeddings 8,192 · 256 + 64 · 256; a block 12 · 256² + 13 · 256; ln_f 2 · 256).
  const c = 256;
  const tensors = { 'wte.weight': [[8192, c], 0.01], 'wpe.weight': [[64, c], 0.01] };
  const block = {
    'ln_1.weight': [[c], 1],
    'ln_1.bias': [[c], 0],
    'attn.c_attn.weight': [[c, 3 * c], 0.01],
    'attn.c_attn.bias': [[3 * c], 0],
    'attn.c_proj.weight': [[c, c], 0.01],
    'attn.c_proj.bias': [[c], 0],
    'ln_2.weight': [[c], 1],
    'ln_2.bias': [[c], 0],
    'mlp.c_fc.weight': [[c, 4 * c], 0.01],
    'mlp.c_fc.bias': [[4 * c], 0],
    'mlp.c_proj.weight': [[4 * c, c], 0.01],
    'mlp.c_proj.bias': [[c], 0],
  };
  for (const [name, value] of Object.entries(block)) tensors[`h.0.${name}`] = value;
  Object.assign(tensors, { 'ln_f.weight': [[c], 1], 'ln_f.bias': [[c], 0] });
  const config = { model_type: 'gpt2', vocab_size: 8192, n_positions: 64, n_embd: c, n_layer: 1, n_head: 4 };
  const parameterBytes = 4 * 2903808;
  const safetensors = safetensorsOf(tensors);
  const before = engine.heapStats().inUse;
  const model = engine.loadCheckpoint({ config, safetensors });
  try {
    assert.equal(model.parameterCount, 2903808);
    const held = engine.heapStats().inUse - before;
    // The weights, and a little for the ids' 8,192 names and the model's tables; with a gradient
    // per weight (the training engine's layout) or the file's bytes kept, twice the weights.
    assert.ok(held >= parameterBytes, `${held} bytes held for ${parameterBytes} bytes of weights`);
    assert.ok(held < 1.25 * parameterBytes, `${held} bytes held for ${parameterBytes} bytes of weights`);
  } finally {
    model.dispose();
  }
});

test('a checkpoint model refuses evaluate() and save(), naming what it is', () => {
  const model = engine.loadCheckpoint(checkpointOf('bare_f32'));
  try {
    assertAttentionError(() => model.evaluate(1), { field: 'model', message: /this is a GPT-2 checkpoint/ });
    // A model file names how its text is read: a checkpoint's file would not load again.
    assertAttentionError(() => model.save(), {
      field: 'model',
      message: /a GPT-2 checkpoint stays in its config\.json/,
    });
  } finally {
    model.dispose();
  }
});

/** A step as the command prints it ({ shape, data }) in relativeError's terms. */
const stepOf = (printed) => ({ rows: printed.shape[0], cols: printed.shape[1], data: printed.data });

test('trace --model <checkpoint folder> prints the same attention and logits', () => {
  const bin = path.join(root, 'bin/attention-explorer.mjs');
  const expected = expectedOf('prefixed_bf16');
  const folder = folderOf('prefixed_bf16');
  for (const model of [folder, path.join(folder, 'model.safetensors')]) {
    const r = spawnSync(process.execPath, [bin, 'trace', '--model', model, '--tokens', expected.tokens.join(',')], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.model.tokens, expected.tokens.map(String));
    const logits = out.model.steps.logits;
    assert.ok(relativeError(stepOf(logits), expected.logits) < TOLERANCE);
    let attention = 0;
    expected.attention.forEach((heads, l) =>
      heads.forEach((reference, h) => {
        const w = out.layers[l].steps.weights[h];
        attention = Math.max(attention, relativeError(stepOf(w), reference));
      }),
    );
    assert.ok(attention < TOLERANCE, `attention weights: relative error ${attention}`);
  }
  // A folder with the weights but no config.json is refused naming what is missing.
  const lone = mkdtempSync(path.join(tmpdir(), 'attention-gpt2-'));
  try {
    copyFileSync(path.join(folder, 'model.safetensors'), path.join(lone, 'model.safetensors'));
    const missing = spawnSync(process.execPath, [bin, 'trace', '--model', lone, '1 2'], { encoding: 'utf8' });
    assert.equal(missing.status, 1);
    assert.match(
      missing.stderr,
      /config\.json: ENOENT \(a GPT-2 checkpoint is a folder with config\.json and model\.safetensors\)/,
    );
  } finally {
    rmSync(lone, { recursive: true, force: true });
  }
});

const cli = (args) =>
  spawnSync(process.execPath, [path.join(root, 'bin/attention-explorer.mjs'), ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });

test('trace --model <folder> "text" reads the text with the folder’s vocab.json and merges.txt', () => {
  const folder = folderOf('hf-tiny-gpt2');
  const text = 'lower lowest newer';
  const bpe = engine.createBpeTokenizer({
    vocab: readFileSync(path.join(folder, 'vocab.json')),
    merges: readFileSync(path.join(folder, 'merges.txt')),
  });
  const model = engine.loadCheckpoint(checkpointOf('hf-tiny-gpt2'));
  try {
    const r = cli(['trace', '--model', folder, text]);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    const pieces = bpe.pieces(text);
    assert.deepEqual(out.model.ids, bpe.encode(text));
    // Tokens as the text they read: a space as a space, never Ġ.
    assert.deepEqual(out.model.tokens, pieces.texts);
    assert.ok(out.model.tokens.includes(' low'));
    const expected = model.trace({ tokens: pieces.ids }).layers[0].step('weights', 0);
    const printed = out.layers[0].steps.weights[0];
    assert.deepEqual(printed.shape, [expected.rows, expected.cols]);
    printed.data.forEach((w, k) => assert.ok(Math.abs(w - expected.data[k]) < 1e-6, `weights[${k}]`));
    // --tokens still reads ids.
    const ids = cli(['trace', '--model', folder, '--tokens', pieces.ids.join(',')]);
    assert.equal(ids.status, 0, ids.stderr);
    assert.deepEqual(JSON.parse(ids.stdout).layers, out.layers);
  } finally {
    bpe.dispose();
    model.dispose();
  }
});

test('trace --model "text" refuses a checkpoint with no tokenizer of its own that is not GPT-2’s vocabulary', () => {
  const r = cli(['trace', '--model', folderOf('bare_f32'), 'hello']);
  assert.equal(r.status, 1);
  assert.match(
    r.stderr,
    /has no vocab\.json or merges\.txt to read text with, and it is not GPT-2’s vocabulary \(vocab_size 19, not 50257\); give token ids with --tokens/,
  );
});

test('trace --model "text" reads a GPT-2 of 50,257 tokens without tokenizer files by GPT-2’s own', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'attention-gpt2-vocab-'));
  try {
    writeGpt2VocabularyCheckpoint(folder);
    const r = cli(['trace', '--model', folder, 'Hello world']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    // GPT-2's ids for "Hello world" (OpenAI's encoder.py and transformers agree).
    assert.deepEqual(out.model.ids, [15496, 995]);
    assert.deepEqual(out.model.tokens, ['Hello', ' world']);
    // A lone vocab.json beside it is refused naming merges.txt, not read with GPT-2's merges.
    writeFileSync(path.join(folder, 'vocab.json'), '{}');
    const half = cli(['trace', '--model', folder, 'Hello world']);
    assert.equal(half.status, 1);
    assert.match(half.stderr, /has no merges\.txt to read text with/);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
