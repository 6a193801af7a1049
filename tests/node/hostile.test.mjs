// Hostile inputs through the public JS API: arrays with holes, huge counts and
// shapes, getters that change their answer, names that exist on Object.prototype, values far
// outside every range. Each is refused with an AttentionError naming the field and the value
// given, before anything reaches WASM memory, and the engine stays healthy afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAttentionError, createEngine } from './support.mjs';

const engine = await createEngine();
const reference = engine.run({ tokens: ['我', '爱', '吃', '火锅'], seed: 7 }).step('output').data;

/** The engine still computes exactly what it computed before. */
function healthy(e = engine) {
  assert.deepEqual(e.run({ tokens: ['我', '爱', '吃', '火锅'], seed: 7 }).step('output').data, reference);
}

const identity = (n) => Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => (r === c ? 1 : 0)));

test('arrays with holes are refused naming the hole, and the engine stays healthy', () => {
  const before = engine.heapStats().inUse;
  const hole = { code: 'INVALID_ARGUMENT' };
  for (let i = 0; i < 300; i++) {
    // eslint-disable-next-line no-sparse-arrays
    assertAttentionError(() => engine.run({ tokens: ['a', , 'b'] }), {
      ...hole,
      field: 'tokens[1]',
      message: /tokens\[1\]/,
    });
    assertAttentionError(() => engine.run({ tokens: new Array(3) }), { ...hole, field: 'tokens[0]' });
    assertAttentionError(() => engine.open({ tokens: ['a'], kvTokens: ['x', , 'y'] }), {
      ...hole,
      field: 'kvTokens[1]',
    });
  }
  const two = { tokens: ['a', 'b'], dModel: 2, heads: 1 };
  const custom = (matrix) => ({ ...two, mask: { type: 'custom', matrix } });
  /* eslint-disable no-sparse-arrays */
  const cases = [
    [{ ...two, mask: { type: 'padding', positions: [0, , 1] } }, 'mask.positions[1]', /mask\.positions\[1\]/],
    [{ ...two, mask: { type: 'padding', positions: new Array(1) } }, 'mask.positions[0]', /mask\.positions\[0\]/],
    [
      custom([
        [1, ,],
        [1, 1],
      ]),
      'mask.matrix',
      /mask\.matrix\[0\]\[1\]/,
    ],
    [custom([[1, 1], ,]), 'mask.matrix', /mask\.matrix\[1\]/],
    [{ ...two, given: { wQ: [[1, 0], , [0, 1]] } }, 'given.wQ', /given\.wQ\[1\]/],
    [
      {
        ...two,
        given: {
          wQ: [
            [1, ,],
            [0, 1],
          ],
        },
      },
      'given.wQ',
      /given\.wQ\[0\]\[1\]/,
    ],
    [
      {
        ...two,
        given: {
          wQ: [
            [1, '0'],
            [0, 1],
          ],
        },
      },
      'given.wQ',
      /given\.wQ\[0\]\[1\] \("0"\)/,
    ],
    [{ ...two, given: { wQ: { data: [1, , 0, 1], rows: 2, cols: 2 } } }, 'given.wQ', /given\.wQ\.data\[1\]/],
    [{ ...two, bias: true, given: { bQ: [1, , 0] } }, 'given.bQ', /given\.bQ\[1\]/],
  ];
  /* eslint-enable no-sparse-arrays */
  for (const [options, field, message] of cases)
    assertAttentionError(() => engine.run(options), { ...hole, field, message });
  assert.equal(engine.heapStats().inUse, before, 'nothing leaked');
  healthy();
});

test('a getter that throws is reported as an AttentionError for its field', () => {
  const tokens = ['a', 'b'];
  Object.defineProperty(tokens, 1, {
    get() {
      throw 42; // a bare number, as a hostile getter may throw
    },
  });
  assertAttentionError(() => engine.run({ tokens }), {
    code: 'INVALID_ARGUMENT',
    field: 'tokens[1]',
    message: /threw 42/,
  });
  const options = {
    tokens: ['a'],
    get dModel() {
      throw new RangeError('no');
    },
  };
  assertAttentionError(() => engine.run(options), {
    code: 'INVALID_ARGUMENT',
    field: 'dModel',
    message: /threw RangeError: no/,
  });
  const trap = new Proxy(
    {},
    {
      get() {
        throw 7;
      },
    },
  );
  assertAttentionError(() => engine.run({ tokens: ['a'], heads: trap }), {
    code: 'INVALID_ARGUMENT',
    field: 'heads',
    message: 'heads (a hostile object) must be an integer',
  });
  assertAttentionError(() => engine.run({ tokens: ['a'], mask: trap }), {
    code: 'INVALID_ARGUMENT',
    field: 'mask.type',
  });
  const keys = new Proxy(
    {},
    {
      ownKeys() {
        throw 7;
      },
    },
  );
  assertAttentionError(() => engine.run(keys), { code: 'INVALID_ARGUMENT', field: 'options', message: /threw 7/ });
  healthy();
});

