// Corpus language models from JS: a model file with a character or word vocabulary
// loads as a LanguageModel; encode, trace, predict, generate and headLabels are checked against
// numbers computed here from the model's own trace (softmax of its logits, the argmax chain, the
// mean weights of its heads), and every bad input is an AttentionError naming its field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAttentionError, createEngine } from './support.mjs';
import { labelHeads } from '../../dist/engine/engine.js';
import { LanguageModel, predictionsOf } from '../../dist/engine/language_model.js';
import { TrainedModel } from '../../dist/engine/training.js';
import { HEAD_LABEL_THRESHOLDS, previousLinePositions } from '../../dist/engine/head_labels.js';
import { SPECIALS, corpusModelFile } from './corpus_model_support.mjs';

const engine = await createEngine();
const POEM = [...'床前明月光，疑是地上霜。举头望低思故乡\n'];
const WORDS = ['the', 'cat', 'sat', 'on', 'mat', '.', 'a', 'dog'];
const charFile = corpusModelFile(engine, { symbols: POEM, length: 8 }); // contextLength 16
// Trained on lower-cased text, as the Brown model: typed words are looked up in lower case.
const wordFile = corpusModelFile(engine, {
  level: 'word',
  symbols: WORDS,
  length: 6,
  seed: 5,
  extra: { lowercase: true },
});

function withModel(file, fn) {
  const model = engine.loadModel(file);
  try {
    return fn(model);
  } finally {
    model.dispose();
  }
}

/** Row `row` of a [rows × cols] step as a plain array. */
const rowOf = (step, row) => Array.from(step.data.subarray(row * step.cols, (row + 1) * step.cols));
const lastLogits = (model, ids) => {
  const trace = model.trace({ tokens: ids }, { steps: ['logits'] });
  return rowOf(trace.step('logits'), ids.length - 1);
};
/** softmax(z / T) in float64, written here from the definition. */
function softmax(z, temperature) {
  const scaled = z.map((v) => v / temperature);
  const top = Math.max(...scaled);
  const e = scaled.map((v) => Math.exp(v - top));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}
const GENERABLE = (id) => id > 2; // not <pad>, <unk>, <bos>

test('a corpus model file loads as a LanguageModel with its vocabulary, level and keys; save() keeps them', () => {
  withModel(charFile, (model) => {
    assert.ok(model instanceof LanguageModel && model instanceof TrainedModel);
    assert.equal(model.vocabularyLevel, 'character');
    assert.deepEqual([...model.vocabulary], [...SPECIALS, ...POEM]);
    assert.equal(model.contextLength, 16);
    assert.equal(model.config.titleZh, '测试模型');
    assert.equal(model.config.task, undefined);
    const again = engine.loadModel(model.save());
    try {
      assert.deepEqual(again.config, model.config);
      assert.deepEqual(lastLogits(again, [4, 5, 6]), lastLogits(model, [4, 5, 6]));
    } finally {
      again.dispose();
    }
    // float16 halves the file and keeps the next-token distribution close.
    const half = engine.loadModel(model.save({ precision: 'float16' }));
    try {
      assert.equal(half.vocabularyLevel, 'character');
      const p = model.predict('床前明月', { topK: 0 }).predictions;
      const q = new Map(half.predict('床前明月', { topK: 0 }).predictions.map((x) => [x.id, x.probability]));
      for (const { id, probability } of p) assert.ok(Math.abs(probability - q.get(id)) < 2e-3, `${id}`);
    } finally {
      half.dispose();
    }
    assertAttentionError(() => model.evaluate(10), { code: 'INVALID_ARGUMENT', field: 'model', message: /toy-task/ });
  });
  withModel(wordFile, (model) => assert.equal(model.vocabularyLevel, 'word'));
  // Without "lowercase": true (as models/brown.model, written before the key) a word not found
  // as typed is looked up in lower case; characters are not.
  withModel(corpusModelFile(engine, { level: 'word', symbols: WORDS, length: 6 }), (model) =>
    assert.deepEqual(model.encode('The the Dog').ids, [4, 4, 11]),
  );
  const abc = { symbols: [...'abc'], length: 4 };
  withModel(corpusModelFile(engine, abc), (model) =>
    assert.deepEqual(model.encode('aBc').unknown, [false, true, false]),
  );
  withModel(corpusModelFile(engine, { ...abc, extra: { lowercase: true } }), (model) =>
    assert.deepEqual(model.encode('aBc').ids, [4, 5, 6]),
  );
});

