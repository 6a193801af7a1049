// The √d_k experiment's committed run: every setting × arm × seed of
// web/src/playground/dk-experiment.js, trained in WASM through the public API as the playground
// trains them, written to web/src/playground/dk-runs.json (the page draws the spread over the
// seeds from it and words its sentences from its numbers), then a table for docs/training.md.
// Not part of npm test (about 10 minutes on a quiet machine); npm test retrains one seed's first
// steps and compares them with the file.
//
//   npm run build && node bench/train/dk-runs.mjs            # every setting
//   node bench/train/dk-runs.mjs textbook                    # one setting, the rest kept
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createEngine } from '../../dist/engine/engine.js';
import {
  armConfig,
  armRow,
  DK_ARMS,
  DK_EVAL_EXAMPLES,
  DK_EVERY,
  DK_SEEDS,
  DK_SETTING_NAMES,
  DK_SETTINGS,
  DK_STEPS,
  findings,
  storedRuns,
  summarize,
} from '../../web/src/playground/dk-experiment.js';

const OUT = new URL('../../web/src/playground/dk-runs.json', import.meta.url);
const only = process.argv[2];
if (only && !DK_SETTING_NAMES.includes(only)) {
  console.error(`setting (${only}) must be one of ${DK_SETTING_NAMES.join(', ')}`);
  process.exit(1);
}
const engine = await createEngine();
/** Four significant digits: the file stays small, the curves and sentences are unchanged. */
const round = (x) => Number(x.toPrecision(4));

/** One arm for one seed: rows at step 1 and every DK_EVERY steps, then held-out exact match. */
function trainArm(setting, arm, seed, steps = DK_STEPS) {
  const config = armConfig(setting, arm, seed);
  const trainer = engine.createTrainer(config);
  try {
    const rows = [armRow(trainer.step(1), config)];
    while (rows.at(-1).step < steps) {
      const step = rows.at(-1).step;
      rows.push(armRow(trainer.step(Math.min(DK_EVERY - (step % DK_EVERY), steps - step)), config));
    }
    return { seed, exactMatch: trainer.evaluate(DK_EVAL_EXAMPLES).exactMatch, rows };
  } finally {
    trainer.dispose();
  }
}

// Trained first, then merged into the file as it is when this run ends: two runs of one setting
// each (one per core) may write it one after the other.
const trained = {};
for (const setting of only ? [only] : DK_SETTING_NAMES) {
  const arms = {};
  const start = performance.now();
  for (const arm of DK_ARMS) {
    arms[arm] = DK_SEEDS.map((seed) => trainArm(setting, arm, seed));
    console.log(`${setting} ${arm}: ${arms[arm].map((r) => (r.exactMatch * 100).toFixed(1) + '%').join(' ')}`);
  }
  trained[setting] = {
    config: DK_SETTINGS[setting],
    seconds: Math.round((performance.now() - start) / 1000),
    arms: Object.fromEntries(
      DK_ARMS.map((arm) => [
        arm,
        arms[arm].map((run) => ({
          seed: run.seed,
          exactMatch: round(run.exactMatch),
          rows: run.rows.map((r) => [r.step, round(r.loss), round(r.entropy), round(r.gradient)]),
        })),
      ]),
    ),
  };
}
const file = existsSync(OUT) ? JSON.parse(readFileSync(OUT, 'utf8')) : { settings: {} };
file.about =
  'bench/train/dk-runs.mjs: the √d_k experiment trained in WASM for every setting, arm and seed; rows are [step, loss, entropy, gradient at the softmax input]';
file.steps = DK_STEPS;
file.every = DK_EVERY;
file.evalExamples = DK_EVAL_EXAMPLES;
Object.assign(file.settings, trained);
writeFileSync(OUT, JSON.stringify(file) + '\n');

// The table docs/training.md shows: medians over the seeds and their range.
const pct = (r) => `${(r.median * 100).toFixed(0)}% (${(r.min * 100).toFixed(0)}–${(r.max * 100).toFixed(0)})`;
const num = (r) => `${r.median.toPrecision(2)} (${r.min.toPrecision(2)}–${r.max.toPrecision(2)})`;
for (const setting of DK_SETTING_NAMES) {
  const stored = file.settings[setting];
  if (!stored) continue;
  const summary = summarize(storedRuns(stored));
  const f = findings(summary);
  console.log(`\n${setting}: ${stored.seconds} s for ${DK_ARMS.length} arms × seeds ${DK_SEEDS.join(', ')}`);
  // The line docs/training.md quotes (tests/node/dk-experiment.test.mjs checks it against the file).
  console.log(
    `findings (${setting}): faster ${f.faster}, saturated ${f.saturated}, vanished ${f.vanished}, control like ${f.control} (gradient ratio ${f.gradientRatio.toPrecision(3)})`,
  );
  console.log(
    `| arm | held-out exact match | loss at ${DK_STEPS} | entropy at step ${summary.scaled.earlyStep} | entropy at ${DK_STEPS} | ‖∂L/∂(softmax input)‖ (geometric mean) |`,
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const arm of DK_ARMS) {
    const s = summary[arm];
    console.log(
      `| ${arm} | ${pct(s.exactMatch)} | ${num(s.loss)} | ${num(s.earlyEntropy)} | ${num(s.entropy)} | ${num(s.gradient)} |`,
    );
  }
}
