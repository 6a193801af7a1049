// The training commands' files on disk (bin/model_files.mjs): a model "file" that is not a regular
// file is refused by name without being read (a device, a FIFO, a folder), a file is read no
// further than its first bytes when they are not a model's and never past the longest model file
// the engine accepts; train checks --out before training and never truncates the old file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEngine, root } from './support.mjs';

const cliPath = path.join(root, 'bin/attention-explorer.mjs');
// Reports the command's peak resident memory (KiB) on stderr as it exits.
const PROBE =
  "data:text/javascript,process.on('exit',()=>process.stderr.write('maxRSS '+process.resourceUsage().maxRSS+'\\n'))";

/** Runs the CLI; { status, stdout, stderr, seconds, peakMB }. A command that hangs is killed. */
function run(...args) {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--import', PROBE, cliPath, ...args], {
    encoding: 'utf8',
    timeout: 300_000, // far above a refusal's second on a loaded machine, far below 10⁶ steps
    killSignal: 'SIGKILL',
  });
  const peak = /maxRSS (\d+)/.exec(result.stderr);
  return { ...result, seconds: (performance.now() - started) / 1000, peakMB: peak ? Number(peak[1]) / 1024 : NaN };
}

const engine = await createEngine();
const dir = mkdtempSync(path.join(tmpdir(), 'attention-files-'));
const TINY = ['--task', 'sort', '--length', '4', '--alphabet', '5', '--d-model', '32', '--eval-examples', '10'];
const modelPath = path.join(dir, 'sort.model');
let baselineMB;

before(() => {
  const trained = run('train', ...TINY, '--steps', '1', '--out', modelPath);
  assert.equal(trained.status, 0, trained.stderr);
  // What a refused command costs anyway (node and the engine): the bound below is relative to it.
  baselineMB = run('eval', path.join(dir, 'missing.model')).peakMB;
  assert.ok(baselineMB > 0, 'the probe reports the peak memory');
});

// The sparse files take no disk space, but the FIFO and the folder are better gone.
after(() => rmSync(dir, { recursive: true, force: true }));

/** The command was refused (exit 1) with `message`, and read little: its peak memory stayed near a refusal's. */
function assertRefusedCheaply(result, message, what) {
  assert.equal(result.status, 1, `${what}: exit 1, not killed (${result.signal}); ${result.stderr}`);
  assert.match(result.stderr, message, what);
  assert.ok(result.peakMB < baselineMB + 64, `${what}: peak ${result.peakMB} MB, a refusal takes ${baselineMB} MB`);
}

test('/dev/zero is refused at once, naming the argument, whichever command reads it', () => {
  const cases = [
    [['eval', '/dev/zero'], /eval: the model file \(\/dev\/zero\) must be a regular file, not a character device/],
    [
      ['trace', '--model', '/dev/zero', 'x'],
      /trace: --model \(\/dev\/zero\) must be a regular file, not a character device/,
    ],
    [
      ['generate', '--model', '/dev/zero', 'x'],
      /generate: --model \(\/dev\/zero\) must be a regular file, not a character device/,
    ],
  ];
  for (const [args, message] of cases) assertRefusedCheaply(run(...args), message, args.join(' '));
});

test('a FIFO is refused without waiting for a writer, and a folder is refused by name', () => {
  const fifo = path.join(dir, 'pipe.model');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
  assertRefusedCheaply(
    run('eval', fifo),
    /the model file \(.*pipe\.model\) must be a regular file, not a FIFO/,
    'FIFO',
  );
  assertRefusedCheaply(
    run('generate', '--model', fifo, 'x'),
    /--model \(.*pipe\.model\) must be a regular file, not a FIFO/,
    'generate from a FIFO',
  );
  const folder = path.join(dir, 'folder.model');
  mkdirSync(folder);
  assertRefusedCheaply(
    run('eval', folder),
    /the model file \(.*folder\.model\) must be a regular file, not a folder/,
    'folder',
  );
});

test('a 600 MB file of zeros is refused by its first bytes, not read whole', () => {
  const zeros = path.join(dir, 'zeros.model');
  closeSync(openSync(zeros, 'w'));
  truncateSync(zeros, 600 * 2 ** 20); // sparse: no disk space taken
  const result = run('eval', zeros);
  assertRefusedCheaply(result, /model\.magic: not a model file: it starts with bytes 00 00 00 00 00 00 00 00/, 'zeros');
});

test('a file with a model header but longer than any model file is refused by its size, unread', () => {
  const max = engine.limits.maxModelFileBytes;
  assert.ok(max > 2 ** 20 && Number.isSafeInteger(max), `maxModelFileBytes ${max}`);
  const huge = path.join(dir, 'huge.model');
  writeFileSync(huge, readFileSync(modelPath).subarray(0, 1 << 16)); // its magic and version
  truncateSync(huge, max + 1);
  const result = run('trace', '--model', huge, '0 1');
  assertRefusedCheaply(
    result,
    new RegExp(`--model \\(.*huge\\.model\\) has ${max + 1} bytes; a model file has at most ${max}\\b`),
    'huge',
  );
  // A real model longer than the first bytes read still loads whole.
  assert.ok(readFileSync(modelPath).length > 1 << 16);
  const evaluated = run('eval', modelPath, '--examples', '5', '--json');
  assert.equal(evaluated.status, 0, evaluated.stderr);
  assert.equal(JSON.parse(evaluated.stdout).examples, 5);
});

