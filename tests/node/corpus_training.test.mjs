// A language model trained on a user's own text (engine.createCorpusTrainer): the
// vocabulary and the unigram and bigram baselines checked against an independent computation
// here, the loss falling on a small repeated text, the same result whatever the pieces the text
// is read in, the saved file opening as a LanguageModel, and every bad text refused by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAttentionError, createEngine } from './support.mjs';
import { CORPUS_TEXT_FIELDS } from '../../dist/engine/catalog.js';
import { compileModule } from '../../dist/engine/module.js';
import { parseModelFile } from './corpus_model_support.mjs';

const engine = await createEngine();
const SMALL = { dModel: 32, heads: 2, layers: 2, learningRate: 3e-3, batchSize: 16, seed: 3 };
const LINES = 'the cat sat on the mat. the dog sat on the log. ';

function train(text, options = {}) {
  return engine.createCorpusTrainer(text, { level: 'character', contextLength: 16, ...SMALL, ...options });
}

/** UTF-8 byte order, as the engine breaks ties between equally frequent symbols. */
const byteOrder = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Character-level ids, split and baselines computed from scratch (corpus.hpp's definitions). */
function reference(text, heldOutShare, contextLength) {
  const symbols = Array.from(text);
  const counts = new Map();
  for (const s of symbols) counts.set(s, (counts.get(s) ?? 0) + 1);
  const ranked = [...counts.keys()].sort((a, b) => counts.get(b) - counts.get(a) || byteOrder(a, b));
  const vocabulary = ['<pad>', '<unk>', '<bos>', '<eos>', ...ranked];
  const idOf = new Map(vocabulary.map((s, i) => [s, i]));
  const ids = symbols.map((s) => idOf.get(s));
  const held = Math.min(4096, Math.max(2, Math.round(ids.length * heldOutShare)));
  const trainIds = ids.slice(0, ids.length - held);
  const heldIds = ids.slice(ids.length - held);
  const V = vocabulary.length;
  const unigramCount = new Array(V).fill(0);
  const pairCount = new Map();
  trainIds.forEach((id, i) => {
    unigramCount[id]++;
    if (i > 0) pairCount.set(`${trainIds[i - 1]} ${id}`, (pairCount.get(`${trainIds[i - 1]} ${id}`) ?? 0) + 1);
  });
  const contexts = unigramCount.slice();
  contexts[trainIds.at(-1)]--;
  // Every held-out id but the first is a target once; its context is the id before it (the
  // windows of contextLength + 1 overlap by one id, so that holds at their edges too).
  assert.ok(contextLength >= 1);
  const loss = (lambda) => {
    let sum = 0;
    for (let i = 1; i < heldIds.length; i++) {
      const [a, b] = [heldIds[i - 1], heldIds[i]];
      const unigram = (unigramCount[b] + 1) / (trainIds.length + V);
      const conditional = contexts[a] > 0 ? (pairCount.get(`${a} ${b}`) ?? 0) / contexts[a] : 0;
      sum -= Math.log(lambda * conditional + (1 - lambda) * unigram);
    }
    return sum / (heldIds.length - 1);
  };
  const lambdas = Array.from({ length: 19 }, (_, k) => 0.05 * (k + 1));
  const bigram = Math.min(...lambdas.map(loss));
  return { vocabulary, trainTokens: trainIds.length, heldOutTokens: held, unigram: loss(0), bigram };
}

test('the vocabulary, the held-out split and the unigram and bigram baselines match an independent computation', () => {
  const text = `${'床前明月光，疑是地上霜。举头望明月，低头思故乡。'.repeat(6)}${LINES.repeat(8)}`;
  const trainer = train(text, { heldOut: 0.15, contextLength: 12 });
  try {
    const want = reference(text, 0.15, 12);
    assert.deepEqual([...trainer.vocabulary], want.vocabulary);
    assert.equal(trainer.summary.trainTokens, want.trainTokens);
    assert.equal(trainer.summary.heldOutTokens, want.heldOutTokens);
    assert.equal(trainer.summary.tokens, Array.from(text).length);
    assert.equal(trainer.summary.bytes, Buffer.byteLength(text));
    assert.equal(trainer.baselines.targets, want.heldOutTokens - 1);
    assert.ok(
      Math.abs(trainer.baselines.unigram - want.unigram) < 1e-9,
      `${trainer.baselines.unigram} vs ${want.unigram}`,
    );
    assert.ok(Math.abs(trainer.baselines.bigram - want.bigram) < 1e-9, `${trainer.baselines.bigram} vs ${want.bigram}`);
    assert.ok(trainer.baselines.bigram < trainer.baselines.unigram);
  } finally {
    trainer.dispose();
  }
});

test('on a small repeated text the held-out loss falls below the bigram baseline', () => {
  const trainer = train(LINES.repeat(40));
  try {
    const before = trainer.heldOutLoss();
    // Near ln V at the start: the model knows nothing yet.
    assert.ok(Math.abs(before - Math.log(trainer.vocabulary.length)) < 0.3, `start ${before}`);
    let last;
    for (let i = 0; i < 6; i++) last = trainer.step(50);
    assert.equal(last.step, 300);
    assert.equal(trainer.steps, 300);
    const after = trainer.heldOutLoss();
    assert.ok(after < trainer.baselines.unigram, `held-out ${after}, unigram ${trainer.baselines.unigram}`);
    assert.ok(after < trainer.baselines.bigram, `held-out ${after}, bigram ${trainer.baselines.bigram}`);
    // A sample from a fixed prompt: seeded, so the same twice, and made of the text's symbols.
    const options = { count: 24, greedy: false, temperature: 0.8, seed: 7 };
    const sample = trainer.generate('the ', options);
    assert.equal(trainer.generate('the ', options).text, sample.text);
    assert.ok(sample.text.startsWith('the '));
    assert.ok(sample.tokens.every((t) => trainer.vocabulary.includes(t)));
    // Every head's attention on an excerpt: causal rows that sum to 1.
    const a = trainer.attention('the cat sat');
    assert.deepEqual(a.tokens, Array.from('the cat sat'));
    assert.equal(a.weights.length, 2 * 2 * 11 * 11);
    for (let row = 0; row < 4 * 11; row++) {
      const r = a.weights.subarray(row * 11, row * 11 + 11);
      assert.ok(Math.abs(r.reduce((s, w) => s + w, 0) - 1) < 1e-5);
      assert.equal(r[(row % 11) + 1] ?? 0, 0); // no weight on the next token
    }
  } finally {
    trainer.dispose();
  }
});

test('the text read in pieces of any size gives the same vocabulary, split and baselines', () => {
  // Multi-byte characters and an emoji sequence across piece boundaries; word level cut at spaces.
  const text = `${'雪山 🐱‍👤 naïve café, 床前明月光 the end.\n'.repeat(12)}`;
  for (const level of ['character', 'word']) {
    const whole = train(text, { level, contextLength: 8 });
    const fractions = [];
    const pieces = train(text, {
      level,
      contextLength: 8,
      chunkBytes: 7,
      onProgress: (p) => fractions.push(p.fraction),
    });
    try {
      assert.deepEqual([...pieces.vocabulary], [...whole.vocabulary]);
      assert.deepEqual(pieces.summary, whole.summary);
      assert.deepEqual(pieces.baselines, whole.baselines);
      // The progress: one call per piece counted, then one per piece encoded, rising to 1.
      assert.ok(fractions.length >= Math.ceil(Buffer.byteLength(text) / 7));
      assert.ok(fractions.every((f, i) => i === 0 || f >= fractions[i - 1]));
      assert.equal(fractions.at(-1), 1);
    } finally {
      whole.dispose();
      pieces.dispose();
    }
  }
  const words = train(text, { level: 'word', contextLength: 8 });
  try {
    // The engine's tokenizer splits the words: the same count as tokenize() of the text.
    assert.equal(words.summary.tokens, engine.tokenize(text).length);
    assert.ok(words.vocabulary.includes('naïve') && words.vocabulary.includes('🐱‍👤'));
  } finally {
    words.dispose();
  }
});

test("the saved file opens as a LanguageModel with the text's vocabulary, losses and the same generations", () => {
  const trainer = train(LINES.repeat(20), { title: 'Cats', corpus: 'a test text' });
  try {
    trainer.step(30);
    const model = engine.loadModel(trainer.save());
    try {
      assert.equal(model.constructor.name, 'LanguageModel');
      assert.equal(model.vocabularyLevel, 'character');
      assert.deepEqual([...model.vocabulary], [...trainer.vocabulary]);
      assert.equal(model.config.title, 'Cats');
      assert.equal(model.config.corpus, 'a test text');
      assert.equal(model.config.trainedSteps, 30);
      assert.equal(model.config.unigramLoss, trainer.baselines.unigram);
      assert.equal(model.config.bigramLoss, trainer.baselines.bigram);
      assert.ok(Math.abs(model.config.heldOutLoss - trainer.heldOutLoss()) < 1e-12);
      assert.equal(model.generate('the ', { count: 12 }).text, trainer.generate('the ', { count: 12 }).text);
    } finally {
      model.dispose();
    }
  } finally {
    trainer.dispose();
  }
});

test('repeatSpans, a corpus trainer field, reaches the engine, is checked by its row and is recorded', () => {
  const row = engine.trainerFields.find((f) => f.name === 'repeatSpans');
  assert.deepEqual([row.section, row.kind, row.fallback, row.min, row.max], ['corpus', 'number', 0, 0, 1]);
  assertAttentionError(() => train(LINES.repeat(20), { repeatSpans: 1.5 }), {
    code: 'INVALID_ARGUMENT',
    field: 'repeatSpans',
    message: /^repeatSpans \(1\.5\) must be a number from 0 to 1/,
  });
  // A toy task's trainer has no windows of text to repeat: the field is not one of its own.
  assertAttentionError(() => engine.createTrainer({ repeatSpans: 0.5 }), {
    field: 'repeatSpans',
    message: /unknown field "repeatSpans"/,
  });
  const losses = [];
  for (const repeatSpans of [0, 1]) {
    const trainer = train(LINES.repeat(20), { repeatSpans });
    try {
      assert.equal(trainer.trainerConfig.repeatSpans, repeatSpans);
      losses.push(trainer.step(1).loss);
      const model = engine.loadModel(trainer.save());
      try {
        // Recorded when above 0, as attention_train_corpus records it.
        assert.equal(model.config.repeatSpans, repeatSpans || undefined);
      } finally {
        model.dispose();
      }
    } finally {
      trainer.dispose();
    }
  }
  // The same seed, other windows: every window of the second run repeats a span.
  assert.notEqual(losses[0], losses[1]);
});

test('a corpus trainer that would exhaust WASM memory is refused before it allocates, naming contextLength', () => {
  const text = LINES.repeat(40);
  const before = engine.heapStats().memory;
  assertAttentionError(() => train(text, { contextLength: 256, dModel: 256, batchSize: 4096 }), {
    code: 'LIMIT_EXCEEDED',
    field: 'batchSize',
    message: /4096 sequences of 256 tokens\); the engine allows 1024 MiB: .* or contextLength$/,
  });
  assert.equal(engine.heapStats().memory, before, 'WASM memory did not grow');
  train(text).dispose(); // and a trainer that fits is made
});

