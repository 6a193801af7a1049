// Every bad input gets an AttentionError with a code, the field and the allowed values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAttentionError, createEngine } from './support.mjs';

const engine = await createEngine();

const rejects = (options, expected) => assertAttentionError(() => engine.run(options), expected);

test('configuration ranges (checked in C++)', () => {
  rejects(
    { tokens: ['a'], dModel: 10, heads: 3 },
    { code: 'INVALID_ARGUMENT', field: 'heads', message: 'heads (3) must divide dModel (10), or set dK explicitly' },
  );
  rejects(
    { tokens: ['a'], dModel: 0 },
    { code: 'INVALID_ARGUMENT', field: 'dModel', message: 'dModel (0) must be an integer from 1 to 1024' },
  );
  rejects(
    { tokens: ['a'], dModel: 1e12 },
    { code: 'INVALID_ARGUMENT', field: 'dModel', message: /^dModel \(\d+\) must be an integer from 1 to 1024$/ },
  );
  rejects(
    { tokens: ['a'], temperature: 0 },
    { code: 'INVALID_ARGUMENT', field: 'temperature', message: 'temperature (0) must be a number from 0.01 to 100' },
  );
  rejects(
    { tokens: ['a'], temperature: NaN },
    {
      code: 'INVALID_ARGUMENT',
      field: 'temperature',
      message: /temperature \(nan\) must be a number from 0.01 to 100/i,
    },
  );
  rejects(
    { tokens: ['a', 'b'], mask: { type: 'window', width: -1 } },
    { code: 'INVALID_ARGUMENT', field: 'mask.width', message: 'mask.width (-1) must be an integer from 0 to 2048' },
  );
  rejects(
    { tokens: ['a', 'b'], mask: { type: 'padding', positions: [2] } },
    {
      code: 'INVALID_ARGUMENT',
      field: 'mask.positions[0]',
      message: 'mask.positions[0] (2) must be a key position from 0 to 1',
    },
  );
  rejects(
    { tokens: ['a', 'b'], mask: { type: 'custom', matrix: [[1, 0]] } },
    { code: 'SHAPE_MISMATCH', field: 'mask.matrix', message: 'mask.matrix must be 2 × 2 (queries × keys), got 1 × 2' },
  );
});

test('types and names (checked in JS)', () => {
  rejects(
    { tokens: ['a'], dmodel: 8 },
    { code: 'INVALID_ARGUMENT', field: 'dmodel', message: /^unknown option "dmodel"; options are: tokens, text/ },
  );
  rejects(
    { tokens: ['a'], heads: 1.5 },
    { code: 'INVALID_ARGUMENT', field: 'heads', message: 'heads (1.5) must be an integer' },
  );
  rejects(
    { tokens: ['a'], heads: '2' },
    { code: 'INVALID_ARGUMENT', field: 'heads', message: 'heads ("2") must be an integer' },
  );
  rejects(
    { tokens: ['a'], seed: -1 },
    { code: 'INVALID_ARGUMENT', field: 'seed', message: 'seed (-1) must be an integer from 0 to 4294967295' },
  );
  rejects(
    { tokens: ['a'], mask: 'future' },
    {
      code: 'INVALID_ARGUMENT',
      field: 'mask.type',
      message:
        'mask.type ("future") must be one of none, causal, window, padding, custom, longformer, bigbird, dilated',
    },
  );
  rejects(
    { tokens: ['a'], init: 'xavier' },
    { code: 'INVALID_ARGUMENT', field: 'init', message: 'init ("xavier") must be one of randn, scaled' },
  );
  rejects(
    { tokens: ['a', 7] },
    { code: 'INVALID_ARGUMENT', field: 'tokens[1]', message: 'tokens[1] (7) must be a string' },
  );
  rejects(
    { dModel: 8 },
    { code: 'INVALID_ARGUMENT', field: 'tokens', message: 'give tokens (an array of strings) or text (a string)' },
  );
  rejects(
    { tokens: ['a'], scale: 'yes' },
    { code: 'INVALID_ARGUMENT', field: 'scale', message: 'scale ("yes") must be true or false' },
  );
});

test('tokens: empty, too many, invalid Unicode', () => {
  rejects(
    { tokens: [] },
    { code: 'INVALID_ARGUMENT', field: 'tokens', message: 'tokens must hold at least 1 token, got none' },
  );
  rejects(
    { text: '  ' },
    { code: 'INVALID_ARGUMENT', field: 'tokens', message: 'tokens must hold at least 1 token, got none' },
  );
  rejects(
    { tokens: ['a', ''] },
    { code: 'INVALID_ARGUMENT', field: 'tokens[1]', message: 'tokens[1] must not be empty' },
  );
  rejects(
    { tokens: Array(2049).fill('w') },
    { code: 'LIMIT_EXCEEDED', field: 'tokens', message: 'tokens (2049 tokens) must hold at most 2048 tokens' },
  );
  rejects(
    { tokens: ['ok', 'x\ud800y'] },
    {
      code: 'INVALID_UTF8',
      field: 'tokens[1]',
      message: 'tokens[1] is not valid Unicode: a lone UTF-16 surrogate at index 1',
    },
  );
  assertAttentionError(() => engine.tokenize('\udc00'), { code: 'INVALID_UTF8', field: 'text' });
});

