// Shared by the node suites: the built engine, the NumPy fixtures, the error measure and the
// one check of an AttentionError.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const fixtureDir = path.join(root, 'tests/fixtures');
import { AttentionError } from '../../dist/engine/engine.js';

export { createEngine, AttentionError } from '../../dist/engine/engine.js';

/**
 * Options for a test that trains, soaks or streams for long: it runs in the full tier
 * (npm run test:full) and when its file is run by hand, and is skipped in the fast tier (npm
 * test, which build-scripts/test.sh runs with ATTENTION_TEST_TIER=fast).
 */
export const fullTier =
  process.env.ATTENTION_TEST_TIER === 'fast' ? { skip: 'full tier only (npm run test:full)' } : {};

const CHECKED = ['code', 'field', 'message'];

/**
 * Asserts that `fn` throws the engine's AttentionError with the `code`, `field` and `message`
 * given: a string is compared exactly, a RegExp matched, and what is left out is not checked.
 */
export function assertAttentionError(fn, expected) {
  const unknown = Object.keys(expected).filter((key) => !CHECKED.includes(key));
  if (unknown.length) throw new TypeError(`assertAttentionError checks ${CHECKED.join(', ')}, not ${unknown}`);
  assert.throws(fn, (error) => {
    assert.ok(error instanceof AttentionError, `not an AttentionError: ${error?.stack ?? error}`);
    assert.equal(error.name, 'AttentionError');
    for (const key of CHECKED) {
      const want = expected[key];
      if (want instanceof RegExp) assert.match(error[key], want, `${key} of "${error.message}"`);
      else if (want !== undefined) assert.equal(error[key], want, `${key} of "${error.message}"`);
    }
    return true;
  });
}

export function loadFixture(name) {
  return JSON.parse(readFileSync(path.join(fixtureDir, `${name}.json`), 'utf8'));
}

export function fixtureNames() {
  return readdirSync(fixtureDir)
    .filter((f) => f.endsWith('.json') && f !== 'generator.json')
    .map((f) => f.slice(0, -5))
    .sort();
}

/** The engine options that reproduce a fixture. */
export function optionsOf(fixture) {
  const { config, tokens, kvTokens, given } = fixture;
  const options = { ...config, tokens, given: {} };
  if (kvTokens) options.kvTokens = kvTokens;
  for (const [name, m] of Object.entries(given)) {
    options.given[name] = { data: m.data, rows: m.shape[0], cols: m.shape[1] };
  }
  return options;
}

/**
 * Normwise relative error max|a − b| / max(|b|, floor); −∞ in the reference ("-inf") must be
 * matched exactly, NaN ("nan") by NaN, shapes too
 * (all give Infinity otherwise).
 */
export function relativeError(step, reference, floor = 0) {
  const [rows, cols] = reference.shape;
  if (step.rows !== rows || step.cols !== cols) return Infinity;
  let maxReference = floor;
  let maxDifference = 0;
  reference.data.forEach((value, i) => {
    const actual = step.data[i];
    if (value === '-inf') {
      if (actual !== -Infinity) maxDifference = Infinity;
      return;
    }
    if (value === 'nan') {
      if (!Number.isNaN(actual)) maxDifference = Infinity;
      return;
    }
    if (!Number.isFinite(actual)) maxDifference = Infinity;
    maxReference = Math.max(maxReference, Math.abs(value));
    maxDifference = Math.max(maxDifference, Math.abs(actual - value));
  });
  return maxReference > 0 ? maxDifference / maxReference : maxDifference;
}

export const TOLERANCE = 1e-5;

/**
 * Seeded uniform values in [−scale, scale): the tests' and the benchmarks' inputs (bench/run.mjs
 * reads them from here: benchmarks may use the tests' support, tests never import benchmarks).
 */
export function seededValues(count, seed, scale) {
  const out = new Float32Array(count);
  let state = seed >>> 0;
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = (state / 2 ** 32 - 0.5) * 2 * scale;
  }
  return out;
}
