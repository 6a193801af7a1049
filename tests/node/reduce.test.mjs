// What the engine's worker sends the page (web/src/explorer/reduce.js), against plain
// references: block means computed cell by cell, d3.bin and d3.variance over every value, and
// the links view's former selection (every weight ≥ min, the strongest `max` past that).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as d3 from 'd3';
import { gridOf, linksOf, rowOf, spreadOf } from '../../web/src/explorer/reduce.js';

/** A rows × cols step of seeded values in [-3, 3). */
function stepOf(rows, cols, seed = 1) {
  const random = d3.randomLcg(seed);
  return { name: 's', head: 0, rows, cols, data: Float32Array.from({ length: rows * cols }, () => random() * 6 - 3) };
}

test('gridOf: a step that fits is sent whole; a larger one as exact block means, with the range of the whole', () => {
  const small = stepOf(5, 7);
  const same = gridOf(small, 8);
  assert.equal(same.data, small.data);
  assert.equal(same.pooled, undefined);

  const big = stepOf(10, 9, 2);
  big.data[3] = -Infinity; // a masked cell is left out of its block's mean
  const grid = gridOf(big, 4);
  assert.deepEqual(grid.pooled, { rows: 4, cols: 4 });
  assert.equal(grid.rows, 10);
  const edges = (n, parts) => d3.range(parts + 1).map((p) => Math.floor((p * n) / parts));
  const [re, ce] = [edges(10, 4), edges(9, 4)];
  let worst = 0;
  for (let bi = 0; bi < 4; bi++) {
    for (let bj = 0; bj < 4; bj++) {
      const values = [];
      for (let i = re[bi]; i < re[bi + 1]; i++)
        for (let j = ce[bj]; j < ce[bj + 1]; j++) values.push(big.data[i * 9 + j]);
      worst = Math.max(worst, Math.abs(grid.data[bi * 4 + bj] - d3.mean(values.filter(Number.isFinite))));
    }
  }
  console.log(`  block means: largest difference ${worst.toExponential(2)}`);
  assert.ok(worst < 1e-6);
  const finite = Array.from(big.data).filter(Number.isFinite);
  assert.equal(grid.range.lo, d3.min(finite));
  assert.equal(grid.range.maxAbs, d3.max(finite, Math.abs));
});

test('rowOf: one row, copied', () => {
  const step = stepOf(4, 6);
  const row = rowOf(step, 2);
  assert.deepEqual(Array.from(row), Array.from(step.data.subarray(12, 18)));
  row[0] = 99;
  assert.notEqual(step.data[12], 99);
});

test('spreadOf: the bins of d3.bin over every head, and the sample standard deviation', () => {
  const heads = [stepOf(8, 8, 3).data, stepOf(8, 8, 4).data];
  const scaled = heads.map((d) => d.map((v) => v / 4));
  scaled[1][5] = -Infinity;
  const { domain, sets } = spreadOf([heads, scaled]);
  const all = [...heads, ...scaled].flatMap((d) => Array.from(d).filter(Number.isFinite));
  assert.deepEqual(domain, d3.extent(all));
  for (const [k, arrays] of [heads, scaled].entries()) {
    const values = arrays.flatMap((d) => Array.from(d).filter(Number.isFinite));
    const expected = d3.bin().domain(domain).thresholds(24)(values);
    assert.deepEqual(
      sets[k].bins.map((b) => [b.x0, b.x1, b.length]),
      expected.map((b) => [b.x0, b.x1, b.length]),
    );
    assert.ok(Math.abs(sets[k].sd - d3.deviation(values)) < 1e-9);
  }
});

test('linksOf: every weight ≥ min in head-row-column order, or the strongest max of them', () => {
  const weights = [stepOf(6, 6, 5), stepOf(6, 6, 6)].map((s) => ({ ...s, data: s.data.map((v) => (v + 3) / 6) }));
  const heads = [1, 3];
  const reference = [];
  weights.forEach((w, k) => {
    for (let i = 0; i < 6; i++)
      for (let j = 0; j < 6; j++) if (w.data[i * 6 + j] >= 0.3) reference.push([heads[k], i, j, w.data[i * 6 + j]]);
  });
  const rows = ({ links }) => Array.from(links.weight, (w, r) => [links.h[r], links.i[r], links.j[r], w]);
  const all = linksOf(weights, heads, { min: 0.3, max: 1000 });
  assert.equal(all.total, reference.length);
  assert.deepEqual(rows(all), reference);
  const strongest = linksOf(weights, heads, { min: 0.3, max: 10 });
  assert.equal(strongest.total, reference.length);
  assert.deepEqual(
    rows(strongest).map((r) => r[3]),
    reference
      .map((r) => r[3])
      .sort((a, b) => b - a)
      .slice(0, 10),
  );
});