test('encode reads code points or words, flags unknown symbols and cuts at the context', () => {
  withModel(charFile, (model) => {
    const e = model.encode('床前X明月😀');
    assert.deepEqual(e.tokens, ['床', '前', 'X', '明', '月', '😀']);
    assert.deepEqual(
      e.ids,
      e.tokens.map((t) => Math.max(1, model.vocabulary.indexOf(t))),
    );
    assert.deepEqual(e.unknown, [false, false, true, false, false, true]);
    assert.equal(e.ids[2], 1);
    assert.deepEqual([e.total, e.cut], [6, 0]);
    const long = '床前明月光，疑是地上霜。举头望明月，低头思故乡。'; // 24 characters, context 16
    const start = model.encode(long);
    const end = model.encode(long, { keep: 'end' });
    assert.deepEqual([start.total, start.cut, end.total, end.cut], [24, 8, 24, 8]);
    assert.equal(start.tokens.join(''), long.slice(0, 16));
    assert.equal(end.tokens.join(''), long.slice(8));
    assert.deepEqual(model.encode(''), { tokens: [], ids: [], unknown: [], total: 0, cut: 0, start: false });
  });
  withModel(wordFile, (model) => {
    // The engine's tokenizer; every word looked up in lower case (the file says lowercase: true).
    const e = model.encode('The cat sat on a MAT, the fox.');
    assert.deepEqual(e.tokens, ['The', 'cat', 'sat', 'on', 'a', 'MAT', ',', 'the', 'fox', '.']);
    const id = (w) => model.vocabulary.indexOf(w);
    assert.deepEqual(e.ids, [id('the'), id('cat'), id('sat'), id('on'), id('a'), id('mat'), 1, id('the'), 1, id('.')]);
    assert.deepEqual(
      e.unknown,
      e.ids.map((i) => i === 1),
    );
  });
});

test('trace reads text with the vocabulary: the text’s symbols, ids, unknown flags and cut, the same numbers as the ids', () => {
  withModel(charFile, (model) => {
    const trace = model.trace({ text: '床前X月' });
    assert.deepEqual(trace.tokens, ['床', '前', 'X', '月']);
    assert.deepEqual(trace.unknown, [false, false, true, false]);
    assert.deepEqual([trace.total, trace.cut], [4, 0]);
    const byIds = model.trace({ tokens: trace.ids });
    assert.deepEqual(byIds.tokens, ['床', '前', '<unk>', '月']);
    assert.deepEqual(trace.step('logits').data, byIds.step('logits').data);
    assert.deepEqual(trace.layers[1].step('weights', 1).data, byIds.layers[1].step('weights', 1).data);
    const layer = model.trace('床前明月光，疑是地上霜。举头望明月', { layer: 1, keep: 'end' });
    assert.equal(layer.layer, 1);
    assert.equal(layer.tokens.join(''), '前明月光，疑是地上霜。举头望明月');
    assert.equal(layer.cut, 1);
    assert.equal(layer.step('weights', 0).rows, 16);
  });
  withModel(wordFile, (model) => {
    const trace = model.trace({ text: 'The dog sat' });
    assert.deepEqual(trace.tokens, ['The', 'dog', 'sat']);
    assert.deepEqual(trace.step('probabilities').colLabels, [...model.vocabulary]);
  });
});

