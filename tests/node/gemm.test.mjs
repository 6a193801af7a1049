// The engine's matrix products in WebAssembly (the SIMD128 kernel of cpp/src/gemm.cpp) on odd
// shapes, against a plain double-precision reference in JS: every projection, the scores
// (Q·Kᵀ), the head outputs (A·V) and the output projection, within 1e-5.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEngine, seededValues } from './support.mjs'; // seededValues: the benchmark's inputs too

const engine = await createEngine();

/** c [m × n] = a [m × k] · b [k × n] (or bᵀ with b [n × k]), in double. */
function product(a, b, m, k, n, transposeB = false) {
  const c = new Float64Array(m * n);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let sum = 0;
      for (let t = 0; t < k; t++) sum += a[i * k + t] * (transposeB ? b[j * k + t] : b[t * n + j]);
      c[i * n + j] = sum;
    }
  }
  return c;
}

/** Columns [from, from + width) of a [rows × cols] matrix. */
function columns(a, rows, cols, from, width) {
  const out = new Float64Array(rows * width);
  for (let i = 0; i < rows; i++) for (let j = 0; j < width; j++) out[i * width + j] = a[i * cols + from + j];
  return out;
}

function softmaxRows(s, rows, cols, alpha) {
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    let max = -Infinity;
    for (let j = 0; j < cols; j++) max = Math.max(max, s[i * cols + j] * alpha);
    let sum = 0;
    for (let j = 0; j < cols; j++) sum += out[i * cols + j] = Math.exp(s[i * cols + j] * alpha - max);
    for (let j = 0; j < cols; j++) out[i * cols + j] /= sum;
  }
  return out;
}

/** Normwise relative error max|actual − expected| / max|expected|. */
function relativeError(actual, expected) {
  let worst = 0;
  let largest = 1e-30;
  expected.forEach((value, i) => {
    largest = Math.max(largest, Math.abs(value));
    worst = Math.max(worst, Math.abs(actual[i] - value));
  });
  return worst / largest;
}

// [n, dModel, heads, dK]: odd sizes around the kernel's 4 × 8 tiles, one-row inputs, widths
// below and above its 256-deep blocks, and n above 64 (where B is packed instead of read in place).
const SHAPES = [
  [1, 1, 1, 1],
  [1, 3, 1, 2],
  [3, 5, 2, 3],
  [5, 7, 3, 2],
  [7, 9, 1, 65],
  [13, 65, 2, 13],
  [8, 64, 4, 16],
  [70, 33, 3, 11],
  [130, 300, 2, 37],
];

for (const [n, d, heads, dK] of SHAPES) {
  test(`n ${n}, dModel ${d}, ${heads} heads of ${dK}: every product matches double precision`, () => {
    const p = heads * dK;
    const x = seededValues(n * d, n * 1000 + d, 1);
    const w = {
      wQ: seededValues(d * p, 1, 1 / Math.sqrt(d)),
      wK: seededValues(d * p, 2, 1 / Math.sqrt(d)),
      wV: seededValues(d * p, 3, 1 / Math.sqrt(d)),
      wO: seededValues(p * d, 4, 1 / Math.sqrt(p)),
    };
    const trace = engine.run({
      tokens: Array.from({ length: n }, (_, i) => `t${i}`),
      dModel: d,
      heads,
      dK,
      positionalEncoding: false,
      embedding: 'given',
      given: {
        x: { data: x, rows: n, cols: d },
        wQ: { data: w.wQ, rows: d, cols: p },
        wK: { data: w.wK, rows: d, cols: p },
        wV: { data: w.wV, rows: d, cols: p },
        wO: { data: w.wO, rows: p, cols: d },
      },
    });
    const errors = {};
    const check = (name, actual, expected) => {
      errors[name] = Math.max(errors[name] ?? 0, relativeError(actual, expected));
    };
    // Each product is checked on the engine's own float32 inputs, so errors do not compound.
    const q = trace.step('q').data;
    const k = trace.step('k').data;
    const v = trace.step('v').data;
    check('q', q, product(x, w.wQ, n, d, p));
    check('k', k, product(x, w.wK, n, d, p));
    check('v', v, product(x, w.wV, n, d, p));
    for (let h = 0; h < heads; h++) {
      const qh = columns(q, n, p, h * dK, dK);
      const kh = columns(k, n, p, h * dK, dK);
      const vh = columns(v, n, p, h * dK, dK);
      check('scores', trace.step('scores', h).data, product(qh, kh, n, dK, n, true));
      const weights = trace.step('weights', h).data;
      check('weights', weights, softmaxRows(product(qh, kh, n, dK, n, true), n, n, 1 / Math.sqrt(dK)));
      check('headOutput', trace.step('headOutput', h).data, product(weights, vh, n, n, dK));
    }
    check('output', trace.step('output').data, product(trace.step('concat').data, w.wO, n, p, d));
    for (const [name, error] of Object.entries(errors)) assert.ok(error < 1e-5, `${name}: relative error ${error}`);
  });
}

// Training's backward products: op(a) = aᵀ read in place, and c += op(a)·op(b). Only the
// WebAssembly build runs these paths of the SIMD128 kernel (natively Gemm is Eigen, so the
// native gradient checks do not reach them): every combination on odd shapes, in double.
test('the kernel behind training: aᵀ read in place and accumulation into c, on odd shapes', async () => {
  const { compileModule } = await import('../../dist/engine/module.js');
  const module = (await compileModule())();
  const shapes = [
    [1, 1, 1],
    [3, 5, 7],
    [4, 8, 8],
    [13, 17, 9],
    [32, 64, 33],
    [65, 31, 130],
  ];
  let worst = 0;
  for (const [m, k, n] of shapes) {
    for (const transposeA of [false, true]) {
      for (const transposeB of [false, true]) {
        for (const accumulate of [false, true]) {
          const a = seededValues(m * k, m * 7 + k, 1);
          const b = seededValues(k * n, k * 11 + n, 1);
          const c0 = seededValues(m * n, m + n * 13, 1);
          // The reference reads op(a) [m × k] and op(b) [k × n] from the stored layouts.
          const opA = new Float64Array(m * k);
          for (let i = 0; i < m; i++)
            for (let t = 0; t < k; t++) opA[i * k + t] = transposeA ? a[t * m + i] : a[i * k + t];
          const want = product(opA, b, m, k, n, transposeB);
          if (accumulate) for (let i = 0; i < m * n; i++) want[i] += c0[i];
          const got = module.gemmProbe(a, b, c0, m, k, n, transposeA, transposeB, accumulate);
          assert.ok(got instanceof Float32Array && got.length === m * n, `${m}×${k}×${n}: a product came back`);
          let err = 0;
          let norm = 0;
          for (let i = 0; i < m * n; i++) {
            err += (got[i] - want[i]) ** 2;
            norm += want[i] ** 2;
          }
          const relative = Math.sqrt(err / Math.max(norm, 1e-30));
          worst = Math.max(worst, relative);
          assert.ok(relative < 1e-5, `${m}×${k}×${n} aᵀ ${transposeA} bᵀ ${transposeB} += ${accumulate}: ${relative}`);
        }
      }
    }
  }
  console.log(`  Gemm with aᵀ and accumulation: largest relative error ${worst.toExponential(2)}`);
});