test('every bad text is refused with the field and the limit, and the engine stays usable', () => {
  const { maxTextBytes, maxVocabulary, minTokens } = engine.corpusLimits;
  assert.equal(maxTextBytes, 16 * 2 ** 20);
  const cases = [
    ['', { code: 'INVALID_ARGUMENT', field: 'text', message: /^text is empty: give at least 24 tokens/ }],
    [
      Uint8Array.from([...Buffer.from('a valid start '), 0xff, 0x61]),
      {
        code: 'INVALID_UTF8',
        field: 'text',
        message: 'text is not valid UTF-8: invalid lead byte 0xFF at byte offset 14',
      },
    ],
    ['bad \ud800 surrogate', { code: 'INVALID_UTF8', field: 'text', message: /lone UTF-16 surrogate at index 4/ }],
    [
      `${LINES}\0${LINES}`,
      { code: 'INVALID_ARGUMENT', field: 'text', message: /NUL byte at byte offset 48: it looks like a binary file/ },
    ],
    [
      `${LINES}\x01\x02\x03`,
      { code: 'INVALID_ARGUMENT', field: 'text', message: /3 control characters among 51 .*at most 1%.*binary file/ },
    ],
    ['a'.repeat(500), { field: 'text', message: /one character \("a"\) repeated 500 times: a model learns nothing/ }],
    ['ab', { field: 'text', message: `text has 2 characters; at least ${minTokens} are needed to train on` }],
    [
      new Uint8Array(maxTextBytes + 1).fill(0x61),
      {
        code: 'LIMIT_EXCEEDED',
        field: 'text',
        message: /^text \(16777217 bytes\) must be at most 16777216 bytes \(16 MiB\)/,
      },
    ],
  ];
  for (const [text, expected] of cases) {
    assertAttentionError(() => train(text), expected);
    // Still usable: a good text trains at once.
    const ok = train(LINES.repeat(3), { contextLength: 8 });
    ok.step(1);
    ok.dispose();
  }
  // An invalid byte in a later piece is named by its offset in the whole text.
  assertAttentionError(() => train(Uint8Array.from([...Buffer.from(LINES), 0xc3, 0x28]), { chunkBytes: 5 }), {
    message: /invalid continuation byte 0x28 at byte offset 49/,
  });
  // The same word repeated, at word level.
  assertAttentionError(() => train('la '.repeat(100), { level: 'word' }), {
    message: /^text is one word \("la"\) repeated 100 times/,
  });
  // A vocabulary past the limit: more distinct words than 8,192 ids hold; minCount keeps fewer.
  const many = Array.from({ length: 9000 }, (_, i) => `w${i}`).join(' ');
  assertAttentionError(() => train(many, { level: 'word' }), {
    code: 'LIMIT_EXCEEDED',
    field: 'vocabulary',
    message: new RegExp(
      `^the text has 9000 distinct words .* \\(vocabularySize; the limit is ${maxVocabulary}\\) holds 8188`,
    ),
  });
  assertAttentionError(() => train(LINES, { vocabularySize: 10 }), {
    field: 'vocabulary',
    message: /the text has 14 distinct characters .* of 10 ids .* holds 6 besides/,
  });
  assertAttentionError(() => train(LINES, { vocabularySize: maxVocabulary + 1 }), {
    field: 'vocabularySize',
    message: `vocabularySize (8193) must be an integer from 5 to ${maxVocabulary}`,
  });
  assertAttentionError(() => train(LINES, { minCount: 1000 }), { field: 'minCount', message: /keeps 0 distinct/ });
  assertAttentionError(() => train(LINES, { level: 'byte' }), { field: 'level', message: /one of character, word/ });
  assertAttentionError(() => train(LINES, { contextLength: 1000 }), {
    field: 'contextLength',
    message: 'contextLength (1000) must be an integer from 2 to 256',
  });
  assertAttentionError(() => train(LINES, { contextLength: 64 }), {
    field: 'contextLength',
    message: /^the training text has 43 tokens; contextLength \+ 1 = 65 are needed/,
  });
  assertAttentionError(() => train(LINES, { length: 8 }), { field: 'length', message: /toy task's field/ });
  assertAttentionError(() => train(LINES, { colour: 1 }), { field: 'colour', message: /unknown option/ });
  assertAttentionError(() => train(LINES, { dModel: 0 }), { field: 'dModel', message: /dModel \(0\) must be/ });
  assertAttentionError(() => train(LINES, { heldOut: 0.9 }), { field: 'heldOut', message: /at most 0.5/ });
  assertAttentionError(() => train(42), { field: 'text', message: /must be a string, a Uint8Array/ });
});

test('creating, training and disposing corpus trainers returns the WASM heap to where it was', () => {
  const text = LINES.repeat(30);
  const cycle = () => {
    const trainer = train(text);
    trainer.step(2);
    trainer.generate('the ', { count: 5 });
    trainer.save();
    trainer.dispose();
  };
  cycle(); // the first allocations of every size
  const before = engine.heapStats();
  for (let i = 0; i < 20; i++) cycle();
  const after = engine.heapStats();
  assert.equal(after.inUse, before.inUse, 'heap in use');
  assert.equal(after.memory, before.memory, 'WASM memory');
});

// The text options' rows (corpus_fields.hpp) are the one place of their defaults and bounds: the
// API takes its defaults and checks from them, and the engine behind it (called here without the
// API's checks) refuses the same values with the same words.
test('text options take their defaults and bounds from the engine rows', async () => {
  const row = Object.fromEntries(CORPUS_TEXT_FIELDS.map((f) => [f.name, f]));
  assert.equal(row.level.required, true);
  assert.deepEqual(row.level.values, ['character', 'word']);
  const { minContextLength, maxContextLength, maxVocabulary } = engine.corpusLimits;
  assert.deepEqual(
    [minContextLength, maxContextLength, maxVocabulary],
    [row.contextLength.min, row.contextLength.pageMax, row.vocabularySize.pageMax],
  );
  const trainer = engine.createCorpusTrainer(LINES.repeat(4), { level: 'character', ...SMALL });
  assert.equal(trainer.trainerConfig.contextLength, row.contextLength.fallback);
  assert.equal(trainer.summary.heldOutTokens, Math.round(trainer.summary.tokens * row.heldOut.fallback));
  trainer.dispose();

  const beyond = (f) => (f.kind === 'int' ? f.pageMax + 1 : f.pageMax * 1.5);
  const below = (f) => (f.minOpen ? f.min : f.min - 1);
  const module = (await compileModule())();
  const text = new TextEncoder().encode(LINES.repeat(4));
  const fallback = (name) => row[name].fallback;
  for (const f of CORPUS_TEXT_FIELDS.filter((r) => r.kind !== 'enum')) {
    for (const value of [below(f), beyond(f)]) {
      const message = `${f.name} (${value}) must be ${f.allowed}`;
      assertAttentionError(() => train(LINES.repeat(4), { [f.name]: value }), { field: f.name, message });
      const handle = new module.ModelHandle();
      try {
        assert.ok(handle.corpusStart('character', text.length) && handle.corpusAdd(text));
        const given = (name) => (name === f.name ? value : fallback(name));
        let ok = handle.corpusFinish(given('vocabularySize'), given('minCount'), given('heldOut'));
        if (ok && f.name === 'contextLength') {
          while (!handle.corpusEncode().done);
          ok = handle.corpusTrain({}, value);
        }
        assert.equal(ok, false, `${f.name} ${value} passed the engine`);
        assert.deepEqual([handle.errorField(), handle.errorMessage()], [f.name, message]);
      } finally {
        handle.delete();
      }
    }
  }
});

test('a handle that read a text model file and then creates a task trainer saves the trainer, not the file', async () => {
  const engine = await createEngine();
  const trainer = engine.createCorpusTrainer(LINES.repeat(4), { level: 'character', ...SMALL });
  const textModel = trainer.save();
  trainer.dispose();
  const module = (await compileModule())();
  const handle = new module.ModelHandle();
  try {
    assert.ok(handle.load(textModel), handle.errorMessage());
    assert.ok(handle.create({ task: 'copy', length: 3, alphabet: 4, layers: 1, heads: 1, dModel: 8 }));
    const { config } = parseModelFile(handle.save(false));
    assert.equal(config.vocabulary, 'task');
    assert.equal(config.task, 'copy');
  } finally {
    handle.delete();
  }
});
