// The given matrices through the real request reader (cpp/bindings/request.cpp reads every row
// of kGivenSlots), and the weight cache each engine keeps beside its WebAssembly instance.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAttentionError, createEngine } from './support.mjs';

const engine = await createEngine();

// Cross-attention with every size distinct: n 3, m 5, dModel 6, P = heads·dK = 4.
const base = {
  tokens: ['a', 'b', 'c'],
  kvTokens: ['p', 'q', 'r', 's', 't'],
  dModel: 6,
  heads: 2,
  dK: 2,
  bias: true,
  embedding: 'given',
};
// The documented shapes, written out here rather than read from the engine.
const shapes = {
  x: [3, 6],
  xKv: [5, 6],
  wQ: [6, 4],
  wK: [6, 4],
  wV: [6, 4],
  wO: [4, 6],
  bQ: [1, 4],
  bK: [1, 4],
  bV: [1, 4],
  bO: [1, 6],
};
/** rows × cols values exact in float32 (multiples of 1/64), different for every `offset`. */
function matrix([rows, cols], offset) {
  return { rows, cols, data: Array.from({ length: rows * cols }, (_, i) => offset + i / 64) };
}
const embeddings = { x: matrix(shapes.x, 0.25), xKv: matrix(shapes.xKv, -0.5) };

test('every given matrix is read into its place and shown unchanged as the step of its name', () => {
  for (const [name, shape] of Object.entries(shapes)) {
    const given = { ...embeddings, [name]: matrix(shape, 1 + Object.keys(shapes).indexOf(name)) };
    const step = engine.run({ ...base, given }, { steps: [name] }).step(name);
    assert.deepEqual([step.rows, step.cols], shape, name);
    assert.deepEqual(Array.from(step.data), given[name].data, name);
  }
});

test('an unknown given matrix is refused with the names C++ knows, in its order', () => {
  assertAttentionError(() => engine.run({ ...base, given: { ...embeddings, wq: matrix([6, 4], 0) } }), {
    code: 'INVALID_ARGUMENT',
    field: 'given',
    message: /must be one of x, xKv, wQ, wK, wV, wO, bQ, bK, bV, bO$/,
  });
});

test('a layer from the cache gives the same numbers as the first draw, after another layer', () => {
  const first = { tokens: ['我', '爱', '吃', '火锅'], dModel: 16, seed: 3 };
  const other = { ...first, seed: 4 };
  const names = ['wQ', 'wO', 'output'];
  const a = engine.run(first, { steps: names });
  const b = engine.run(other, { steps: names });
  const again = engine.run(first, { steps: names });
  const repeat = engine.run(first, { steps: names });
  for (const name of names) {
    assert.notDeepEqual(b.step(name).data, a.step(name).data, name);
    assert.deepEqual(again.step(name).data, a.step(name).data, name);
    assert.deepEqual(repeat.step(name).data, a.step(name).data, name);
  }
});
