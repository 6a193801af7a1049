// The CLI's training commands (bin/train.mjs): train writes a model file with progress on
// stderr, eval and trace --model read it back with the API's numbers, bad arguments exit 2
// naming the flag and what is allowed, engine refusals exit 1.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEngine, root } from './support.mjs';

const cliPath = path.join(root, 'bin/attention-explorer.mjs');
const run = (...args) => spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8' });
const engine = await createEngine();
const dir = mkdtempSync(path.join(tmpdir(), 'attention-train-'));
const modelPath = path.join(dir, 'sort.model');
const TINY = ['--task', 'sort', '--length', '4', '--alphabet', '5', '--d-model', '32', '--learning-rate', '0.01'];
let trained;

before(() => {
  trained = run('train', ...TINY, '--steps', '60', '--every', '20', '--eval-examples', '100', '--out', modelPath);
});

test('train writes a model file, with a progress bar and the loss on stderr', () => {
  assert.equal(trained.status, 0, trained.stderr);
  const progress = trained.stderr.split('\n').filter((line) => line.startsWith('['));
  assert.equal(progress.length, 3, trained.stderr);
  assert.match(progress[2], /^\[#{30}\] 60\/60 loss \d+\.\d{4} acc [\d.]+% lr [\d.e-]+ \d+ tok\/s$/);
  const losses = progress.map((line) => Number(/loss (\S+)/.exec(line)[1]));
  assert.ok(losses[2] < losses[0], `loss ${losses.join(' → ')}`);
  assert.match(trained.stdout, /sort\.model: \d+ bytes; held-out exact match [\d.]+% \(100 examples\), loss \d/);
  const model = engine.loadModel(new Uint8Array(readFileSync(modelPath)));
  try {
    assert.equal(model.config.dModel, 32);
    assert.equal(model.config.taskLength, 4);
  } finally {
    model.dispose();
  }
});

test('eval and trace --model give the API numbers', () => {
  const model = engine.loadModel(new Uint8Array(readFileSync(modelPath)));
  try {
    const evaluated = run('eval', modelPath, '--examples', '100', '--json');
    assert.equal(evaluated.status, 0, evaluated.stderr);
    assert.deepEqual(JSON.parse(evaluated.stdout), { task: 'sort', ...model.evaluate(100) });
    const text = run('eval', modelPath, '--examples', '100');
    assert.match(text.stdout, /held-out exact match [\d.]+% \(100 examples\), token accuracy [\d.]+%, loss \d/);

    const csv = run('trace', '--model', modelPath, '3 1 4 2 |', '--step', 'probabilities', '--format', 'csv');
    assert.equal(csv.status, 0, csv.stderr);
    const [header, ...rows] = csv.stdout.trim().split('\n');
    assert.equal(header, ',0,1,2,3,4,|');
    const expected = model.trace({ text: '3 1 4 2 |' }).step('probabilities');
    assert.deepEqual(
      rows.flatMap((row) => row.split(',').slice(1).map(Number)),
      Array.from(expected.data),
    );
    const weights = JSON.parse(
      run('trace', '--model', modelPath, '3142|', '--layer', '2', '--step', 'weights', '--head', '3').stdout,
    );
    // --layer and --head count from 1, as everywhere a person reads them; the API counts from 0.
    assert.deepEqual(weights.data, Array.from(model.trace({ text: '3142|' }, { layer: 1 }).step('weights', 2).data));
    // ~300 kB through a pipe: all of it arrives before the process exits.
    const whole = JSON.parse(run('trace', '--model', modelPath, '0 1 2').stdout);
    assert.equal(whole.layers.length, 2);
    assert.deepEqual(whole.model.steps.probabilities.colLabels, ['0', '1', '2', '3', '4', '|']);
    assert.equal(whole.layers[0].steps.weights.length, 4, 'one weights matrix per head');
  } finally {
    model.dispose();
  }
});

test('bad arguments exit 2, naming the flag and the allowed values', () => {
  const cases = [
    [['train', '--layers', '13'], /--layers \(13\) must be an integer from 1 to 12/],
    [['train', '--task', 'sorting'], /--task \("sorting"\) must be one of copy, reverse, sort, induction, modular/],
    [['train', '--steps', '0'], /--steps \(0\) must be an integer from 1 to/],
    [['train', '--learning-rate', 'fast'], /--learning-rate \("fast"\) must be a number greater than 0/],
    [['train', '--causal', 'maybe'], /--causal \("maybe"\) must be true or false/],
    [['train', '--precision', 'int8'], /--precision \(int8\) must be one of float32, float16/],
    [['train', '--bogus', '1'], /--bogus/],
    [['train', '--layers', '1', '--layers', '2'], /--layers is given twice/],
    [['eval'], /give one model file/],
    [['eval', modelPath, '--examples', '-3'], /--examples/],
    [['trace', '--model', modelPath, '0 1', '--layer', '5'], /--layer \(5\) must be an integer from 1 to 2/],
    [['trace', '--model', modelPath, '0 1', '--layer', '0'], /--layer \(0\) must be an integer from 1 to 2/],
    [
      ['trace', '--model', modelPath, '0 1', '--head', '0', '--step', 'weights', '--layer', '1'],
      /--head \(0\) must be an integer from 1 to 4/,
    ],
    [
      ['trace', '--model', modelPath, '0 1', '--head', '5', '--step', 'weights', '--layer', '1'],
      /--head \(5\) must be an integer from 1 to 4/,
    ],
    [['trace', '--model', modelPath, '0 1', '--format', 'xml'], /--format \(xml\) must be one of json, csv/],
  ];
  for (const [args, message] of cases) {
    const result = run(...args);
    assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message, args.join(' '));
  }
});

test('engine refusals exit 1 with the field and the reason', () => {
  const damaged = readFileSync(modelPath);
  damaged[damaged.length - 100] ^= 1;
  const damagedPath = path.join(dir, 'damaged.model');
  writeFileSync(damagedPath, damaged);
  const cases = [
    [['train', '--d-model', '30', '--steps', '1'], /heads: heads \(4\) must divide dModel \(30\)/],
    [['eval', damagedPath], /model\.checksum: .*\[INVALID_ARGUMENT\]/],
    [['eval', path.join(dir, 'missing.model')], /cannot read .*missing\.model: ENOENT/],
    [['trace', '--model', modelPath, '3 x'], /text: text \("x"\) is not in the vocabulary/],
  ];
  for (const [args, message] of cases) {
    const result = run(...args);
    assert.equal(result.status, 1, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message, args.join(' '));
  }
});

test('a model file that cannot be written exits 3', () => {
  const result = run('train', ...TINY, '--steps', '1', '--out', path.join(dir, 'no-such-folder', 'x.model'));
  assert.equal(result.status, 3, result.stderr);
  assert.match(result.stderr, /cannot write .*x\.model: ENOENT/);
});
