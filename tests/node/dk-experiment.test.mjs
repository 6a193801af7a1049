// The √d_k experiment: one definition of each setting and arm; the committed run
// (web/src/playground/dk-runs.json) is what the engine trains; the control starts as the scaled
// model's function; and the page's sentences follow the numbers they are given, not a script.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createEngine } from '../../dist/engine/engine.js';
import {
  armConfig,
  armRow,
  DK_ARMS,
  DK_EVERY,
  DK_SEEDS,
  DK_SETTING_NAMES,
  DK_STEPS,
  experimentTable,
  findings,
  storedRuns,
  summarize,
} from '../../web/src/playground/dk-experiment.js';
import { strings } from '../../web/src/playground/i18n.js';

const RUNS = JSON.parse(readFileSync(new URL('../../web/src/playground/dk-runs.json', import.meta.url), 'utf8'));
const engine = await createEngine();

test('the committed run holds every setting, arm and seed, DK_STEPS long, with its settings as defined', () => {
  assert.deepEqual(Object.keys(RUNS.settings).sort(), [...DK_SETTING_NAMES].sort());
  for (const name of DK_SETTING_NAMES) {
    const stored = RUNS.settings[name];
    assert.deepEqual(stored.config, stripped(armConfig(name, 'scaled', 1)));
    for (const arm of DK_ARMS) {
      assert.deepEqual(
        stored.arms[arm].map((r) => r.seed),
        DK_SEEDS,
      );
      for (const run of stored.arms[arm]) {
        assert.equal(run.rows[0][0], 1);
        assert.equal(run.rows.at(-1)[0], DK_STEPS);
        assert.equal(run.rows.length, DK_STEPS / DK_EVERY + 1);
        assert.ok(run.rows.flat().every(Number.isFinite), `${name} ${arm} ${run.seed}: finite numbers`);
        assert.ok(run.exactMatch >= 0 && run.exactMatch <= 1);
      }
    }
  }
});

/** A setting's configuration as dk-runs.json stores it: without the arm's and seed's fields. */
function stripped(config) {
  const { seed, scale, queryKeyInit, ...rest } = config;
  return rest;
}

// The same engine, the same seed: the first steps again give the committed rows (rounded to 4
// significant digits there). Every arm of the cheaper setting, seed 1, 30 steps.
test('retraining seed 1 of the textbook setting gives the committed rows', () => {
  for (const arm of DK_ARMS) {
    const config = armConfig('textbook', arm, 1);
    const trainer = engine.createTrainer(config);
    try {
      const committed = RUNS.settings.textbook.arms[arm][0].rows;
      const rows = [armRow(trainer.step(1), config), armRow(trainer.step(9), config)];
      rows.push(armRow(trainer.step(10), config), armRow(trainer.step(10), config));
      rows.forEach((row, i) => {
        assert.equal(row.step, committed[i][0]);
        const [, loss, entropy, gradient] = committed[i];
        for (const [got, want, name] of [
          [row.loss, loss, 'loss'],
          [row.entropy, entropy, 'entropy'],
          [row.gradient, gradient, 'gradient'],
        ]) {
          assert.ok(
            Math.abs(got - want) <= 1e-3 * Math.abs(want) + 1e-30,
            `${arm} step ${row.step} ${name}: ${got} vs ${want}`,
          );
        }
      });
    } finally {
      trainer.dispose();
    }
  }
});

test('the control computes at step 0 what the scaled model computes; the unscaled model does not', () => {
  const first = (arm) => {
    const trainer = engine.createTrainer({ ...armConfig('realistic', arm, 2), learningRate: 1e-12 });
    try {
      return trainer.step(1);
    } finally {
      trainer.dispose();
    }
  };
  const [scaled, control, unscaled] = ['scaled', 'control', 'unscaled'].map(first);
  assert.ok(Math.abs(control.loss - scaled.loss) < 1e-5, `${control.loss} vs ${scaled.loss}`);
  assert.ok(Math.abs(control.attentionEntropy - scaled.attentionEntropy) < 1e-4);
  assert.ok(scaled.attentionEntropy - unscaled.attentionEntropy > 0.3, 'unscaled starts sharper');
});

test('bad settings and arms are refused by name', () => {
  assert.throws(() => armConfig('huge', 'scaled', 1), /setting \(huge\) must be one of realistic, textbook/);
  assert.throws(() => armConfig('textbook', 'half', 1), /arm \(half\) must be one of scaled, unscaled, control/);
  assert.throws(() => engine.createTrainer({ ...armConfig('textbook', 'scaled', 1), queryKeyInit: 0 }), /queryKeyInit/);
});

/** A synthetic setting: each arm's seeds with the given end exact match, entropy and gradient. */
function synthetic({ exact, early, gradient }) {
  const arms = {};
  for (const arm of DK_ARMS) {
    arms[arm] = exact[arm].map((e, i) => ({
      seed: i + 1,
      exactMatch: e,
      rows: [0, 10, 300].map((step) => ({ step, loss: 1, entropy: early[arm], gradient: gradient[arm] })),
    }));
  }
  return summarize(arms);
}

