// Every NumPy fixture through the public JS API, in WebAssembly: every step within 1e-5.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEngine, fixtureNames, loadFixture, optionsOf, relativeError, TOLERANCE } from './support.mjs';

const engine = await createEngine();

for (const name of fixtureNames()) {
  test(`fixture ${name}: every step matches NumPy`, () => {
    const fixture = loadFixture(name);
    const trace = engine.run(optionsOf(fixture));
    let worst = { error: 0, where: '' };
    for (const [stepName, reference] of Object.entries(fixture.steps)) {
      const references = Array.isArray(reference) ? reference : [reference];
      assert.equal(Array.isArray(trace.steps[stepName]), Array.isArray(reference), stepName);
      references.forEach((ref, head) => {
        const step = trace.step(stepName, head);
        const error = relativeError(step, ref, stepName === 'rowEntropy' ? 1 : 0);
        assert.ok(error <= TOLERANCE, `${name}: ${stepName}[${head}] relative error ${error}`);
        if (error >= worst.error) worst = { error, where: `${stepName}[${head}]` };
      });
    }
    assert.equal(trace.parameterCount, fixture.params);
    for (const [key, value] of Object.entries(fixture.flops)) assert.equal(trace.flops[key], value, key);
    console.log(`  ${name.padEnd(28)} largest relative error ${worst.error.toExponential(2)} (${worst.where})`);
  });
}

test('the tutorial example prints the same weights as NumPy (seed 42, stream, no PE)', () => {
  const fixture = loadFixture('tutorial_seed42');
  const trace = engine.run({
    tokens: ['我', '爱', '吃', '火锅'],
    embedding: 'stream',
    seed: 42,
    dModel: 8,
    heads: 1,
    dK: 4,
    positionalEncoding: false,
    outputProjection: false,
    init: 'randn',
  });
  const weights = trace.step('weights', 0);
  const expected = fixture.steps.weights[0].data;
  assert.deepEqual(
    Array.from(weights.data, (v) => v.toFixed(3)),
    expected.map((v) => v.toFixed(3)),
  );
  assert.deepEqual(weights.rowLabels, ['我', '爱', '吃', '火锅']);
  // X is np.random.randn(4, 8) after np.random.seed(42): its first value is 0.49671415.
  assert.ok(Math.abs(trace.step('x').data[0] - 0.49671415) < 1e-7);
});
