// Sparse and local attention (mask longformer, bigbird, dilated, window) through the public JS
// API and the CLI, in WebAssembly: every step of the NumPy fixtures, the count of computed
// scores, the pattern against the same mask given densely, the options' defaults and refusals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import {
  assertAttentionError,
  createEngine,
  loadFixture,
  optionsOf,
  relativeError,
  root,
  TOLERANCE,
} from './support.mjs';

const engine = await createEngine();
const SPARSE_FIXTURES = ['longformer', 'bigbird', 'dilated_causal', 'window', 'window_causal'];

for (const name of SPARSE_FIXTURES) {
  test(`fixture ${name}: every step matches NumPy, and only the pattern's scores are computed`, () => {
    const fixture = loadFixture(name);
    const trace = engine.run(optionsOf(fixture));
    let worst = { error: 0, where: '' };
    for (const [stepName, reference] of Object.entries(fixture.steps)) {
      (Array.isArray(reference) ? reference : [reference]).forEach((ref, head) => {
        const error = relativeError(trace.step(stepName, head), ref, stepName === 'rowEntropy' ? 1 : 0);
        assert.ok(error <= TOLERANCE, `${name}: ${stepName}[${head}] relative error ${error}`);
        if (error >= worst.error) worst = { error, where: `${stepName}[${head}]` };
      });
    }
    const allowed = fixture.steps.mask.data.reduce((sum, v) => sum + v, 0);
    const n = fixture.tokens.length;
    assert.equal(trace.computedScores, allowed);
    assert.equal(trace.computedScoreFraction, allowed / (n * n));
    assert.ok(allowed < n * n, 'the pattern leaves scores out');
    assert.equal(trace.flops.scores, fixture.flops.scores);
    assert.equal(trace.flops.mask, 0);
    console.log(
      `  ${name.padEnd(16)} ${allowed}/${n * n} scores, largest relative error ${worst.error.toExponential(2)} (${worst.where})`,
    );
  });
}

test('a pattern gives the numbers of the same mask given densely, 64 tokens, causal bigbird', () => {
  const tokens = Array.from({ length: 64 }, (_, i) => `t${i % 23}`);
  const options = { tokens, dModel: 16, heads: 2, init: 'randn' };
  const mask = { type: 'bigbird', width: 2, causal: true, global: [0, 31], block: 8, random: 2, seed: 5 };
  const sparse = engine.open({ ...options, mask });
  try {
    const m = sparse.step('mask');
    const matrix = Array.from({ length: 64 }, (_, i) => Array.from(m.data.subarray(i * 64, (i + 1) * 64)));
    const dense = engine.run({ ...options, mask: { type: 'custom', matrix } });
    assert.equal(dense.computedScores, 64 * 64);
    let worst = 0;
    for (const name of ['weights', 'headOutput', 'rowMax', 'rowEntropy']) {
      for (let h = 0; h < 2; h++) {
        const reference = dense.step(name, h);
        const error = relativeError(sparse.step(name, h), {
          shape: [reference.rows, reference.cols],
          data: [...reference.data],
        });
        assert.ok(error <= TOLERANCE, `${name}[${h}]: ${error}`);
        worst = Math.max(worst, error);
      }
    }
    const output = relativeError(sparse.step('output'), { shape: [64, 16], data: [...dense.step('output').data] });
    assert.ok(output <= TOLERANCE, `output: ${output}`);
    // Shown as a dense mask's are: every score a number (the page prints them), and outside the
    // pattern weights exactly 0.
    const weights = sparse.step('weights', 1).data;
    const scores = sparse.step('scores', 1).data;
    m.data.forEach((visible, i) => {
      assert.ok(Number.isFinite(scores[i]), `score ${i}`);
      if (!visible) assert.ok(weights[i] === 0, `entry ${i}`);
    });
    assert.ok(sparse.computedScoreFraction < 0.5, `fraction ${sparse.computedScoreFraction}`);
  } finally {
    sparse.dispose();
  }
});

