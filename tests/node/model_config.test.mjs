// A model file's configuration keys are typed (cpp/bindings/js/model_config.js): a forged file
// whose heldOutLoss is a string used to load, and the explorer's panel then threw
// `heldOutLoss.toFixed is not a function` and stayed on random weights without a word. Every
// key that a page or a tool reads is refused at load when its value is of another type or out of
// range, by an error naming the key. And predict()'s documented default (topK 10) works on a
// model with fewer symbols (a DNA text's model has 8).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEngine } from './support.mjs';
import { MODEL_CONFIG_KEYS } from '../../dist/engine/model_config.js';
import { corpusModelFile, parseModelFile, writeModelFile } from './corpus_model_support.mjs';
import { fnv1a64 } from './training_support.mjs';

const engine = await createEngine();
const POEM = [...'床前明月光，疑是地上霜。举头望低思故乡\n'];
const good = corpusModelFile(engine, { symbols: POEM, length: 8 });

/** The good file with configuration key `key` set to the JSON text `json` (NaN and 1e999 too). */
function forged(key, json) {
  const model = parseModelFile(good);
  const bytes = writeModelFile({ ...model, config: { ...model.config, [key]: MARKER } });
  // The configuration's JSON (after magic, version and size: its u32 length at byte 20) with the
  // marker's JSON string replaced by the raw text; the size and the checksum written again.
  const view = new DataView(bytes.buffer);
  const length = view.getUint32(20, true);
  const config = new TextDecoder().decode(bytes.subarray(24, 24 + length)).replace(JSON.stringify(MARKER), json);
  const text = new TextEncoder().encode(config);
  const rest = bytes.subarray(24 + length, bytes.length - 8);
  const out = new Uint8Array(24 + text.length + rest.length + 8);
  out.set(bytes.subarray(0, 20));
  const v = new DataView(out.buffer);
  v.setUint32(20, text.length, true);
  out.set(text, 24);
  out.set(rest, 24 + text.length);
  v.setBigUint64(12, BigInt(out.length), true);
  v.setBigUint64(out.length - 8, fnv1a64(out.subarray(0, out.length - 8)), true);
  return out;
}
const MARKER = 'forged-value-here';

const BAD = ['"4.2"', 'true', '-1', 'null', '{}', '[1]', 'NaN', '1e999', '-0.5'];

/** Whether JSON text `json` is a value `rule` allows (the test's own reading of the schema). */
function allowed(rule, json) {
  let value;
  try {
    value = JSON.parse(json);
  } catch {
    return false; // NaN is not JSON
  }
  if (rule.type === 'string') return typeof value === 'string' && value.length <= rule.most;
  if (rule.type === 'boolean') return typeof value === 'boolean';
  if (rule.type === 'oneOf') return rule.values.includes(value);
  if (typeof value !== 'number' || value < rule.min || value > rule.max) return false;
  return rule.type === 'number' || Number.isInteger(value);
}

test('the good file loads, and forging any read key with a value of another type is refused, naming it', () => {
  engine.loadModel(good).dispose();
  const loaded = [];
  for (const [key, rule] of Object.entries(MODEL_CONFIG_KEYS)) {
    for (const json of BAD) {
      if (allowed(rule, json)) continue;
      let model;
      try {
        model = engine.loadModel(forged(key, json));
      } catch (error) {
        assert.equal(error.name, 'AttentionError', `${key}: ${json}: ${error.message}`);
        // The engine's own check (the model's shape) or the schema's: either names the key.
        assert.ok(
          error.field?.includes(key) || error.message.includes(key),
          `${key} = ${json}: ${error.field}: ${error.message}`,
        );
        continue;
      }
      loaded.push(`${key} = ${json} → ${JSON.stringify(model.config[key])}`);
      model.dispose();
    }
  }
  assert.deepEqual(loaded, [], 'no file with a mistyped key loads');
});

test('the message names the key and what it allows', () => {
  for (const [key, json, pattern] of [
    ['heldOutLoss', '"4.2"', /^model\.config\.heldOutLoss \("4\.2"\) must be a number from 0 to 1000$/],
    ['heldOutLoss', 'true', /^model\.config\.heldOutLoss \(true\) must be a number/],
    ['unigramLoss', '-1', /^model\.config\.unigramLoss \(-1\) must be a number from 0/],
    ['tokensSeen', '1.5', /^model\.config\.tokensSeen \(1\.5\) must be an integer from 0/],
    ['title', '7', /^model\.config\.title \(7\) must be a string of at most 200 characters$/],
    ['canonWeighted', '"yes"', /^model\.config\.canonWeighted \("yes"\) must be true or false$/],
    ['repeatSpans', '1.5', /^model\.config\.repeatSpans \(1\.5\) must be a number from 0 to 1$/],
  ]) {
    assert.throws(
      () => engine.loadModel(forged(key, json)),
      (error) => error.field === `model.config.${key}` && pattern.test(error.message),
      `${key} = ${json}`,
    );
  }
});

test('a key that is a trainer field takes its row’s kind and bounds', () => {
  const kinds = { int: 'integer', number: 'number' };
  for (const row of engine.trainerFields.filter((f) => f.inModelFile || f.section === 'corpus')) {
    const rule = MODEL_CONFIG_KEYS[row.name];
    assert.ok(rule, `${row.name} is checked when a file is loaded`);
    if (kinds[row.kind]) assert.deepEqual(rule, { type: kinds[row.kind], min: row.min, max: row.max }, row.name);
  }
});

test('the shipped models pass the schema', async () => {
  const { readFileSync } = await import('node:fs');
  for (const name of ['tang', 'brown']) {
    const model = engine.loadModel(
      new Uint8Array(readFileSync(new URL(`../../models/${name}.model`, import.meta.url))),
    );
    assert.equal(typeof model.config.heldOutLoss, 'number');
    model.dispose();
  }
});

test('predict() with no options works on a model of 8 symbols (topK: all of them)', () => {
  const dna = corpusModelFile(engine, { symbols: ['A', 'C', 'G', 'T'], length: 8 });
  const model = engine.loadModel(dna);
  try {
    assert.equal(model.vocabulary.length, 8);
    const { predictions } = model.predict({ text: 'ACGTAC' });
    assert.equal(predictions.length, 8);
    const sum = predictions.reduce((s, p) => s + p.probability, 0);
    assert.ok(Math.abs(sum - 1) < 1e-9, `${sum}`);
    // An explicit topK above the vocabulary is still the caller's mistake, named.
    assert.throws(
      () => model.predict({ text: 'ACGT' }, { topK: 10 }),
      /topK \(10\) must be an integer from 0 \(all\) to 8/,
    );
  } finally {
    model.dispose();
  }
  // A larger vocabulary keeps the default of 10.
  const poem = engine.loadModel(good);
  try {
    assert.equal(poem.predict({ text: '床前' }).predictions.length, 10);
  } finally {
    poem.dispose();
  }
});