test('layerInput is the trace’s x of a layer, the model run only through it; a bad layer or token is refused', () => {
  for (const file of [charFile, wordFile]) {
    withModel(file, (model) => {
      const text = model.vocabularyLevel === 'word' ? 'The dog sat on a mat' : '床前明月光';
      const { ids } = model.encode(text);
      const before = model.predict({ tokens: ids });
      for (let layer = 0; layer < model.config.layers; layer++) {
        const x = model.trace({ tokens: ids }, { layer, steps: ['x'] }).step('x');
        const input = model.layerInput({ tokens: ids }, layer);
        assert.deepEqual([input.rows, input.cols], [ids.length, model.config.dModel]);
        assert.deepEqual(input.data, x.data, `layer ${layer}`);
        // Text is read as encode() reads it.
        assert.deepEqual(model.layerInput({ text }, layer).data, x.data);
      }
      // Whatever ran last, the next trace and prediction are the whole model's.
      assert.deepEqual(model.predict({ tokens: ids }), before);
      for (const layer of [-1, model.config.layers, 1.5, '0', NaN, 2 ** 31, 1e10]) {
        assertAttentionError(() => model.layerInput({ tokens: ids }, layer), {
          code: 'INVALID_ARGUMENT',
          field: 'layer',
        });
      }
      // Named as given, not as WASM would read it (1e10 as 1410065408).
      assertAttentionError(() => model.layerInput({ tokens: ids }, 1e10), {
        code: 'INVALID_ARGUMENT',
        field: 'layer',
        message: /^layer \(10000000000\) must be an integer from 0 to 1$/,
      });
      assertAttentionError(() => model.layerInput({ tokens: [model.vocabulary.length] }, 0), {
        code: 'INVALID_ARGUMENT',
        field: 'tokens[0]',
      });
    });
  }
});

test('predict: softmax(logits / T) of the last position over the whole vocabulary, top k of them', () => {
  withModel(charFile, (model) => {
    const text = '床前明月光，疑';
    const ids = model.encode(text).ids;
    const z = lastLogits(model, ids);
    for (const temperature of [1, 0.5, 2.5]) {
      const reference = softmax(z, temperature);
      const { tokens, predictions } = model.predict({ text }, { temperature, topK: 5 });
      assert.deepEqual(tokens, [...text]);
      assert.equal(predictions.length, 5);
      const ranked = reference
        .map((p, id) => ({ id, p }))
        .sort((a, b) => b.p - a.p || a.id - b.id)
        .slice(0, 5);
      assert.deepEqual(
        predictions.map((p) => p.id),
        ranked.map((r) => r.id),
      );
      for (const p of predictions) {
        assert.ok(Math.abs(p.probability - reference[p.id]) < 1e-6, `${p.probability} vs ${reference[p.id]}`);
        assert.equal(p.token, model.vocabulary[p.id]);
      }
      // The same from a trace's last row of logits (what the page's model panel reads).
      assert.deepEqual(predictionsOf(z, model.vocabulary, temperature, 5), predictions);
      assert.equal(predictionsOf(z, model.vocabulary, temperature, 0).length, model.vocabulary.length);
    }
    assertAttentionError(() => predictionsOf(z, model.vocabulary, 0, 5), {
      code: 'INVALID_ARGUMENT',
      field: 'temperature',
    });
    assertAttentionError(() => predictionsOf(z, model.vocabulary, 1, -1), { code: 'INVALID_ARGUMENT', field: 'topK' });
    assertAttentionError(() => predictionsOf(z.slice(1), model.vocabulary, 1, 5), {
      code: 'INVALID_ARGUMENT',
      field: 'logits',
    });
    assertAttentionError(() => predictionsOf(z, null, 1, 5), { code: 'INVALID_ARGUMENT', field: 'vocabulary' });
    const broken = [...z];
    broken[3] = NaN;
    assertAttentionError(() => predictionsOf(broken, model.vocabulary, 1, 5), {
      code: 'INVALID_ARGUMENT',
      field: 'logits[3]',
    });
    // tokens are the text's own symbols, as in encode and trace; ids give the vocabulary's.
    assert.deepEqual(model.predict('床X').tokens, ['床', 'X']);
    assert.deepEqual(model.predict({ tokens: [4, 1] }).tokens, ['床', '<unk>']);
    const all = model.predict({ text }, { topK: 0 }).predictions;
    assert.equal(all.length, model.vocabulary.length);
    assert.ok(Math.abs(all.reduce((s, p) => s + p.probability, 0) - 1) < 1e-9);
    // Text longer than the context: the prediction follows its last 16 tokens.
    const long = '床前明月光，疑是地上霜。举头望明月，低头思故乡。';
    const tail = model.encode(long, { keep: 'end' }).ids;
    assert.deepEqual(
      model.predict(long, { topK: 3 }).predictions.map((p) => p.id),
      softmax(lastLogits(model, tail), 1)
        .map((p, id) => [p, id])
        .sort((a, b) => b[0] - a[0] || a[1] - b[1])
        .slice(0, 3)
        .map(([, id]) => id),
    );
  });
});

