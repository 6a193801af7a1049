// The npm package: `npm pack` makes a tarball that installs in an empty folder (no network
// needed: it has no dependencies) and works there, as a module and as a command.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root } from './support.mjs';

let project;
let cli;

before(() => {
  const packDir = mkdtempSync(path.join(tmpdir(), 'attention-pack-'));
  const [{ filename, files }] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: root, encoding: 'utf8' }),
  );
  const packed = files.map((f) => f.path);
  for (const needed of [
    'dist/engine/engine.js',
    'dist/engine/engine.d.ts',
    'dist/engine/attention-engine.wasm',
    'dist/engine/serialize.js',
    'dist/engine-mt/engine.js',
    'dist/engine-mt/engine.d.ts',
    'dist/engine-mt/attention-engine.worker.js',
    'dist/engine-mt/node_threads.js',
    'bin/attention-explorer.mjs',
  ]) {
    assert.ok(packed.includes(needed), `${needed} is in the tarball`);
  }
  assert.ok(!packed.some((p) => p.startsWith('tests/') || p.startsWith('cpp/')), 'no sources or tests in the tarball');
  project = mkdtempSync(path.join(tmpdir(), 'attention-use-'));
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'uses-attention', private: true, type: 'module' }),
  );
  execFileSync(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', path.join(packDir, filename)],
    { cwd: project },
  );
  cli = path.join(project, 'node_modules/.bin/attention-explorer');
});

test('the installed package imports and runs in node', () => {
  writeFileSync(
    path.join(project, 'use.mjs'),
    `import { createEngine, AttentionError } from 'attention-explorer';
const engine = await createEngine();
const trace = engine.run({ text: '我 爱 吃 火锅', heads: 2 });
let code = '';
try { engine.run({ tokens: ['a'], dModel: 10, heads: 3 }); } catch (e) { code = e instanceof AttentionError ? e.code : 'other'; }
console.log(JSON.stringify({ tokens: trace.tokens, sum: trace.step('weights', 1).data.slice(0, 4).reduce((a, b) => a + b, 0), code }));`,
  );
  const out = JSON.parse(execFileSync('node', ['use.mjs'], { cwd: project, encoding: 'utf8' }));
  assert.deepEqual(out.tokens, ['我', '爱', '吃', '火锅']);
  assert.ok(out.sum > 0 && out.sum <= 1 + 1e-6);
  assert.equal(out.code, 'INVALID_ARGUMENT');
});

test("the installed package's threaded engine runs in node, with the same numbers", () => {
  writeFileSync(
    path.join(project, 'threaded.mjs'),
    `import { createEngine } from 'attention-explorer';
import { createEngine as createThreaded } from 'attention-explorer/threaded';
const options = { tokens: Array.from({ length: 100 }, (_, i) => 't' + (i % 13)), dModel: 32, heads: 8 };
const [single, threaded] = [await createEngine(), await createThreaded()];
const output = (engine) => Array.from(engine.run(options, { steps: ['output'] }).step('output').data);
console.log(JSON.stringify({ threads: threaded.threads, same: JSON.stringify(output(single)) === JSON.stringify(output(threaded)) }));`,
  );
  const out = JSON.parse(execFileSync('node', ['threaded.mjs'], { cwd: project, encoding: 'utf8' }));
  assert.ok(out.threads >= 1);
  assert.equal(out.same, true);
});

test('npx attention-explorer trace prints the trace as JSON', () => {
  const out = JSON.parse(execFileSync(cli, ['trace', '我 爱 吃 火锅', '--heads', '2', '--json'], { encoding: 'utf8' }));
  assert.deepEqual(out.tokens, ['我', '爱', '吃', '火锅']);
  assert.equal(out.heads, 2);
  assert.equal(out.steps.weights.length, 2);
  assert.deepEqual(out.steps.weights[0].shape, [4, 4]);
});

test('--step softmax-weights as CSV, with token labels', () => {
  const csv = execFileSync(
    cli,
    [
      'trace',
      '我 爱 吃 火锅',
      '--heads',
      '2',
      '--step',
      'weights',
      '--head',
      '1',
      '--format',
      'csv',
      '--mask',
      'causal',
    ],
    { encoding: 'utf8' },
  );
  const lines = csv.trim().split('\n');
  assert.equal(lines[0], ',我,爱,吃,火锅');
  assert.equal(lines.length, 5);
  assert.deepEqual(lines[1].split(',').slice(2).map(Number), [0, 0, 0], 'causal: the first query sees only itself');
});

test('bad arguments: clear messages and exit codes', () => {
  const run = (...args) => spawnSync(cli, args, { encoding: 'utf8' });
  let r = run('trace', 'a b', '--heads', '3');
  assert.equal(r.status, 1);
  assert.match(r.stderr, /heads \(3\) must divide dModel \(8\)/);
  r = run('trace', 'a b', '--heads', 'two');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--heads \("two"\) must be an integer/);
  r = run('explain', 'a');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown command "explain"/);
  r = run('trace', 'a', '--format', 'xml');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--format \("xml"\) must be one of json, csv/);
  r = run('trace', 'a', '--step', 'nope');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--step \("nope"\) must be one of x, /);
  r = run('trace', 'a', '--bogus');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /Unknown option '--bogus'/);
});