const trained = (result) => /^training sort:/m.test(result.stderr) || /^\[#/m.test(result.stderr);

test('train refuses an --out it cannot write before training', () => {
  const cases = [
    [[''], 2, /--out must name a file \(it is empty\)/],
    [
      [path.join(dir, 'no-such-folder', 'x.model')],
      3,
      /cannot write .*x\.model: ENOENT \(no folder .*no-such-folder\)/,
    ],
    [[dir], 3, /--out \(.*\) must be a regular file, not a folder/],
    ...(existsSync('/dev/full')
      ? [[['/dev/full'], 3, /--out \(\/dev\/full\) must be a regular file, not a character device/]]
      : []),
  ];
  for (const [[out], status, message] of cases) {
    // 10⁶ steps would take hours: only a check before training ends in seconds.
    const result = run('train', ...TINY, '--steps', '1000000', '--out', out);
    assert.equal(result.status, status, `--out ${out}: ${result.stderr}`);
    assert.match(result.stderr, message, out);
    assert.ok(!trained(result), `--out ${JSON.stringify(out)}: refused before training; ${result.stderr}`);
  }
});

test('train keeps an existing file unless --force, and replaces it whole with --force', () => {
  const old = readFileSync(modelPath);
  const kept = run('train', ...TINY, '--steps', '1000000', '--out', modelPath);
  assert.equal(kept.status, 3, kept.stderr);
  assert.match(kept.stderr, /sort\.model exists; give --force to replace it, or another --out/);
  assert.ok(!trained(kept), kept.stderr);
  assert.deepEqual(readFileSync(modelPath), old, 'the old file is untouched');

  const replaced = run('train', ...TINY, '--steps', '2', '--seed', '7', '--out', modelPath, '--force');
  assert.equal(replaced.status, 0, replaced.stderr);
  assert.match(replaced.stdout, /sort\.model: \d+ bytes \(replaced the old file\); held-out/);
  const now = readFileSync(modelPath);
  assert.notDeepEqual(now, old);
  engine.loadModel(new Uint8Array(now)).dispose();
  // The temporary file it was written to is gone.
  assert.deepEqual(
    readdirSync(dir).filter((name) => name.endsWith('.tmp')),
    [],
  );
});

test('train refuses a dangling symbolic link as --out before training; a link to a file is kept', () => {
  // A link to a missing file: stat says "no such file", yet the link's name is taken.
  const dangling = path.join(dir, 'dangling.model');
  symlinkSync(path.join(dir, 'nowhere.model'), dangling);
  const refused = run('train', ...TINY, '--steps', '1000000', '--out', dangling);
  assert.equal(refused.status, 3, refused.stderr);
  assert.match(refused.stderr, /--out \(.*dangling\.model\) is a symbolic link to a missing file \(.*nowhere\.model\)/);
  assert.ok(!trained(refused), refused.stderr);
  assert.ok(!existsSync(path.join(dir, 'nowhere.model')));

  // A link to a file is the file: kept without --force, replaced with it, the link left a link.
  const target = path.join(dir, 'linked-target.model');
  writeFileSync(target, 'not a model yet');
  const link = path.join(dir, 'link.model');
  symlinkSync(target, link);
  const kept = run('train', ...TINY, '--steps', '1000000', '--out', link);
  assert.equal(kept.status, 3, kept.stderr);
  assert.match(kept.stderr, /link\.model exists; give --force/);
  const replaced = run('train', ...TINY, '--steps', '1', '--out', link, '--force');
  assert.equal(replaced.status, 0, replaced.stderr);
  assert.ok(lstatSync(link).isSymbolicLink(), 'the link is kept');
  engine.loadModel(new Uint8Array(readFileSync(target))).dispose();
});

test('number flags are decimal and in the normal range of a double', () => {
  const cases = [
    // 1e-320 is subnormal; 1e-400 is 0 once read: a weight decay of 0 the user did not type.
    [['--learning-rate', '1e-320'], /--learning-rate \(1e-320\) must be a number greater than 0/],
    [['--weight-decay', '1e-320'], /--weight-decay \(1e-320\) must be/],
    [['--weight-decay', '1e-400'], /--weight-decay \(1e-400\) must be/],
    [['--learning-rate', '0x10'], /--learning-rate \("0x10"\) must be/],
    [['--learning-rate', ' 0.5'], /--learning-rate \(" 0\.5"\) must be/],
  ];
  for (const [args, message] of cases) {
    const result = run('train', ...TINY, '--steps', '1000000', ...args);
    assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message, args.join(' '));
  }
  // What JSON writes is read: a sign, a leading point, an exponent.
  const read = run(
    'train',
    ...TINY,
    '--steps',
    '1',
    '--out',
    path.join(dir, 'decimal.model'),
    '--weight-decay',
    '+.5E-1',
  );
  assert.equal(read.status, 0, read.stderr);
});

test('numbers are echoed as typed: no digit lost to Number()', () => {
  const cases = [
    [['train', '--seed', '9007199254740993'], /--seed \(9007199254740993\) must be an integer from 0 to 4294967295/],
    [
      ['train', '--batch-size', '9007199254740993'],
      /--batch-size \(9007199254740993\) must be an integer from 1 to 4096/,
    ],
    [['train', '--learning-rate', '1e400'], /--learning-rate \(1e400\) must be a number greater than 0/],
    // Number("1.0000000000000001") is 1: an integer flag takes digits only.
    [['train', '--layers', '1.0000000000000001'], /--layers \("1\.0000000000000001"\) must be an integer from 1 to 12/],
    [
      ['generate', '--model', modelPath, 'x', '--seed', '9007199254740993'],
      /--seed \(9007199254740993\) must be an integer from 0/,
    ],
    [
      ['trace', 'a', 'b', '--seed', '9007199254740993'],
      /--seed \("9007199254740993"\) must be an integer from 0 to 4294967295/,
    ],
  ];
  for (const [args, message] of cases) {
    const result = run(...args);
    assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message, args.join(' '));
    assert.doesNotMatch(result.stderr, /9007199254740992/, args.join(' '));
  }
});