/** The greedy chain computed here: argmax over the generable ids, the window sliding at the context. */
function greedyChain(model, ids, count) {
  const sequence = [...ids];
  const out = [];
  for (let i = 0; i < count; i++) {
    const z = lastLogits(model, sequence.slice(-model.contextLength));
    let best = -1;
    z.forEach((v, id) => {
      if (GENERABLE(id) && (best < 0 || v > z[best])) best = id;
    });
    out.push(best);
    sequence.push(best);
    if (best === 3) break;
  }
  return out;
}

test('greedy generation is the argmax chain, sliding the window past the context, and deterministic', () => {
  withModel(charFile, (model) => {
    const text = '床前明月光，疑是';
    const ids = model.encode(text).ids;
    const result = model.generate({ text }, { count: 20 }); // 8 + 20 > contextLength 16
    const chain = greedyChain(model, ids, 20);
    assert.deepEqual(result.ids, chain);
    assert.deepEqual(
      result.tokens,
      chain.map((id) => model.vocabulary[id]),
    );
    assert.equal(result.text, text + result.tokens.filter((t) => t !== '<eos>').join(''));
    assert.deepEqual(model.generate({ text }, { count: 20 }), result);
  });
  withModel(wordFile, (model) => {
    const result = model.generate('the cat', { count: 4 });
    assert.deepEqual(result.ids, greedyChain(model, model.encode('the cat').ids, 4));
    const words = result.tokens.filter((t) => t !== '<eos>');
    assert.equal(result.text, ['the cat', ...words].join(' '));
  });
});

