// The cost panel's pure parts (web/src/explorer/cost-fit.js): the slope fit recovers known
// exponents from synthetic data, and the schedule stops a kind at its time budget.
import test from 'node:test';
import assert from 'node:assert/strict';
import { costSizes, logLogSlope, median, nextSize } from '../../web/src/explorer/cost-fit.js';

const close = (actual, expected, tol, what) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} is not within ${tol} of ${expected}`);

test('the slope of c·n^k on log–log axes is k, with or without a constant floor before `from`', () => {
  const sizes = costSizes(64, 4096);
  for (const k of [0.5, 1, 2, 3]) close(logLogSlope(sizes.map((x) => ({ x, y: 3e-4 * x ** k }))), k, 1e-9, `n^${k}`);
  for (const k of [1, 2, 3]) {
    // A fixed cost of 50 dominates the short sizes (the growth is 10 times it at 1024); fitting from 1024 sees the growth.
    const floored = sizes.map((x) => ({ x, y: 50 + 500 * (x / 1024) ** k }));
    assert.ok(logLogSlope(floored) < k - 0.2, `the floor flattens the fit over all sizes (n^${k})`);
    close(logLogSlope(floored, 1024), k, 0.35, `n^${k} fitted from 1024`);
  }
});

test('seeded multiplicative noise leaves the fitted slope near its exponent', () => {
  let state = 7;
  const noise = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 0.2; // ±10 %
  const points = costSizes(64, 4096).map((x) => ({ x, y: x * x * (1 + noise()) }));
  close(logLogSlope(points), 2, 0.05, 'noisy n²');
});

test('the fit is null, never NaN, without two usable points', () => {
  assert.equal(logLogSlope([]), null);
  assert.equal(logLogSlope([{ x: 64, y: 1 }]), null);
  assert.equal(
    logLogSlope([
      { x: 64, y: 0 },
      { x: 128, y: NaN },
      { x: 256, y: 2 },
    ]),
    null,
  );
  assert.equal(
    logLogSlope([
      { x: 64, y: 1 },
      { x: 64, y: 2 },
    ]),
    null,
    'one length twice: no slope',
  );
});

test('the schedule doubles from min to max and stops a kind at its budget', () => {
  assert.deepEqual(costSizes(64, 512), [64, 128, 256, 512]);
  assert.deepEqual(costSizes(64, 2048), [64, 128, 256, 512, 1024, 2048]);
  assert.deepEqual(costSizes(100, 300), [100, 200]);
  assert.throws(() => costSizes(0, 10), /min \(0\)/);
  assert.throws(() => costSizes(64, 32), /max \(32\)/);
  const sizes = costSizes(64, 512);
  assert.equal(nextSize(sizes, [], 1500), 64);
  assert.equal(nextSize(sizes, [{ n: 64, ms: 1 }], 1500), 128);
  assert.equal(
    nextSize(
      sizes,
      [
        { n: 64, ms: 1 },
        { n: 128, ms: 1500 },
      ],
      1500,
    ),
    256,
    'at the budget: one more',
  );
  assert.equal(
    nextSize(
      sizes,
      [
        { n: 64, ms: 1 },
        { n: 128, ms: 1501 },
      ],
      1500,
    ),
    null,
    'past it: done',
  );
  assert.equal(nextSize(sizes, [{ n: 512, ms: 1 }], 1500), null, 'the last size: done');
  assert.equal(nextSize(sizes, [{ n: 64, ms: NaN }], 1500), null, 'a failed time stops the kind');
});

test('the median of odd and even lists', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([5]), 5);
});

test("the worker's measurement: one head's buffers as engine.attend() holds them, against counts made here", async () => {
  const { createEngine } = await import('./support.mjs');
  const { costHandlers } = await import('../../web/src/explorer/cost-service.js');
  const { COST_MODEL, COST_WINDOW } = await import('../../web/src/explorer/cost-kinds.js');
  const { costMeasure } = costHandlers(await createEngine());
  const n = 128;
  const { heads, dModel } = COST_MODEL;
  const dK = dModel / heads;
  let window = 0; // pairs with |i − j| ≤ w
  for (let i = 0; i < n; i++) window += Math.min(i + COST_WINDOW, n - 1) - Math.max(i - COST_WINDOW, 0) + 1;
  const rowStats = 12 * n; // per row: the largest weight, the entropy (floats) and a flag
  const full = costMeasure({ kind: 'full', n, minRuns: 1, minMs: 0 });
  // A head's scores and weights, n × n floats each (no mask: mask none).
  assert.equal(full.bytes, 2 * 4 * n * n + rowStats);
  assert.equal(full.scores, heads * n * n);
  assert.ok(Number.isFinite(full.ms) && full.ms > 0 && full.ms <= full.medianMs);
  // The key lists (an int a pair, an int64 offset a row and one more) and two rows of 2w + 1 floats.
  const windowed = costMeasure({ kind: 'window', n, minRuns: 1, minMs: 0 });
  assert.equal(windowed.bytes, 4 * window + 8 * (n + 1) + 2 * 4 * (2 * COST_WINDOW + 1) + rowStats);
  assert.equal(windowed.scores, heads * window);
  // One head's φ(Q) and φ(K), its d_k × d_k sum, Σφ(k) and the normaliser.
  assert.equal(costMeasure({ kind: 'linear', n, minRuns: 1, minMs: 0 }).bytes, 4 * (2 * n * dK + dK * dK + dK + n));
  assert.throws(() => costMeasure({ kind: 'sparse', n }), /kind "sparse" is not one of full, window/);
});