test('the sentences follow the numbers: a saturated, vanishing, start-driven case and a realistic one', () => {
  const textbook = synthetic({
    exact: { scaled: [0.7, 0.8, 0.6], unscaled: [0, 0, 0.01], control: [0.75, 0.7, 0.65] },
    early: { scaled: 0.8, unscaled: 0.02, control: 0.8 },
    gradient: { scaled: 0.1, unscaled: 1e-9, control: 0.1 },
  });
  const f = findings(textbook);
  assert.deepEqual(
    { ...f, gradientRatio: undefined },
    {
      faster: true,
      saturated: true,
      vanished: true,
      gradientRatio: undefined,
      control: 'scaled',
    },
  );
  const realistic = synthetic({
    exact: { scaled: [0.73, 0.94, 0.81], unscaled: [0.27, 0.36, 0.25], control: [0.3, 0.4, 0.2] },
    early: { scaled: 1.7, unscaled: 0.5, control: 1.7 },
    gradient: { scaled: 0.05, unscaled: 0.04, control: 0.05 },
  });
  const g = findings(realistic);
  assert.deepEqual([g.faster, g.saturated, g.vanished, g.control], [true, false, false, 'unscaled']);
  const overlapping = synthetic({
    exact: { scaled: [0.5, 0.9, 0.6], unscaled: [0.55, 0.3, 0.2], control: [0.5, 0.5, 0.5] },
    early: { scaled: 1, unscaled: 1, control: 1 },
    gradient: { scaled: 1, unscaled: 1, control: 1 },
  });
  assert.equal(findings(overlapping).faster, false);

  const en = strings('en');
  const zh = strings('zh');
  const [a, b, c, d] = en.dkSays(f, textbook);
  assert.match(a, /wins for every seed: 70% \(60–80%\)/);
  assert.match(b, /saturates at once: by step 10 its mean entropy is 0\.02 nats/);
  assert.match(c, /vanishes: 1\.0e-9 against 0\.10 .* about 100,000,000 times smaller/);
  assert.match(d, /ends like the scaled one/);
  const [, b2, c2, d2] = en.dkSays(g, realistic);
  assert.match(b2, /sharper, but not saturated: mean entropy 0\.50 nats at step 10 against 1\.70/);
  assert.match(c2, /same order in both \(0\.04 unscaled, 0\.05 scaled/);
  assert.match(d2, /still ends like the unscaled one \(30% \(20–40%\)\)/);
  assert.match(en.dkSays(findings(overlapping), overlapping)[0], /does not win every time/);
  // 中文 says the same facts: each case its own sentence, no English words left.
  assert.match(zh.dkSays(f, textbook)[1], /立刻饱和/);
  assert.match(zh.dkSays(g, realistic)[2], /同一个数量级/);
  for (const line of [...zh.dkSays(f, textbook), ...zh.dkSays(g, realistic)]) {
    assert.doesNotMatch(line.replace(/d_k|softmax|W_Q|W_K|AdamW|e-\d+/g, ''), /[A-Za-z]{3,}/, line);
  }
});

test('the committed run says what docs/training.md says it says', () => {
  const doc = readFileSync(new URL('../../docs/training.md', import.meta.url), 'utf8');
  for (const name of DK_SETTING_NAMES) {
    const f = findings(summarize(storedRuns(RUNS.settings[name])));
    const line = doc.split('\n').find((l) => l.startsWith(`findings (${name}):`));
    assert.ok(line, `docs/training.md has a "findings (${name}):" line`);
    for (const key of ['faster', 'saturated', 'vanished'])
      assert.ok(line.includes(`${key} ${f[key]}`), `${name} ${key} ${f[key]}: ${line}`);
    assert.ok(line.includes(`control like ${f.control}`), `${name} control ${f.control}: ${line}`);
  }
});

test("the exact-match table: the committed seeds' median (range) beside this run's, which stays — until the run has ended", () => {
  // The page draws these rows (dk-panel.js); the browser test runs the live run's start and stop.
  const summary = summarize(storedRuns(RUNS.settings.textbook));
  const m = summary.unscaled.exactMatch;
  const pct = (v) => `${Math.round(v * 100)}%`;
  for (const lang of ['en', 'zh']) {
    const t = strings(lang);
    const running = experimentTable({ exactMatch: null }, summary, t);
    assert.deepEqual(
      running.map(([name]) => name),
      DK_ARMS.map((arm) => t.dkArm[arm]),
    );
    assert.deepEqual(running[1], [t.dkArm.unscaled, `${pct(m.median)} (${pct(m.min)}–${pct(m.max)})`, '—']);
    const ended = experimentTable({ exactMatch: { scaled: 0.934, unscaled: 0.005, control: 0.5 } }, summary, t);
    assert.deepEqual(
      ended.map((row) => row[2]),
      ['93%', '1%', '50%'],
    );
    assert.deepEqual(
      ended.map((row) => row.slice(0, 2)),
      running.map((row) => row.slice(0, 2)),
      'the committed column is the same before and after',
    );
  }
});
