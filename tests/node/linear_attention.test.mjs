// Linear attention (φ = elu + 1) through the public JS API and the CLI, in WebAssembly: its
// implied weights against the NumPy reference and against the output path that never formed
// them, the steps a linear trace has, and the combinations it refuses. (fixtures.test.mjs
// checks every step of the linear fixtures as of every other.)
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
import { DEFAULTS } from '../../dist/engine/engine.js';
import { matrixJSON } from '../../dist/engine/serialize.js';

const engine = await createEngine();
const LINEAR_FIXTURES = ['linear', 'linear_causal', 'linear_cross_causal'];
const LINEAR_ONLY = ['phiQ', 'phiK', 'kvSummary', 'keySum', 'normaliser', 'linearWeights'];

/** a [n × m] · b [m × k], both steps (row-major Float32Arrays), in double. */
function product(a, b) {
  const out = new Float64Array(a.rows * b.cols);
  for (let i = 0; i < a.rows; i++)
    for (let j = 0; j < a.cols; j++)
      for (let c = 0; c < b.cols; c++) out[i * b.cols + c] += a.data[i * a.cols + j] * b.data[j * b.cols + c];
  return { rows: a.rows, cols: b.cols, data: out };
}

test('attention defaults to softmax, and a trace says which kind it ran', () => {
  assert.equal(DEFAULTS.attention, 'softmax');
  assert.equal(engine.run({ tokens: ['a', 'b'] }, { steps: ['output'] }).attention, 'softmax');
  assert.equal(engine.run({ tokens: ['a', 'b'], attention: 'linear' }, { steps: ['output'] }).attention, 'linear');
});

for (const name of LINEAR_FIXTURES) {
  test(`fixture ${name}: the implied weights match NumPy, sum to 1 per row and give the head output`, () => {
    const fixture = loadFixture(name);
    const trace = engine.run(optionsOf(fixture));
    assert.deepEqual([...trace.stepNames].sort(), Object.keys(fixture.steps).sort(), 'exactly the fixture steps');
    let worst = 0;
    for (let h = 0; h < trace.heads; h++) {
      const w = trace.step('linearWeights', h);
      worst = Math.max(worst, relativeError(w, fixture.steps.linearWeights[h]));
      for (let i = 0; i < w.rows; i++) {
        const sum = w.data.subarray(i * w.cols, (i + 1) * w.cols).reduce((s, v) => s + v, 0);
        assert.ok(Math.abs(sum - 1) <= TOLERANCE, `${name}: row ${i} of head ${h} sums to ${sum}`);
      }
      // out = W·V from the weights the output path never formed, against NumPy's head output.
      const wv = product(w, trace.step('vHead', h));
      const error = relativeError(wv, fixture.steps.headOutput[h]);
      assert.ok(error <= TOLERANCE, `${name}: W·V of head ${h}, relative error ${error}`);
      worst = Math.max(worst, error);
    }
    assert.ok(worst <= TOLERANCE, `${name}: ${worst}`);
    console.log(`  ${name.padEnd(20)} implied weights and W·V: largest relative error ${worst.toExponential(2)}`);
  });
}

test('linear traces have the linear steps and no softmax statistics; softmax traces the reverse', () => {
  const linear = engine.open({ tokens: ['我', '爱', '吃', '火锅'], attention: 'linear', mask: 'causal' });
  const softmax = engine.open({ tokens: ['我', '爱', '吃', '火锅'], mask: 'causal' });
  try {
    for (const step of LINEAR_ONLY) {
      assert.ok(linear.stepNames.includes(step), step);
      assert.ok(!softmax.stepNames.includes(step), step);
    }
    for (const step of ['rowMax', 'rowEntropy']) {
      assert.ok(!linear.stepNames.includes(step), step);
      assert.ok(softmax.stepNames.includes(step), step);
    }
    // The softmax weights of the same Q and K stay in the linear trace, to set beside its own.
    assert.deepEqual(linear.step('weights', 1).data, softmax.step('weights', 1).data);
    assert.deepEqual([linear.info('kvSummary').rowsAxis, linear.info('kvSummary').colsAxis], ['headDim', 'headDim']);
    const causal = linear.step('linearWeights', 0);
    for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) assert.equal(causal.data[i * 4 + j], 0);
    assert.equal(linear.flops.scores, 0);
    assert.ok(linear.flops.summary > 0 && softmax.flops.summary === 0);
  } finally {
    linear.dispose();
    softmax.dispose();
  }
});

test('a bad attention, and what linear cannot take, are refused by field', () => {
  const tokens = ['a', 'b', 'c'];
  assertAttentionError(() => engine.run({ tokens, attention: 'Linear' }), {
    code: 'INVALID_ARGUMENT',
    field: 'attention',
    message: 'attention ("Linear") must be one of softmax, linear',
  });
  assertAttentionError(() => engine.run({ tokens, attention: 'linear', mask: { type: 'window', width: 1 } }), {
    code: 'INVALID_ARGUMENT',
    field: 'mask.type',
    message: /must be none or causal with attention "linear"/,
  });
  assertAttentionError(() => engine.run({ tokens, attention: 'linear', temperature: 2 }), {
    field: 'temperature',
    message: /must be 1 with attention "linear"/,
  });
  assertAttentionError(() => engine.run({ tokens, attention: 'linear', scale: false }), {
    field: 'scale',
    message: /must be true with attention "linear"/,
  });
});

test("the CLI: trace --attention linear prints the engine's implied weights; bad values exit 2 or 1", () => {
  const bin = path.join(root, 'bin/attention-explorer.mjs');
  const run = (...args) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
  const r = run(
    'trace',
    '我 爱 吃 火锅',
    '--attention',
    'linear',
    '--mask',
    'causal',
    '--step',
    'linearWeights',
    '--head',
    '2',
  );
  assert.equal(r.status, 0, r.stderr);
  const live = engine.open({ text: '我 爱 吃 火锅', attention: 'linear', mask: 'causal' });
  try {
    assert.equal(r.stdout, `${[...matrixJSON(live.step('linearWeights', 1))].join('')}\n`);
  } finally {
    live.dispose();
  }
  const bad = run('trace', 'a b', '--attention', 'Linear');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--attention \("Linear"\) must be one of softmax, linear/);
  const refused = run('trace', 'a b', '--attention', 'linear', '--mask', 'window');
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /mask\.type: .*none or causal/);
});