test('counts and lengths are checked before anything is copied into WASM memory', async () => {
  const fresh = await createEngine(); // its memory has not grown yet
  const memory = fresh.heapStats().memory;
  assertAttentionError(() => fresh.run({ tokens: Array(1e6).fill('w') }), {
    code: 'LIMIT_EXCEEDED',
    field: 'tokens',
    message: 'tokens (1000000 tokens) must hold at most 2048 tokens',
  });
  assertAttentionError(() => fresh.run({ tokens: Array(3e6).fill('x'.repeat(1000)) }), {
    code: 'LIMIT_EXCEEDED',
    field: 'tokens',
    message: 'tokens (3000000 tokens) must hold at most 2048 tokens',
  });
  // 2,048 tokens of 1,000 characters each: 2 bytes of UTF-8 per 'é', too long for a token.
  assertAttentionError(() => fresh.run({ tokens: ['a', ...Array(2047).fill('é'.repeat(1000))] }), {
    code: 'LIMIT_EXCEEDED',
    field: 'tokens[1]',
    message: 'tokens[1] (2000 bytes) must be at most 1024 bytes of UTF-8',
  });
  assertAttentionError(() => fresh.run({ tokens: ['a'], kvTokens: Array(5000).fill('k') }), {
    code: 'LIMIT_EXCEEDED',
    field: 'kvTokens',
    message: 'kvTokens (5000 tokens) must hold at most 2048 tokens',
  });
  assertAttentionError(
    () => fresh.run({ tokens: ['a', 'b'], mask: { type: 'padding', positions: Array(1e6).fill(0) } }),
    {
      code: 'LIMIT_EXCEEDED',
      field: 'mask.positions',
    },
  );
  // A 5000 × 5000 custom mask for two tokens: refused by its shape before a row is read
  // (the rows are one shared array, so the test itself stays small).
  const row = new Array(5000).fill(1);
  assertAttentionError(
    () => fresh.run({ tokens: ['a', 'b'], mask: { type: 'custom', matrix: Array(5000).fill(row) } }),
    {
      code: 'SHAPE_MISMATCH',
      field: 'mask.matrix',
      message: 'mask.matrix must be 2 × 2 (queries × keys), got 5000 × 5000',
    },
  );
  // A 100 MB weight far larger than any valid one: refused by its shape, not copied.
  assertAttentionError(
    () => fresh.run({ tokens: ['a'], given: { wQ: { data: new Float32Array(25e6), rows: 5000, cols: 5000 } } }),
    {
      code: 'LIMIT_EXCEEDED',
      field: 'given.wQ',
      message: /^given\.wQ \(5000 × 5000\) is larger than/,
    },
  );
  assert.equal(fresh.heapStats().memory, memory, 'WASM memory grew');
  healthy(fresh);
});

test('shapes that claim billions of values are refused without reading them', () => {
  // 2.4 GB claimed, nothing allocated: an array-like whose values must never be read.
  const claim = new Proxy(
    { length: 6e8 },
    {
      get(target, key) {
        if (key === 'length') return target.length;
        throw new Error(`value ${String(key)} was read`);
      },
    },
  );
  assertAttentionError(() => engine.run({ tokens: ['a'], given: { wQ: { data: claim, rows: 20000, cols: 30000 } } }), {
    code: 'LIMIT_EXCEEDED',
    field: 'given.wQ',
    message: /^given\.wQ \(20000 × 30000\) is larger than any valid matrix/,
  });
  const row = new Array(40000);
  assertAttentionError(
    () => engine.run({ tokens: ['a', 'b'], mask: { type: 'custom', matrix: Array(40000).fill(row) } }),
    {
      code: 'SHAPE_MISMATCH',
      field: 'mask.matrix',
      message: 'mask.matrix must be 2 × 2 (queries × keys), got 40000 × 40000',
    },
  );
  assertAttentionError(() => engine.run({ tokens: ['a'], given: { x: Array(1e7).fill(row) }, embedding: 'given' }), {
    code: 'LIMIT_EXCEEDED',
    field: 'given.x',
  });
  healthy();
});

