// Edge cases of what a learner may type or paste, through the public JS API: each text is tokenized
// and run under several configurations and every step of every trace is checked (finite, −∞ only
// where masked, weights rows a distribution or flagged all-masked), or the AttentionError's code,
// field and message are pinned. Then 10,000 runs must keep the JS heap bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { assertAttentionError, createEngine, fullTier } from './support.mjs';

const engine = await createEngine();

// What changes the softmax (mask, heads, temperature, initialisation) and the tutorials' setup.
const CONFIGS = [
  {},
  { dModel: 16, heads: 4, bias: true, mask: 'causal' },
  { mask: { type: 'window', width: 1, causal: true }, init: 'randn' },
  { embedding: 'stream', heads: 1, dK: 4, outputProjection: false, positionalEncoding: false },
  { dModel: 64, init: 'randn', temperature: 0.01 },
  { temperature: 100 },
  { mask: { type: 'bigbird', width: 1, block: 2, random: 1, seed: 3 }, heads: 1 },
];

/** Fails with the first violation of what every trace must satisfy. */
function checkTrace(trace) {
  const mask = trace.step('mask').data;
  const rowMasked = trace.step('rowMasked').data;
  const { nQuery: n, nKey: m } = trace;
  for (const name of trace.stepNames) {
    const steps = trace.steps[name];
    for (const step of Array.isArray(steps) ? steps : [steps]) {
      const where = `${name}${step.head === null ? '' : `[${step.head}]`}`;
      assert.equal(step.data.length, step.rows * step.cols, `${where}: data length`);
      assert.equal(step.rowLabels.length, step.rows, `${where}: row labels`);
      assert.equal(step.colLabels.length, step.cols, `${where}: column labels`);
      for (let i = 0; i < step.data.length; i++) {
        const v = step.data[i];
        const hidden = name === 'masked' && mask[i] === 0;
        if (hidden ? v !== -Infinity : !Number.isFinite(v)) assert.fail(`${where} holds ${v} at index ${i}`);
      }
    }
  }
  for (let h = 0; h < trace.heads; h++) {
    const w = trace.step('weights', h).data;
    const rowMax = trace.step('rowMax', h).data;
    const rowEntropy = trace.step('rowEntropy', h).data;
    for (let i = 0; i < n; i++) {
      let sum = 0;
      let largest = 0;
      for (let j = 0; j < m; j++) {
        const a = w[i * m + j];
        if (!(a >= 0 && a <= 1) || (mask[i * m + j] === 0 && a !== 0)) {
          assert.fail(`weights[${h}] (${i}, ${j}) is ${a}`);
        }
        sum += a;
        largest = Math.max(largest, a);
      }
      const expected = rowMasked[i] === 1 ? 0 : 1;
      assert.ok(Math.abs(sum - expected) <= 1e-5 * (m + 1), `weights[${h}] row ${i} sums to ${sum}`);
      assert.ok(Math.abs(rowMax[i] - largest) <= 1e-6, `rowMax[${h}] row ${i}`);
      assert.ok(rowEntropy[i] >= -1e-5 && rowEntropy[i] <= Math.log(m) + 1e-4, `rowEntropy[${h}] row ${i}`);
    }
  }
}

/** Tokenizes `text`, checks the tokens, runs every configuration on them and checks each trace. */
function runsSensibly(text, expectedTokens) {
  const tokens = engine.tokenize(text);
  if (expectedTokens) assert.deepEqual(tokens, expectedTokens);
  for (const config of CONFIGS) checkTrace(engine.run({ text, ...config }));
  return tokens;
}

test('the limits come from the engine', () => {
  assert.ok(engine.limits.maxTokens >= 1024);
  assert.equal(engine.limits.maxTextBytes, 100000);
  assert.equal(engine.limits.maxTokenBytes, 1024);
});

test('empty input and only spaces: no tokens, and a clear error from run', () => {
  for (const text of ['', ' ', ' \t\r\n', '\u00a0\u2003\u3000']) {
    assert.deepEqual(engine.tokenize(text), []);
    assertAttentionError(() => engine.run({ text }), {
      code: 'INVALID_ARGUMENT',
      field: 'tokens',
      message: 'tokens must hold at least 1 token, got none',
    });
  }
});

test('one token attends to itself with weight 1', () => {
  runsSensibly('hello', ['hello']);
  const trace = engine.run({ text: 'hello' });
  assert.deepEqual(Array.from(trace.step('weights', 1).data), [1]);
  assert.deepEqual(Array.from(trace.step('rowEntropy', 0).data), [0]);
});

