// What the views read of a trace, reduced where the engine runs (the worker) so that the page
// never holds or loops over a 2,048 × 2,048 matrix per head: a grid of at most MAX_SIDE per
// side (block means past that), one row, the strongest links, histograms of the spread.
// Pure functions of steps ({ rows, cols, data: Float32Array [rows × cols] }).
import { bin, bisectRight } from 'd3-array';
import { MAX_SIDE } from '../requests.js';

/** The smallest and largest finite value and the largest |v|; finite: whether there is one. */
function rangeOf(data) {
  let lo = Infinity;
  let hi = -Infinity;
  for (let k = 0; k < data.length; k++) {
    const v = data[k];
    if (Number.isFinite(v)) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  if (lo > hi) return { lo: 0, hi: 0, maxAbs: 0, finite: false };
  return { lo, hi, maxAbs: Math.max(Math.abs(lo), Math.abs(hi)), finite: true };
}

/**
 * `step` with at most `maxSide` rows and columns: itself when it fits; otherwise block means
 * of the finite values (a block with none keeps its first value, e.g. −∞ where all is masked).
 * A pooled step keeps rows/cols/labels of the whole and adds pooled: { rows, cols }.
 */
export function gridOf(step, maxSide = MAX_SIDE) {
  const range = rangeOf(step.data);
  if (step.rows <= maxSide && step.cols <= maxSide) return { ...step, range };
  const pr = Math.min(step.rows, maxSide);
  const pc = Math.min(step.cols, maxSide);
  const out = new Float32Array(pr * pc);
  const sums = new Float64Array(pc);
  const counts = new Uint32Array(pc);
  const firsts = new Float32Array(pc);
  for (let bi = 0; bi < pr; bi++) {
    sums.fill(0);
    counts.fill(0);
    const i0 = Math.floor((bi * step.rows) / pr);
    const i1 = Math.floor(((bi + 1) * step.rows) / pr);
    for (let i = i0; i < i1; i++) {
      const base = i * step.cols;
      for (let bj = 0, j = 0; bj < pc; bj++) {
        const j1 = Math.floor(((bj + 1) * step.cols) / pc);
        if (i === i0) firsts[bj] = step.data[base + j];
        for (; j < j1; j++) {
          const v = step.data[base + j];
          if (Number.isFinite(v)) {
            sums[bj] += v;
            counts[bj]++;
          }
        }
      }
    }
    for (let bj = 0; bj < pc; bj++) out[bi * pc + bj] = counts[bj] ? sums[bj] / counts[bj] : firsts[bj];
  }
  return { ...step, data: out, range, pooled: { rows: pr, cols: pc } };
}

/** Row i of a step as a Float32Array (a copy). */
export function rowOf(step, i) {
  return step.data.slice(i * step.cols, (i + 1) * step.cols);
}

/**
 * Histograms of several value sets over one shared domain (their joint finite extent), with
 * the bins d3.bin would make: { domain, sets: [{ bins: [{ x0, x1, length }], sd }] }.
 * `sets` is an array of arrays of Float32Arrays (e.g. every head's scores).
 */
export function spreadOf(sets, thresholds = 24) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const arrays of sets) {
    for (const data of arrays) {
      const r = rangeOf(data);
      if (!r.finite) continue;
      lo = Math.min(lo, r.lo);
      hi = Math.max(hi, r.hi);
    }
  }
  const domain = lo <= hi ? [lo, hi] : [0, 1];
  const empty = bin().domain(domain).thresholds(thresholds)([]);
  const edges = empty.slice(1).map((b) => b.x0);
  return {
    domain,
    sets: sets.map((arrays) => {
      const counts = new Array(empty.length).fill(0);
      let n = 0;
      let mean = 0;
      let m2 = 0;
      for (const data of arrays) {
        for (let k = 0; k < data.length; k++) {
          const v = data[k];
          if (!Number.isFinite(v)) continue;
          counts[bisectRight(edges, v)]++;
          // Welford: the variance d3.variance gives, in one pass and without an array.
          n++;
          const delta = v - mean;
          mean += delta / n;
          m2 += delta * (v - mean);
        }
      }
      return {
        bins: empty.map((b, k) => ({ x0: b.x0, x1: b.x1, length: counts[k] })),
        sd: n > 1 ? Math.sqrt(m2 / (n - 1)) : 0,
      };
    }),
  };
}

/**
 * The links the links view draws: every (head, i, j) with weight ≥ min, in head-row-column
 * order, or the `max` strongest of them. { total, links: { h, i, j, weight: Float32Array … } }
 * `steps` are the weights of `heads` (same order).
 */
export function linksOf(steps, heads, { min, max }) {
  const found = [];
  steps.forEach((w, k) => {
    for (let p = 0; p < w.data.length; p++) {
      if (w.data[p] >= min) found.push(k, p);
    }
  });
  const total = found.length / 2;
  let order = Array.from({ length: total }, (_, q) => q);
  const weightOf = (q) => steps[found[2 * q]].data[found[2 * q + 1]];
  if (total > max) {
    order.sort((a, b) => weightOf(b) - weightOf(a));
    order = order.slice(0, max);
  }
  const out = {
    h: new Int32Array(order.length),
    i: new Int32Array(order.length),
    j: new Int32Array(order.length),
    weight: new Float32Array(order.length),
  };
  order.forEach((q, r) => {
    const w = steps[found[2 * q]];
    const p = found[2 * q + 1];
    out.h[r] = heads[found[2 * q]];
    out.i[r] = Math.floor(p / w.cols);
    out.j[r] = p % w.cols;
    out.weight[r] = w.data[p];
  });
  return { total, links: out };
}
