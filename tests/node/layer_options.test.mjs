// model.layerOptions: the engine's one LayerTraceInputs turns a trained layer into
// engine.open() options, for corpus and task models alike. Checked against what the model's
// own trace of that layer holds: x is layerInput, every given weight is the trace's, and the
// explorer's run of the options computes the trace's attention, number for number.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAttentionError, createEngine } from './support.mjs';
import { corpusModelFile } from './corpus_model_support.mjs';
import { TINY } from './training_support.mjs';

const engine = await createEngine();
const GIVEN = ['wQ', 'wK', 'wV', 'wO', 'bQ', 'bK', 'bV', 'bO'];

function checkLayers(model, ids) {
  for (let layer = 0; layer < model.config.layers; layer++) {
    const options = model.layerOptions({ tokens: ids }, layer);
    const traced = model.trace({ tokens: ids }, { layer });
    assert.deepEqual(options.tokens, traced.tokens);
    assert.equal(options.dModel, model.config.dModel);
    assert.equal(options.heads, model.config.heads);
    assert.equal(options.mask, model.config.causal === false ? 'none' : 'causal');
    assert.equal(options.positionalEncoding, false);
    assert.equal(options.embedding, 'given');
    assert.deepEqual(options.given.x, model.layerInput({ tokens: ids }, layer));
    for (const name of GIVEN) {
      const step = traced.step(name);
      assert.deepEqual(options.given[name], { rows: step.rows, cols: step.cols, data: step.data }, name);
    }
    const run = engine.run(options);
    for (let head = 0; head < model.config.heads; head++) {
      assert.deepEqual(run.step('weights', head).data, traced.step('weights', head).data, `weights ${layer}/${head}`);
    }
    assert.deepEqual(run.step('output').data, traced.step('output').data, `output of layer ${layer}`);
  }
}

test('a corpus model’s layerOptions are its trace’s layer; text labels the tokens with its own symbols', () => {
  const model = engine.loadModel(corpusModelFile(engine, { symbols: [...'床前明月光，疑是地上霜。'], length: 8 }));
  try {
    checkLayers(model, model.encode('床前明月光').ids);
    const byText = model.layerOptions('床前明月', 1);
    assert.deepEqual(byText.tokens, [...'床前明月']);
    assert.deepEqual(byText.given.x, model.layerInput('床前明月', 1));
    assertAttentionError(() => model.layerOptions('床前', 2), { code: 'INVALID_ARGUMENT', field: 'layer' });
    assertAttentionError(() => model.layerOptions({ tokens: [99] }, 0), {
      code: 'INVALID_ARGUMENT',
      field: 'tokens[0]',
    });
  } finally {
    model.dispose();
  }
});

test('a task model’s layerOptions are its trace’s layer', () => {
  const trainer = engine.createTrainer(TINY);
  trainer.step(5);
  const model = engine.loadModel(trainer.save());
  trainer.dispose();
  try {
    checkLayers(
      model,
      model.trace({ text: '3 1 4 2 |' }).tokens.map((t) => model.vocabulary.indexOf(t)),
    );
  } finally {
    model.dispose();
  }
});

test('a task model generates with the engine’s one sampler: greedy is the argmax chain up to a full context', async () => {
  const trainer = engine.createTrainer(TINY);
  trainer.step(5);
  const model = engine.loadModel(trainer.save());
  trainer.dispose();
  try {
    const start = model.trace({ text: '3 1 4 2' }).tokens.map((t) => model.vocabulary.indexOf(t));
    const made = model.generate({ tokens: start }, { count: 100 });
    // The context (8) ends it: 4 new symbols, each the argmax of the last logits (lowest id on a tie).
    assert.equal(made.ids.length, model.contextLength - start.length);
    const ids = [...start];
    for (const id of made.ids) {
      const logits = model.trace({ tokens: ids }, { steps: ['logits'] }).step('logits');
      const last = Array.from(logits.data.subarray((logits.rows - 1) * logits.cols));
      assert.equal(id, last.indexOf(Math.max(...last)));
      ids.push(id);
    }
    assert.equal(made.text, ids.map((id) => model.vocabulary[id]).join(' '));
    // Sampled: the same seed, the same symbols; topK 1 is greedy; the page's adapter is this.
    const sample = (seed, topK = 0) => model.generate({ tokens: start }, { count: 4, greedy: false, seed, topK });
    assert.deepEqual(sample(5), sample(5));
    assert.deepEqual(sample(5, 1).ids, made.ids);
    const draws = new Set(Array.from({ length: 20 }, (_, seed) => sample(seed, 0).text));
    assert.ok(draws.size > 1, 'different seeds draw differently');
    const { withLanguageAPI } = await import('../../web/src/models/adapter.js');
    assert.deepEqual(
      withLanguageAPI(model).generate({ tokens: start }, { count: 4, greedy: false, seed: 3 }),
      sample(3),
    );
    // The adapter's predict: softmax(logits / T) of the last row, worked out here in float64,
    // most likely first; a temperature the engine refuses is refused by name (it gave NaN).
    const adapted = withLanguageAPI(model);
    const logits = model.trace({ tokens: start }, { steps: ['logits'] }).step('logits');
    const last = Array.from(logits.data.subarray((logits.rows - 1) * logits.cols));
    const top = Math.max(...last.map((z) => z / 0.5));
    const e = last.map((z) => Math.exp(z / 0.5 - top));
    const total = e.reduce((a, b) => a + b, 0);
    const { predictions } = adapted.predict({ tokens: start }, { temperature: 0.5, topK: 3 });
    assert.equal(predictions.length, 3);
    for (const p of predictions) assert.ok(Math.abs(p.probability - e[p.id] / total) < 1e-12, `${p.token}`);
    assert.ok(predictions[0].probability >= predictions[1].probability);
    assertAttentionError(() => adapted.predict({ tokens: start }, { temperature: 0 }), {
      code: 'INVALID_ARGUMENT',
      field: 'temperature',
    });
    assertAttentionError(() => model.generate({ tokens: start }, { temperature: 3 }), {
      code: 'INVALID_ARGUMENT',
      field: 'temperature',
    });
  } finally {
    model.dispose();
  }
});