test('only punctuation', () => {
  runsSensibly('?!…,.;:', ['?', '!', '…', ',', '.', ';', ':']);
});

test('emoji and ZWJ sequences', () => {
  const family = '👨\u200d👩\u200d👧\u200d👦';
  const rainbow = '🏳️\u200d🌈';
  runsSensibly(`${family} ${rainbow}👍🏽🇨🇳1️⃣ok`, [family, rainbow, '👍🏽', '🇨🇳', '1️⃣', 'ok']);
});

test('combining marks', () => {
  runsSensibly('e\u0301cole \u0301\u0302 नमस्ते', ['e\u0301cole', '\u0301\u0302', 'नमस्ते']);
});

test('right-to-left text', () => {
  runsSensibly('שלום עולם', ['שלום', 'עולם']);
  runsSensibly('مَرْحَبًا، بالعالم!', ['مَرْحَبًا', '،', 'بالعالم', '!']);
});

test('control characters separate tokens and are dropped', () => {
  runsSensibly('a\u0000b\u0001c\u001b[0m\u007fd\u0085e', ['a', 'b', 'c', '[', '0m', 'd', 'e']);
});

test('mixed scripts', () => {
  runsSensibly('Hello 世界 Привет مرحبا 🙂 नमस्ते', ['Hello', '世', '界', 'Привет', 'مرحبا', '🙂', 'नमस्ते']);
});

test('a 10,000-character paste', fullTier, () => {
  const prose = 'The quick brown fox jumps over the lazy dog. '.repeat(223).slice(0, 10000);
  const tokens = engine.tokenize(prose);
  assert.equal(tokens.length, 2222);
  assertAttentionError(() => engine.run({ text: prose }), {
    code: 'LIMIT_EXCEEDED',
    field: 'tokens',
    message: 'tokens (2222 tokens) must hold at most 2048 tokens',
  });
  // What a page's "truncate" offers: the first maxTokens tokens run.
  const live = engine.open({ tokens: tokens.slice(0, engine.limits.maxTokens), heads: 1 });
  try {
    const weights = live.step('weights', 0);
    assert.equal(weights.rows, 2048);
    for (const i of [0, 1000, 2047]) {
      const row = weights.data.subarray(i * 2048, (i + 1) * 2048);
      assert.ok(Math.abs(row.reduce((s, a) => s + a, 0) - 1) < 1e-4);
    }
  } finally {
    live.dispose();
  }
  assert.equal(engine.tokenize('我爱吃火锅'.repeat(2000)).length, 10000);
  assertAttentionError(() => engine.run({ text: 'a'.repeat(10000) }), {
    code: 'LIMIT_EXCEEDED',
    field: 'tokens[0]',
    message: 'tokens[0] (10000 bytes) must be at most 1024 bytes of UTF-8',
  });
});

test('text beyond maxTextBytes (UTF-8 bytes) is refused, naming the field', () => {
  assert.equal(engine.tokenize('a'.repeat(100000)).length, 1);
  assertAttentionError(() => engine.tokenize('a'.repeat(100001)), {
    code: 'LIMIT_EXCEEDED',
    field: 'text',
    message: 'text (100001 bytes) must be at most 100000 bytes of UTF-8; truncate it',
  });
  assertAttentionError(() => engine.run({ text: 'a', kvText: 'é'.repeat(50001) }), {
    code: 'LIMIT_EXCEEDED',
    field: 'kvText',
    message: 'kvText (100002 bytes) must be at most 100000 bytes of UTF-8; truncate it',
  });
});

test('every row masked: zero weights, flagged rows, no NaN', () => {
  const zeros = { type: 'custom', matrix: [Array(3).fill(0), Array(3).fill(0), Array(3).fill(0)] };
  for (const mask of [zeros, { type: 'padding', positions: [0, 1, 2] }]) {
    const trace = engine.run({ tokens: ['a', 'b', 'c'], mask, bias: true });
    checkTrace(trace);
    assert.deepEqual(Array.from(trace.step('rowMasked').data), [1, 1, 1]);
    assert.ok(trace.step('weights', 1).data.every((a) => a === 0));
    assert.ok(trace.step('masked', 0).data.every((x) => x === -Infinity));
  }
});

