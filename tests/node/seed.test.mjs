// Seeds cover NumPy's whole range 0 … 2³² − 1: np.random.seed(s); np.random.randn(...) is the
// stream the engine draws X from (embedding 'stream'), compared with NumPy's own draws in
// tests/fixtures/generator.json. Anything else is refused, naming the value given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAttentionError, createEngine, loadFixture } from './support.mjs';

const engine = await createEngine();
const generator = loadFixture('generator');

/** X of a 4 × 8 stream embedding: NumPy's first 32 draws after np.random.seed(seed). */
function firstDraws(seed) {
  const options = { tokens: ['a', 'b', 'c', 'd'], dModel: 8, heads: 1, embedding: 'stream', positionalEncoding: false };
  return Array.from(engine.run({ ...options, seed, init: 'randn' }, { steps: ['x'] }).step('x').data);
}

test('every seed from 0 to 4294967295 draws exactly what NumPy draws', () => {
  const entries = [...generator.seeds, ...generator.highSeeds];
  assert.deepEqual(
    generator.highSeeds.map((e) => e.seed),
    [2147483647, 2147483648, 3000000000],
  );
  for (const { seed, randn } of entries) {
    assert.deepEqual(firstDraws(seed), randn.slice(0, 32).map(Math.fround), `seed ${seed}`);
  }
  // np.random.seed(3000000000); np.random.randn() → −2.2100
  assert.ok(Math.abs(firstDraws(3000000000)[0] + 2.20997438) < 1e-6);
  assert.notDeepEqual(firstDraws(2147483648), firstDraws(2147483647));
});

test('seeds outside 0 … 4294967295 or not integers are refused, naming the value', () => {
  const cases = [
    [4294967296, '4294967296'],
    [2 ** 53, '9007199254740992'],
    [1e300, '1e+300'],
    [-1, '-1'],
    [1.5, '1.5'],
    [NaN, 'NaN'],
    [Infinity, 'Infinity'],
    ['42', '"42"'],
    [42n, '42n'],
  ];
  for (const [seed, shown] of cases) {
    assertAttentionError(() => engine.run({ tokens: ['a'], seed }), {
      code: 'INVALID_ARGUMENT',
      field: 'seed',
      message: `seed (${shown}) must be an integer from 0 to 4294967295`,
    });
  }
});
