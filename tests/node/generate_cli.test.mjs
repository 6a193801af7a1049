// The CLI's corpus-model commands (bin/train.mjs): generate prints what the API generates,
// greedy or seeded; trace --model reads text by the model's vocabulary; notes on stderr for
// unknown symbols and cut text; bad arguments exit 2, a task model or a damaged file exit 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEngine, root } from './support.mjs';
import { corpusModelFile } from './corpus_model_support.mjs';
import { TINY } from './training_support.mjs';

const cliPath = path.join(root, 'bin/attention-explorer.mjs');
const run = (...args) => spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8' });
const engine = await createEngine();
const dir = mkdtempSync(path.join(tmpdir(), 'attention-generate-'));
const poemPath = path.join(dir, 'poem.model');
const taskPath = path.join(dir, 'sort.model');
const bytes = corpusModelFile(engine, { symbols: [...'床前明月光，疑是地上霜。'], length: 8 });
writeFileSync(poemPath, bytes);
const trainer = engine.createTrainer(TINY);
writeFileSync(taskPath, trainer.save());
trainer.dispose();
const model = engine.loadModel(bytes);

test('generate prints the API’s text, greedy by default or sampled with a seed', () => {
  const greedy = run('generate', '--model', poemPath, '床前明月', '--count', '6');
  assert.equal(greedy.status, 0, greedy.stderr);
  assert.equal(greedy.stdout, `${model.generate({ text: '床前明月' }, { count: 6 }).text}\n`);
  assert.equal(greedy.stderr, '');
  const sampled = run(
    'generate',
    '--model',
    poemPath,
    '床前',
    '--count',
    '5',
    '--seed',
    '9',
    '--temperature',
    '2',
    '--top-k',
    '4',
    '--json',
  );
  assert.equal(sampled.status, 0, sampled.stderr);
  const expected = model.generate('床前', { count: 5, seed: 9, temperature: 2, topK: 4, greedy: false });
  assert.deepEqual(JSON.parse(sampled.stdout), expected);
  // Unknown symbols and text past the context are noted on stderr; the window keeps the end.
  const long = run('generate', '--model', poemPath, '床前明月光，疑是地上霜。床前明月光X');
  assert.equal(long.status, 0, long.stderr);
  assert.match(long.stderr, /not in the vocabulary, read as <unk>: X/);
  assert.match(long.stderr, /the text has 18 tokens; the model reads 16 \(2 cut\)/);
});

test('trace --model reads a corpus model’s text by its vocabulary', () => {
  const result = run('trace', '--model', poemPath, '床前X', '--layer', '1', '--step', 'weights', '--head', '2');
  assert.equal(result.status, 0, result.stderr);
  const expected = model.trace({ text: '床前X' }, { layer: 0 }).step('weights', 1);
  const printed = JSON.parse(result.stdout);
  assert.deepEqual(printed.rowLabels, ['床', '前', 'X']);
  assert.deepEqual(printed.data, Array.from(expected.data));
  assert.match(result.stderr, /read as <unk>: X/);
  const whole = JSON.parse(run('trace', '--model', poemPath, '床前X').stdout);
  assert.deepEqual(whole.model.unknown, [false, false, true]);
  assert.equal(whole.model.cut, 0);
});

test('bad generate arguments exit 2 naming the flag; task models and damaged files exit 1', () => {
  const usage = [
    [['generate', '--model', poemPath], /give a model and a text/],
    [['generate', '床前'], /give a model and a text/],
    [['generate', '--model', poemPath, '床', '--count', '0'], /--count \(0\) must be an integer from 1 to 1024/],
    [
      ['generate', '--model', poemPath, '床', '--seed', '1', '--temperature', '0'],
      /--temperature \(0\) must be a decimal number from 0.01 to 100/,
    ],
    [
      ['generate', '--model', poemPath, '床', '--seed', '1', '--temperature', ' 1'],
      /--temperature \( 1\) must be a decimal number from 0.01 to 100/,
    ],
    [['generate', '--model', poemPath, '床', '--temperature', '2'], /give --seed S too/],
    [['generate', '--model', poemPath, '床', '--greedy', '--seed', '3'], /not both/],
    [
      ['generate', '--model', poemPath, '床', '--seed', '3', '--top-k', '99'],
      /--top-k \(99\) must be an integer from 0 to 16/,
    ],
  ];
  for (const [args, message] of usage) {
    const result = run(...args);
    assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message, args.join(' '));
  }
  const task = run('generate', '--model', taskPath, '1 2');
  assert.equal(task.status, 1, task.stderr);
  assert.match(task.stderr, /is a toy-task model: generate needs a corpus language model/);
  const damagedPath = path.join(dir, 'damaged.model');
  const damaged = bytes.slice();
  damaged[100] ^= 1;
  writeFileSync(damagedPath, damaged);
  const refused = run('generate', '--model', damagedPath, '床');
  assert.equal(refused.status, 1, refused.stderr);
  assert.match(refused.stderr, /model\.checksum: .*\[INVALID_ARGUMENT\]/);
});