test('temperature at its bounds', () => {
  for (const temperature of [engine.limits.minTemperature, engine.limits.maxTemperature]) {
    checkTrace(engine.run({ text: 'we love attention !', dModel: 64, init: 'randn', temperature }));
  }
  for (const temperature of [0.0099, 100.001]) {
    assertAttentionError(() => engine.run({ text: 'a b', temperature }), {
      code: 'INVALID_ARGUMENT',
      field: 'temperature',
      message: `temperature (${temperature}) must be a number from 0.01 to 100`,
    });
  }
  assertAttentionError(() => engine.run({ text: 'a b', temperature: Infinity }), {
    code: 'INVALID_ARGUMENT',
    field: 'temperature',
    message: 'temperature (inf) must be a number from 0.01 to 100',
  });
});

test('extreme weights (±1e30) are computed, or refused as an overflow naming the step', () => {
  const big = Array.from({ length: 4 }, (_, r) => Array.from({ length: 4 }, (_, c) => ((r + c) % 2 ? -1e30 : 1e30)));
  const ok = engine.run({ tokens: ['a', 'b', 'c'], dModel: 4, heads: 1, given: { wV: big } });
  checkTrace(ok);
  assert.ok(ok.step('output').data.some((v) => Math.abs(v) > 1e28));
  assertAttentionError(() => engine.run({ tokens: ['a', 'b'], dModel: 4, heads: 1, given: { wQ: big, wK: big } }), {
    code: 'NON_FINITE',
    field: /^(scores|scaled)$/,
    message: /overflowed float32 at step (scores|scaled) \(head 0\)/,
  });
});

test('NaN or Infinity in a given matrix: the matrix and the position are named', () => {
  const x = [
    [1, 2, 3, 4],
    [5, 6, NaN, 8],
  ];
  assertAttentionError(() => engine.run({ tokens: ['a', 'b'], dModel: 4, embedding: 'given', given: { x } }), {
    code: 'NON_FINITE',
    field: 'given.x',
    message: 'given.x[1][2] is NaN; every value must be a finite number',
  });
  const wO = Array.from({ length: 4 }, (_, r) => [r === 3 ? Infinity : 0.5, 0, 0, 0]);
  assertAttentionError(() => engine.run({ tokens: ['a'], dModel: 4, given: { wO } }), {
    code: 'NON_FINITE',
    field: 'given.wO',
    message: 'given.wO[3][0] is Infinity; every value must be a finite number',
  });
  assertAttentionError(
    () => engine.run({ tokens: ['a'], dModel: 4, bias: true, given: { bQ: [0, -Infinity, 0, 0] } }),
    {
      code: 'NON_FINITE',
      field: 'given.bQ',
      message: 'given.bQ[0][1] is -Infinity; every value must be a finite number',
    },
  );
});

test('scores spanning more than FLT_MAX keep a finite entropy', () => {
  const options = {
    tokens: ['a', 'b'],
    dModel: 1,
    heads: 1,
    scale: false,
    positionalEncoding: false,
    outputProjection: false,
    embedding: 'given',
    given: { x: [[1.5e19], [-1e19]], wQ: [[1]], wK: [[1]], wV: [[1]] },
  };
  checkTrace(engine.run(options));
});

test('a huge paste is refused before it reaches WASM memory', async () => {
  const fresh = await createEngine(); // memory not yet grown by the other tests
  const before = fresh.heapStats().memory;
  assertAttentionError(() => fresh.tokenize('a'.repeat(20_000_000)), { code: 'LIMIT_EXCEEDED' });
  assert.equal(fresh.heapStats().memory, before, 'WASM memory grew, for good');
});

/** The garbage collector: exposed by --expose-gc, or switched on now (V8 accepts it at run time). */
function collector() {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc');
}

test('10,000 runs keep the JS heap bounded', () => {
  const gc = collector();
  const sizes = [1, 2, 5, 8, 13, 21, 34];
  const once = (i) => {
    const n = sizes[i % sizes.length];
    const tokens = Array.from({ length: n }, (_, j) => `t${(i + j) % 89}`);
    const options = { tokens, dModel: 16, heads: 2, seed: i, mask: i % 2 ? 'causal' : 'none' };
    if (i % 4 === 0) {
      const live = engine.open(options);
      live.step('weights', 1);
      live.dispose();
    } else {
      engine.run(options);
    }
  };
  // Warm-up: compiled code, Embind's caches and V8's heap layout settle first.
  for (let i = 0; i < 1000; i++) once(i);
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 10000; i++) once(i);
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  const mb = (bytes) => (bytes / 2 ** 20).toFixed(2);
  console.log(`  JS heap in use: ${mb(before)} MB after warm-up, ${mb(after)} MB after 10,000 more runs`);
  assert.ok(after - before < 10 * 2 ** 20, `the JS heap grew by ${mb(after - before)} MB`);
});