test('given matrices: shape, NaN and Infinity named by position', () => {
  const base = { tokens: ['a', 'b'], dModel: 4, heads: 2 };
  rejects(
    {
      ...base,
      given: {
        wQ: [
          [1, 2, 3],
          [1, 2, 3],
          [1, 2, 3],
          [1, 2, 3],
        ],
      },
    },
    { code: 'SHAPE_MISMATCH', field: 'given.wQ', message: 'given.wQ must be 4 × 4 (dModel × heads·dK), got 4 × 3' },
  );
  const wQ = Array.from({ length: 4 }, () => [0, 0, 0, 0]);
  wQ[2][1] = NaN;
  rejects(
    { ...base, given: { wQ } },
    { code: 'NON_FINITE', field: 'given.wQ', message: 'given.wQ[2][1] is NaN; every value must be a finite number' },
  );
  wQ[2][1] = Infinity;
  rejects(
    { ...base, given: { wQ } },
    {
      code: 'NON_FINITE',
      field: 'given.wQ',
      message: 'given.wQ[2][1] is Infinity; every value must be a finite number',
    },
  );
  rejects(
    { ...base, given: { wQ: [[1, 2], [3]] } },
    {
      code: 'INVALID_ARGUMENT',
      field: 'given.wQ',
      message: 'given.wQ must be rectangular: row 1 has 1 numbers, row 0 has 2',
    },
  );
  rejects(
    { ...base, given: { w_q: [[1]] } },
    { code: 'INVALID_ARGUMENT', field: 'given', message: /^given \("w_q"\) must be one of x, xKv, wQ/ },
  );
  rejects(
    { ...base, embedding: 'given' },
    { code: 'INVALID_ARGUMENT', field: 'given.x', message: 'given.x is required when embedding is "given"' },
  );
  const huge = Array.from({ length: 4 }, () => [1e30, 1e30, 1e30, 1e30]);
  rejects(
    { ...base, given: { wQ: huge, wK: huge } },
    { code: 'NON_FINITE', field: 'scaled', message: /overflowed float32 at step scaled \(head 0\)/ },
  );
});

test('step lookups name the steps and heads that exist', () => {
  const trace = engine.run({ tokens: ['a'] });
  assertAttentionError(() => trace.step('softmax'), { code: 'UNKNOWN_STEP', field: 'step' });
  assertAttentionError(() => trace.step('weights', 5), {
    code: 'UNKNOWN_STEP',
    field: 'head',
    message: 'head (5) must be an integer from 0 to 1',
  });
  const live = engine.open({ tokens: ['a'] });
  try {
    assertAttentionError(() => live.step('nope'), {
      code: 'UNKNOWN_STEP',
      message: /^step "nope" does not exist; steps are: x, pe, xPe, wQ/,
    });
    assertAttentionError(() => live.step('output', 1), {
      code: 'UNKNOWN_STEP',
      message: 'head (1) must be 0: step "output" is not per head',
    });
  } finally {
    live.dispose();
  }
});

test('a failed run leaks nothing', () => {
  engine.run({ tokens: ['warm', 'up'] });
  const before = engine.heapStats().inUse;
  for (let i = 0; i < 200; i++) {
    assert.throws(() => engine.run({ tokens: ['a'], dModel: 10, heads: 3 }));
    assert.throws(() => engine.run({ tokens: ['a', 'b'], given: { wQ: [[NaN]] }, dModel: 1, heads: 1 }));
  }
  assert.equal(engine.heapStats().inUse, before);
});

test('assertAttentionError (the suites’ one check) fails on another error, code, field or message', () => {
  const refused = () => engine.run({ tokens: ['a'], dModel: 10, heads: 3 });
  const fails = (fn, expected, why) =>
    assert.throws(() => assertAttentionError(fn, expected), assert.AssertionError, why);
  fails(
    () => {
      throw new Error('plain');
    },
    {},
    'a plain Error',
  );
  fails(() => {}, {}, 'nothing thrown');
  fails(refused, { code: 'LIMIT_EXCEEDED' }, 'another code');
  fails(refused, { code: 'INVALID_ARGUMENT', field: 'dModel' }, 'another field');
  fails(refused, { message: 'heads' }, 'a string is compared whole');
  fails(refused, { message: /^dModel/ }, 'a pattern that does not match');
  assert.throws(
    () => assertAttentionError(refused, { cod: 'INVALID_ARGUMENT' }),
    /checks code, field, message, not cod/,
  );
  assertAttentionError(refused, { code: 'INVALID_ARGUMENT', field: 'heads', message: /heads/ });
});