test('longformer makes token 0 global by default: it sees every key and every query sees it', () => {
  const trace = engine.run({ tokens: ['a', 'b', 'c', 'd', 'e', 'f'], mask: { type: 'longformer', width: 1 } });
  const m = trace.step('mask');
  for (let k = 0; k < 6; k++) {
    assert.equal(m.data[k], 1, `row 0, key ${k}`);
    assert.equal(m.data[k * 6], 1, `query ${k}, key 0`);
  }
  assert.equal(m.data[5 * 6 + 2], 0, 'query 5 does not see key 2');
});

test('pattern options are refused by name, with the allowed range', () => {
  const tokens = ['a', 'b', 'c', 'd'];
  assertAttentionError(() => engine.run({ tokens, mask: { type: 'longformer', window: 2 } }), {
    code: 'INVALID_ARGUMENT',
    field: 'mask.window',
    message: 'mask.window is not an option of mask type longformer; its options are type, width, causal, global',
  });
  assertAttentionError(() => engine.run({ tokens, mask: { type: 'dilated', dilation: 0 } }), {
    code: 'INVALID_ARGUMENT',
    field: 'mask.dilation',
    message: 'mask.dilation (0) must be an integer from 1 to 2048',
  });
  assertAttentionError(() => engine.run({ tokens, mask: { type: 'bigbird', global: [0, 4] } }), {
    field: 'mask.global[1]',
    message: 'mask.global[1] (4) must be a token position from 0 to 3',
  });
  assertAttentionError(() => engine.run({ tokens, mask: { type: 'bigbird', block: 0 } }), {
    field: 'mask.block',
    message: 'mask.block (0) must be an integer from 1 to 2048',
  });
  assertAttentionError(() => engine.run({ tokens, mask: { type: 'bigbird', seed: -1 } }), {
    field: 'mask.seed',
    message: 'mask.seed (-1) must be an integer from 0 to 4294967295',
  });
  assertAttentionError(() => engine.run({ tokens, mask: { type: 'bigbird', global: [0.5] } }), {
    field: 'mask.global[0]',
    message: 'mask.global[0] (0.5) must be an integer',
  });
  assertAttentionError(() => engine.run({ tokens, attention: 'linear', mask: { type: 'dilated' } }), {
    field: 'mask.type',
    message: /^mask\.type \("dilated"\) must be none or causal with attention "linear"/,
  });
});

test('the CLI: trace --mask longformer --global prints the pattern; flags of other masks exit 2', () => {
  const bin = path.join(root, 'bin/attention-explorer.mjs');
  const run = (...args) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
  const r = run('trace', 'a b c d e f', '--mask', 'longformer', '--window', '1', '--global', '0,3', '--causal');
  assert.equal(r.status, 0, r.stderr);
  const printed = JSON.parse(r.stdout);
  const trace = engine.run({
    tokens: ['a', 'b', 'c', 'd', 'e', 'f'],
    mask: { type: 'longformer', width: 1, global: [0, 3], causal: true },
  });
  assert.deepEqual(printed.steps.mask.data, [...trace.step('mask').data]);
  assert.equal(printed.computedScores, trace.computedScores);
  const bigbird = run('trace', 'a b c d e f', '--mask', 'bigbird', '--block', '2', '--random', '1', '--mask-seed', '9');
  assert.equal(bigbird.status, 0, bigbird.stderr);
  const wrong = run('trace', 'a b', '--mask', 'window', '--global', '0');
  assert.equal(wrong.status, 2);
  assert.match(wrong.stderr, /--global needs --mask longformer \| bigbird/);
  const refused = run('trace', 'a b', '--mask', 'dilated', '--dilation', '0');
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /mask\.dilation: mask\.dilation \(0\) must be an integer from 1 to 2048/);
});
