// The √dK experiment as the playground runs it (issue 13): two trainers, identical but for
// `scale`, trained in WASM through the public API on the same batches; prints, at a few steps,
// the loss, the mean softmax entropy and the score gradients of both, then their held-out exact
// match. docs/training.md ("The √dK experiment in the playground") records the chosen preset.
//
//   node bench/train/dk-preset.mjs                      # the preset, 300 steps
//   node bench/train/dk-preset.mjs '{"initStd":0.02}' 300   # the preset with overrides
import { performance } from 'node:perf_hooks';
import { createEngine } from '../../dist/engine/engine.js';
import { DK_PRESET } from './dk-preset-config.mjs';

const overrides = JSON.parse(process.argv[2] ?? '{}');
const steps = Number(process.argv[3] ?? 300);
const every = Number(process.argv[4] ?? 10);
const config = { ...DK_PRESET, ...overrides };
const engine = await createEngine();
const dK = config.dK || config.dModel / config.heads;

const runs = [true, false].map((scale) => ({ scale, trainer: engine.createTrainer({ ...config, scale }), rows: [] }));
console.log(`preset ${JSON.stringify(config)}, dK ${dK}, ${steps} steps`);
const start = performance.now();
for (let step = 0; step < steps; step += every) {
  for (const run of runs) run.rows.push(run.trainer.step(Math.min(every, steps - step)));
}
const seconds = (performance.now() - start) / 1000;
const fmt = (x) => (Math.abs(x) < 0.01 ? x.toExponential(1) : x.toFixed(3));
console.log(
  'step | loss ÷√dK / none | entropy ÷√dK / none | ‖∂L/∂(q·kᵀ)‖ ÷√dK / none | ‖∂L/∂(softmax input)‖ ÷√dK / none',
);
const [scaled, unscaled] = runs;
scaled.rows.forEach((s, i) => {
  const u = unscaled.rows[i];
  if (i % Math.max(1, Math.round(50 / every)) !== 0 && i !== scaled.rows.length - 1 && i !== 0) return;
  console.log(
    `${s.step} | ${fmt(s.loss)} / ${fmt(u.loss)} | ${fmt(s.attentionEntropy)} / ${fmt(u.attentionEntropy)} | ` +
      `${fmt(s.scoreGradientNorm)} / ${fmt(u.scoreGradientNorm)} | ${fmt(s.scoreGradientNorm * Math.sqrt(dK))} / ${fmt(u.scoreGradientNorm)}`,
  );
});
for (const run of runs) {
  console.log(
    `${run.scale ? '÷√dK' : 'none'}: held-out exact match ${(run.trainer.evaluate(500).exactMatch * 100).toFixed(1)}%`,
  );
  run.trainer.dispose();
}
console.log(`${seconds.toFixed(1)} s for both (${((seconds / steps) * 1000).toFixed(0)} ms per step pair)`);