test('every option is read once: a getter cannot change a value after it was checked', () => {
  let reads = 0;
  const tokens = ['a', 'b'];
  Object.defineProperty(tokens, 1, {
    get: () => (++reads === 1 ? 'ok' : 'x\ud800'),
    enumerable: true,
  });
  let dModelReads = 0;
  const options = {
    tokens,
    get dModel() {
      return ++dModelReads === 1 ? 8 : 1e9;
    },
  };
  const trace = engine.run(options);
  assert.deepEqual(trace.tokens, ['a', 'ok']);
  assert.equal(trace.dModel, 8);
  assert.equal(reads, 1);
  assert.equal(dModelReads, 1);
  healthy();
});

test('values far outside a range are named as given, not clamped', () => {
  const cases = [
    [{ dModel: 1e300 }, 'dModel', 'dModel (1e+300) must be an integer from 1 to 1024'],
    [{ dModel: 2 ** 31 }, 'dModel', 'dModel (2147483648) must be an integer from 1 to 1024'],
    [{ dModel: -(2 ** 40) }, 'dModel', 'dModel (-1099511627776) must be an integer from 1 to 1024'],
    [{ heads: 1e300 }, 'heads', 'heads (1e+300) must be an integer from 1 to dModel (8)'],
    [{ dK: 2 ** 32 }, 'dK', 'dK (4294967296) must be 0 (meaning dModel / heads) or from 1 to 1024'],
    [{ mask: { type: 'window', width: 1e300 } }, 'mask.width', 'mask.width (1e+300) must be an integer from 0 to 2048'],
    [
      { mask: { type: 'padding', positions: [2 ** 32] } },
      'mask.positions[0]',
      'mask.positions[0] (4294967296) must be a key position from 0 to 1',
    ],
  ];
  for (const [options, field, message] of cases) {
    assertAttentionError(() => engine.run({ tokens: ['a', 'b'], ...options }), {
      code: 'INVALID_ARGUMENT',
      field,
      message,
    });
  }
});

test('step names and heads are looked up as own entries only', () => {
  const trace = engine.run({ tokens: ['a', 'b'] });
  const live = engine.open({ tokens: ['a', 'b'] });
  try {
    for (const t of [trace, live]) {
      for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
        assertAttentionError(() => t.step(name), {
          code: 'UNKNOWN_STEP',
          field: 'step',
          message: /does not exist|was not copied/,
        });
      }
      for (const head of ['length', '0', 2 ** 32, -1, 2, 1.5, NaN, null]) {
        assertAttentionError(() => t.step('weights', head), {
          code: 'UNKNOWN_STEP',
          field: 'head',
          message: /^head \(.*\) must be an integer from 0 to 1$/,
        });
      }
      assertAttentionError(() => t.step('output', 2 ** 32), {
        code: 'UNKNOWN_STEP',
        field: 'head',
        message: 'head (4294967296) must be 0: step "output" is not per head',
      });
    }
    assert.equal(live.step('weights', 1).head, 1);
  } finally {
    live.dispose();
  }
});

test('asking for a step twice copies it once', () => {
  const trace = engine.run({ tokens: ['a', 'b'], heads: 2 }, { steps: ['weights', 'weights', 'output'] });
  assert.deepEqual(trace.stepNames, ['weights', 'output']);
  assert.equal(trace.steps.weights.length, 2);
  assert.deepEqual(
    trace.steps.weights.map((s) => s.head),
    [0, 1],
  );
  assertAttentionError(() => engine.run({ tokens: ['a'] }, { steps: ['__proto__'] }), {
    code: 'UNKNOWN_STEP',
    field: 'step',
  });
  assertAttentionError(() => engine.run({ tokens: ['a'] }, { steps: 'weights' }), {
    code: 'INVALID_ARGUMENT',
    field: 'steps',
  });
});

test('a valid custom mask given as rows still works', () => {
  const trace = engine.run({ tokens: ['a', 'b', 'c'], mask: { type: 'custom', matrix: identity(3) } });
  assert.deepEqual(Array.from(trace.step('weights', 0).data), [1, 0, 0, 0, 1, 0, 0, 0, 1]);
});