test('seeded sampling is deterministic, follows softmax(logits / T) over the top k, and never emits <pad>, <unk>, <bos>', () => {
  withModel(charFile, (model) => {
    const text = '床前明';
    const sample = (seed, options = {}) => model.generate({ text }, { greedy: false, seed, ...options });
    assert.deepEqual(sample(7, { count: 12 }), sample(7, { count: 12 }));
    const seeds = Array.from({ length: 8 }, (_, s) => sample(s, { count: 12 }).ids.join());
    assert.ok(new Set(seeds).size > 1, 'different seeds give different samples');
    // Near-uniform sampling: specials would come up about 3/24 of the time if they could.
    const flat = sample(1, { count: 300, temperature: 100 });
    assert.ok(flat.ids.every(GENERABLE), flat.tokens.join(''));
    // The frequencies of 3,000 one-token samples against the distribution computed here.
    const z = lastLogits(model, model.encode(text).ids);
    for (const topK of [0, 4]) {
      const temperature = 1.5;
      const candidates = z
        .map((v, id) => ({ v, id }))
        .filter((c) => GENERABLE(c.id))
        .sort((a, b) => b.v - a.v || a.id - b.id)
        .slice(0, topK || undefined);
      const p = softmax(
        candidates.map((c) => c.v),
        temperature,
      );
      const counts = new Map();
      const n = 3000;
      for (let seed = 0; seed < n; seed++) {
        const [id] = sample(seed, { temperature, topK }).ids;
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      for (const id of counts.keys()) {
        assert.ok(
          candidates.some((c) => c.id === id),
          `id ${id} is among the candidates (topK ${topK})`,
        );
      }
      candidates.forEach((c, i) => {
        const observed = (counts.get(c.id) ?? 0) / n;
        // 5 standard deviations of a binomial proportion.
        const allowed = 5 * Math.sqrt((p[i] * (1 - p[i])) / n) + 1e-3;
        assert.ok(Math.abs(observed - p[i]) < allowed, `id ${c.id}: ${observed} vs ${p[i]} (topK ${topK})`);
      });
    }
  });
});

/** Mean weights computed here from a head's [T × T] weights, for the label tests. */
function referenceScores(w, t, lineOf) {
  const at = (i, j) => w[i * t + j];
  const avg = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  const range = (from) => Array.from({ length: Math.max(0, t - from) }, (_, k) => from + k);
  const lined = [];
  for (let i = 0; i < t; i++) if (lineOf[i] !== undefined) lined.push(at(i, lineOf[i]));
  return {
    previous: avg(range(1).map((i) => at(i, i - 1))),
    previousLine: avg(lined),
    first: avg(range(2).map((i) => at(i, 0))),
    self: avg(range(1).map((i) => at(i, i))),
    broad: avg(
      range(1).map((i) => {
        let h = 0;
        for (let j = 0; j <= i; j++) if (at(i, j) > 0) h -= at(i, j) * Math.log(at(i, j));
        return h / Math.log(i + 1);
      }),
    ),
  };
}

test('headLabels: every head’s scores are the mean weights of its trace, a label only above its threshold', () => {
  withModel(charFile, (model) => {
    const text = '床前明月光，疑是地上霜。举头';
    // 疑 … 。 (positions 6–11) look back to 床 … ， (0–5); 举头 (12, 13) to 疑是 (6, 7).
    const lineOf = { 6: 0, 7: 1, 8: 2, 9: 3, 10: 4, 11: 5, 12: 6, 13: 7 };
    const trace = model.trace({ text }, { steps: ['weights'] });
    const labels = model.headLabels({ text });
    assert.equal(labels.length, 2 * 2);
    // The engine's labelHeads on a trace the caller already has gives the same labels.
    assert.deepEqual(labelHeads(model.trace({ text }, { steps: ['weights', 'logits'] })), labels);
    for (const entry of labels) {
      const step = trace.layers[entry.layer].step('weights', entry.head);
      const reference = referenceScores(Array.from(step.data), step.rows, lineOf);
      for (const key of Object.keys(reference)) {
        assert.ok(
          Math.abs(entry.scores[key] - reference[key]) < 1e-9,
          `${key}: ${entry.scores[key]} vs ${reference[key]}`,
        );
      }
      if (entry.label === null) {
        for (const key of Object.keys(reference)) assert.ok(reference[key] < HEAD_LABEL_THRESHOLDS[key], key);
      } else {
        assert.ok(entry.score >= HEAD_LABEL_THRESHOLDS[entry.label]);
        assert.equal(entry.score, entry.scores[entry.label]);
      }
    }
  });
});

test('head labels of made-up attention patterns, and the lines of a poem', () => {
  assert.deepEqual(
    previousLinePositions([...'床前明月光，疑是地上霜。举头']),
    [-1, -1, -1, -1, -1, -1, 0, 1, 2, 3, 4, 5, 6, 7],
  );
  assert.deepEqual(previousLinePositions(['a', '\n', 'b', 'c', 'd', '\n', 'e']), [-1, -1, 0, 1, -1, -1, 2]);
  // A poem's last 。 and its newline end one line: the next poem's first line looks back to it.
  assert.deepEqual(previousLinePositions([...'甲乙。\n丙丁，戊']), [-1, -1, -1, -1, 0, 1, 2, 4]);
  const t = 6;
  const tokens = ['a', 'b', '\n', 'c', 'd', '\n'];
  const pattern = (key) => {
    const w = new Float32Array(t * t);
    for (let i = 0; i < t; i++) w[i * t + key(i)] = 1;
    return w;
  };
  const uniform = new Float32Array(t * t);
  for (let i = 0; i < t; i++) for (let j = 0; j <= i; j++) uniform[i * t + j] = 1 / (i + 1);
  const lines = previousLinePositions(tokens);
  const cases = [
    ['previous', pattern((i) => Math.max(0, i - 1))],
    ['first', pattern(() => 0)],
    ['self', pattern((i) => i)],
    ['previousLine', pattern((i) => (lines[i] >= 0 ? lines[i] : i))],
    ['broad', uniform],
  ];
  const trace = {
    tokens,
    layers: [
      {
        layer: 0,
        heads: cases.length,
        step: (name, head) => ({ data: cases[head][1], rows: t, cols: t }),
      },
    ],
  };
  return import('../../dist/engine/head_labels.js').then(({ labelHeads }) => {
    const labels = labelHeads(trace);
    assert.deepEqual(
      labels.map((l) => l.label),
      cases.map(([label]) => label),
    );
    assert.equal(labels[0].scores.previous, 1);
    assert.ok(Math.abs(labels[4].score - 1) < 1e-6);
  });
});

test('a model with a document start reads it before typed text: encode, trace, predict and generate', () => {
  const poems = corpusModelFile(engine, { symbols: POEM, length: 4, extra: { documentStart: '\n' } }); // context 8
  withModel(poems, (model) => {
    const newline = model.vocabulary.indexOf('\n');
    const e = model.encode('床前明月');
    assert.deepEqual(e.tokens, ['\n', '床', '前', '明', '月']);
    assert.deepEqual(e.ids, [newline, ...[...'床前明月'].map((c) => model.vocabulary.indexOf(c))]);
    assert.deepEqual([e.total, e.cut, e.start], [4, 0, true]);
    assert.deepEqual(e.unknown, [false, false, false, false, false]);
    // Keeping the start: the line break and 7 characters; keeping the end: the start only if all fits.
    const long = '床前明月光，疑是地上霜。';
    const first = model.encode(long);
    assert.deepEqual([first.tokens.join(''), first.cut, first.start], ['\n床前明月光，疑', 5, true]);
    const last = model.encode(long, { keep: 'end' });
    assert.deepEqual([last.tokens.join(''), last.cut, last.start], ['光，疑是地上霜。', 4, false]);
    assert.deepEqual(model.encode('床前明月光，疑', { keep: 'end' }).start, true);
    assert.deepEqual(model.encode('床前明月光，疑是', { keep: 'end' }).start, false);
    // Text that begins with it reads it once; no text, no start.
    assert.deepEqual(model.encode('\n床').tokens, ['\n', '床']);
    assert.deepEqual(model.encode('\n床').start, false);
    assert.deepEqual(model.encode('').ids, []);
    // trace, predict and generate read what encode reads: the same logits as the ids given.
    const byText = model.trace({ text: '床前明月' }, { steps: ['logits'] });
    const byIds = model.trace({ tokens: e.ids }, { steps: ['logits'] });
    assert.equal(byText.start, true);
    assert.deepEqual(byText.ids, e.ids);
    assert.deepEqual(Array.from(byText.nextLogits), Array.from(byIds.nextLogits));
    const predicted = model.predict({ text: '床前明月' }, { topK: 3 });
    assert.deepEqual(predicted.tokens, e.tokens);
    assert.deepEqual(predicted.predictions, model.predict({ tokens: e.ids }, { topK: 3 }).predictions);
    const made = model.generate({ text: '床前明月' }, { count: 2 });
    assert.deepEqual(made.ids, model.generate({ tokens: e.ids }, { count: 2 }).ids);
    assert.ok(made.text.startsWith('床前明月'), 'the start is read, not written into the text');
  });
  // The file's documentStart must be one of its symbols.
  for (const bad of ['X', '<eos>', 7]) {
    assertAttentionError(
      () => engine.loadModel(corpusModelFile(engine, { symbols: POEM, extra: { documentStart: bad } })),
      { code: 'INVALID_ARGUMENT', field: 'model.config.documentStart', message: /symbol of the model's vocabulary/ },
    );
  }
});

test('bad corpus files and bad calls are refused, naming the field', () => {
  const refuses = (file, field, message) =>
    assertAttentionError(() => engine.loadModel(file), { code: 'INVALID_ARGUMENT', field, message });
  refuses(
    corpusModelFile(engine, { symbols: POEM, edit: (m) => ({ ...m, config: { ...m.config, vocabulary: 'bytes' } }) }),
    'model.config.vocabulary',
    /task, character, word/,
  );
  refuses(
    corpusModelFile(engine, {
      symbols: POEM,
      edit: (m) => ({ ...m, vocabulary: ['<unk>', '<pad>', ...m.vocabulary.slice(2)] }),
    }),
    'model.vocabulary[0]',
    /<pad>/,
  );
  refuses(
    corpusModelFile(engine, { symbols: [...POEM.slice(1), '明月'] }),
    `model.vocabulary[${SPECIALS.length + POEM.length - 1}]`,
    /single character/,
  );
  refuses(new TextEncoder().encode('床前明月光'), 'model.magic');
  refuses(
    corpusModelFile(engine, { symbols: POEM, extra: { lowercase: 'yes' } }),
    'model.config.lowercase',
    /boolean|true|false/,
  );
  // A symbol not in a large vocabulary is named with the first few symbols, not thousands.
  const many = Array.from({ length: 60 }, (_, i) => String.fromCodePoint(0x4e00 + i));
  withModel(corpusModelFile(engine, { symbols: many }), (model) =>
    assertAttentionError(() => model.trace({ tokens: ['床'] }), {
      code: 'INVALID_ARGUMENT',
      field: 'tokens[0]',
      message: /^tokens\[0\] \("床"\) is not in the vocabulary: <pad> <unk> .{0,60} … \(64 symbols\)$/,
    }),
  );

  withModel(wordFile, (model) => {
    // White space is no word (at character level it is a character like any other).
    assertAttentionError(() => model.trace({ text: ' \n ' }), {
      code: 'INVALID_ARGUMENT',
      field: 'text',
      message: /no token/,
    });
    assertAttentionError(() => model.predict(' '), { code: 'INVALID_ARGUMENT', field: 'text', message: /no token/ });
  });
  withModel(charFile, (model) => {
    const bad = (fn, field, code = 'INVALID_ARGUMENT') => assertAttentionError(fn, { code, field });
    bad(() => model.encode(42), 'text');
    bad(() => model.encode('a\ud800b'), 'text', 'INVALID_UTF8');
    bad(() => model.encode('月'.repeat(40000)), 'text', 'LIMIT_EXCEEDED');
    bad(() => model.encode('月', { keep: 'middle' }), 'keep');
    bad(() => model.encode('月', { kept: 'end' }), 'kept');
    bad(() => model.encode('月', 'end'), 'options');
    // Only own options count: an inherited keep is not read.
    assert.equal(model.encode('床前明月光，疑是地上霜。举头望明月', Object.create({ keep: 'end' })).tokens[0], '床');
    const hostile = {
      get text() {
        throw new Error('no');
      },
    };
    bad(() => model.trace(hostile), 'text');
    bad(() => model.trace({ text: '月', tokens: [4] }), 'input');
    const trap = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no keys');
        },
      },
    );
    bad(() => model.trace(trap), 'input');
    bad(() => model.encode('月', trap), 'options');
    bad(() => model.trace({ words: '月' }), 'words');
    bad(() => model.trace({ tokens: [4, , 5] }), 'tokens[1]'); // eslint-disable-line no-sparse-arrays
    bad(() => model.trace({ tokens: [4, 99] }), 'tokens[1]');
    bad(() => model.trace({ text: '' }), 'text');
    bad(() => model.trace({ text: '月' }, { layer: 2 }), 'layer');
    bad(() => model.predict('月', { temperature: 0 }), 'temperature');
    bad(() => model.predict('月', { topK: 1.5 }), 'topK');
    bad(() => model.predict('', {}), 'text');
    bad(() => model.predict({ tokens: new Array(17).fill(4) }), 'tokens', 'LIMIT_EXCEEDED');
    bad(() => model.generate('月', { count: 0 }), 'count');
    bad(() => model.generate('月', { count: 1025 }), 'count');
    bad(() => model.generate('月', { seed: -1, greedy: false }), 'seed');
    bad(() => model.generate('月', { greedy: 'yes' }), 'greedy');
    bad(() => model.generate('月', { topK: 999 }), 'topK');
    bad(() => model.headLabels('月', { layer: 0 }), 'layer');
    // A refused call changes nothing.
    assert.deepEqual(model.generate('床前', { count: 3 }), model.generate('床前', { count: 3 }));
  });
});

test('100 load / encode / trace / predict / generate / headLabels / dispose cycles do not grow the WASM heap', () => {
  const cycle = () =>
    withModel(charFile, (model) => {
      model.encode('床前明月光');
      model.trace('床前明月光');
      model.predict('床前明月光');
      model.generate('床前明月光', { count: 5, greedy: false });
      model.headLabels('床前明月光，疑是地上霜。');
    });
  for (let i = 0; i < 5; i++) cycle();
  const before = engine.heapStats();
  for (let i = 0; i < 100; i++) cycle();
  const after = engine.heapStats();
  assert.ok(after.inUse <= before.inUse + 4096, `heap in use ${before.inUse} → ${after.inUse}`);
  assert.equal(after.memory, before.memory);
});
