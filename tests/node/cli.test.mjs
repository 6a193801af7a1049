// The command line (bin/attention-explorer.mjs), run as a process: its output is the shared
// serializer's (the page's export writes the same), it streams traces of any size, and every
// bad argument exits 2 with a message naming the flag and what it allows (1 is reserved for
// the engine refusing the input).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync } from 'node:fs';
import path from 'node:path';
import { createEngine, root, fullTier } from './support.mjs';
import { matricesOf, summaryOf, traceCSV, traceJSON } from '../../dist/engine/serialize.js';

const bin = path.join(root, 'bin/attention-explorer.mjs');
const run = (...args) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const engine = await createEngine();

function assertRefused(args, flagPattern) {
  const r = run(...args);
  assert.equal(r.status, 2, `${JSON.stringify(args)} exits 2: ${r.stderr}`);
  assert.match(r.stderr, flagPattern, JSON.stringify(args));
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'a message, not a stack trace');
  assert.equal(r.stdout, '');
}

test('the CLI writes exactly what the shared serializer writes, JSON and CSV', () => {
  const live = engine.open({ tokens: ['=1+1', 'say "hi"', '-2+3'], heads: 2, mask: 'causal', seed: 7 });
  try {
    const all = () => matricesOf(live, (name) => live.info(name).perHead);
    const args = ['trace', '--tokens', '=1+1,say "hi",-2+3', '--mask', 'causal', '--seed', '7'];
    const json = run(...args);
    assert.equal(json.status, 0, json.stderr);
    assert.equal(json.stdout, [...traceJSON(summaryOf(live), all())].join(''));
    const csv = run(...args, '--format', 'csv');
    assert.equal(csv.status, 0, csv.stderr);
    assert.equal(csv.stdout, [...traceCSV(all())].join(''));
  } finally {
    live.dispose();
  }
});

test('--bom starts CSV with a UTF-8 BOM (for Excel); without it stdout is plain CSV', () => {
  const args = ['trace', '我 爱 吃 火锅', '--format', 'csv'];
  const plain = spawnSync(process.execPath, [bin, ...args]);
  const marked = spawnSync(process.execPath, [bin, ...args, '--bom']);
  assert.equal(marked.status, 0, String(marked.stderr));
  assert.notDeepEqual([...plain.stdout.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'no BOM by default');
  assert.deepEqual([...marked.stdout.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  assert.ok(marked.stdout.subarray(3).equals(plain.stdout), 'the BOM and then the same bytes');
  const step = spawnSync(process.execPath, [bin, ...args, '--step', 'weights', '--head', '1', '--bom']);
  assert.deepEqual([...step.stdout.subarray(0, 4)], [0xef, 0xbb, 0xbf, 0x2c], 'one step too: BOM, then ","');
  assertRefused(['trace', 'a', '--bom'], /--bom is for --format csv/);
});

test('CSV: tokens a spreadsheet would run as formulas are guarded, numbers stay numbers', () => {
  // After a ";" (a cell of its own where ";" separates), spaces or a BOM, and in full width too.
  const tokens = '=1+1,+cmd|calc,@SUM(1),-2+3,x\ry,a;=1+1, =1+1,\uFEFF=1+1,＝1';
  const r = run('trace', '--tokens', tokens, '--step', 'scores', '--format', 'csv');
  assert.equal(r.status, 0, r.stderr);
  const [header, ...rows] = r.stdout.split('\n');
  assert.equal(header, ",'=1+1,'+cmd|calc,'@SUM(1),'-2+3,\"x\ry\",a;'=1+1,' =1+1,'\uFEFF=1+1,'＝1");
  assert.match(rows[0], /^'=1\+1,/);
  const values = rows[0].split(',').slice(1).map(Number);
  assert.ok(values.every(Number.isFinite) && values.some((v) => v < 0), 'negative numbers are written as numbers');
});

test('several words without quotes are one sentence', () => {
  const r = run('trace', 'The', 'cat', 'sat', '--step', 'x', '--format', 'csv');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(
    r.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[0]),
    ['The', 'cat', 'sat'],
  );
});

test('a sentence is split into words as the page splits it; --tokenizer chooses another split', () => {
  const tokensOf = (...args) => JSON.parse(run('trace', ...args, '--step', 'x', '--json').stdout).rowLabels;
  assert.deepEqual(tokensOf('小明在北京的清华大学读书'), ['小明', '在', '北京', '的', '清华大学', '读书']);
  assert.deepEqual(tokensOf('我 爱 吃 火锅'), ['我', '爱', '吃', '火锅']);
  assert.deepEqual(tokensOf('我 爱 吃 火锅', '--tokenizer', 'engine'), ['我', '爱', '吃', '火', '锅']);
  assert.deepEqual(tokensOf('猫追着球跑', '--tokenizer', 'chars'), ['猫', '追', '着', '球', '跑']);
  for (const bad of [
    ['--tokenizer', 'letters'],
    ['--tokenizer', '__proto__'],
  ]) {
    const r = run('trace', '猫追着球跑', ...bad);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--tokenizer \(".*"\) must be one of words, chars, whitespace, engine/);
  }
  assert.equal(run('trace', '--tokens', 'a,b', '--tokenizer', 'chars').status, 2);
});

// Each sentence's words: 2,048 tokens is the engine's limit; its full trace is ~700 MB of
// JSON, more than one JS string can hold.
const longest = Array.from({ length: 2048 }, (_, i) => `w${i}`).join(' ');

async function streamed(args) {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let bytes = 0;
  let first = '';
  let last = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdout.on('data', (chunk) => {
    bytes += chunk.length;
    if (first.length < 64) first += chunk.toString('latin1', 0, 64);
    last = (last + chunk.toString('latin1', Math.max(0, chunk.length - 64))).slice(-64);
  });
  const [status] = await once(child, 'close');
  return { status, bytes, first, last, stderr };
}

// Its time follows the machine's load (tens of seconds idle): the timeout only ends a hang.
test('a full trace of 2,048 tokens streams out as JSON and as CSV', { ...fullTier, timeout: 30 * 60_000 }, async () => {
  // Both at once: each process is mostly formatting numbers, one core each.
  const [json, csv] = await Promise.all([
    streamed(['trace', longest, '--json']),
    streamed(['trace', longest, '--format', 'csv']),
  ]);
  assert.equal(json.stderr, '');
  assert.equal(json.status, 0);
  assert.ok(json.bytes > 2 ** 29, `${json.bytes} bytes: more than the longest JS string`);
  assert.ok(json.first.startsWith('{"tokens":["w0","w1",'), json.first);
  assert.match(json.last, /\]\}\}\}\n$/, 'the last matrix, steps and the trace close');
  assert.equal(csv.stderr, '');
  assert.equal(csv.status, 0);
  assert.ok(csv.bytes > 2 ** 29, `${csv.bytes} bytes`);
  assert.ok(csv.first.startsWith('# step,x,head,,shape,2048x8\n,0,1,'), csv.first);
});

test('a reader that stops early (| head) ends the CLI quietly with status 0', async () => {
  const child = spawn(process.execPath, [bin, 'trace', longest.split(' ', 300).join(' ')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [chunk] = await once(child.stdout, 'data');
  assert.ok(chunk.length > 0);
  child.stdout.destroy(); // closes the pipe: the next write fails with EPIPE
  const [status] = await once(child, 'close');
  assert.equal(stderr, '');
  assert.equal(status, 0);
});

test(
  'an output that cannot be written (a full disk) exits 3 with a message',
  { skip: !existsSync('/dev/full') },
  () => {
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [bin, 'trace', 'a b'], {
        stdio: ['ignore', full, 'pipe'],
        encoding: 'utf8',
      });
      assert.equal(r.status, 3);
      assert.match(r.stderr, /^attention-explorer: cannot write the output: ENOSPC/);
    } finally {
      closeSync(full);
    }
  },
);

test('--head counts from 1: --head 1 is the engine’s head 0, --head 2 its head 1; CSV blocks say the same', () => {
  const live = engine.run({ text: '我 爱 吃 火锅', heads: 2 });
  for (const head of [1, 2]) {
    const out = JSON.parse(run('trace', '我 爱 吃 火锅', '--step', 'weights', '--head', String(head)).stdout);
    assert.deepEqual(out.data, Array.from(live.step('weights', head - 1).data), `--head ${head}`);
  }
  const csv = run('trace', '我 爱 吃 火锅', '--format', 'csv').stdout;
  const blocks = csv.split('\n').filter((line) => line.startsWith('# step,weights,'));
  assert.deepEqual(blocks, ['# step,weights,head,1,shape,4x4', '# step,weights,head,2,shape,4x4']);
});

test('--step and --head: names of the trace only, own properties only', () => {
  for (const step of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'nope']) {
    assertRefused(['trace', 'a b', '--step', step], /--step \(.*\) must be one of x, pe, .*weights/);
  }
  // Heads are numbered from 1 (as in the page and the CSV); 0 says where the first head went.
  assertRefused(['trace', 'a b', '--step', 'weights', '--head', '3'], /--head \(3\) must be from 1 to 2/);
  assertRefused(['trace', 'a b', '--step', 'weights', '--head=-1'], /--head \(-1\) must be from 1 to 2/);
  assertRefused(['trace', 'a b', '--step', 'weights', '--head', '0'], /from 1 to 2.*the first head is --head 1/);
  assertRefused(['trace', 'a b', '--step', 'x', '--head', '1'], /--head.*"x" is not per head/);
  assertRefused(['trace', 'a b', '--head', '1'], /--head needs --step/);
  assertRefused(['trace', 'a b', '--step', 'weights', '--head', 'one'], /--head \(\"one\"\) must be an integer/);
});

test('flags with a fixed set of values refuse anything else, prototype names included', () => {
  for (const value of ['__proto__', 'constructor', 'toString', 'bogus', '']) {
    assertRefused(['trace', 'a', '--mask', value], /--mask \(.*\) must be one of none, causal, window/);
    assertRefused(['trace', 'a', '--init', value], /--init \(.*\) must be one of scaled, randn/);
    assertRefused(['trace', 'a', '--embedding', value], /--embedding \(.*\) must be one of hash, stream/);
    assertRefused(['trace', 'a', '--format', value], /--format \(.*\) must be one of json, csv/);
  }
  assertRefused(['trace', 'a', '--__proto__', 'x'], /Unknown option '--__proto__'/);
});

test('numbers: an empty or malformed value is a bad argument (2), not an engine refusal', () => {
  for (const value of ['', 'abc', '1e400', '0x10', ' 1', 'NaN', 'Infinity']) {
    assertRefused(['trace', 'a', '--temperature', value], /--temperature \(.*\) must be a number/);
  }
  for (const value of ['', '1.5', 'two'])
    assertRefused(['trace', 'a', '--heads', value], /--heads \(.*\) must be an integer/);
  const r = run('trace', 'a', '--temperature', '1.5e0', '--step', 'x');
  assert.equal(r.status, 0, r.stderr);
  const refused = run('trace', 'a b', '--heads', '3');
  assert.equal(refused.status, 1, 'the engine refusing a value is still 1');
});

test('seeds: 0 … 4294967295 are arguments the CLI passes on, anything else exits 2', () => {
  for (const seed of ['0', '2147483648', '4294967295']) {
    const r = run('trace', 'a', '--seed', seed, '--step', 'x');
    assert.notEqual(r.status, 2, `--seed ${seed}: ${r.stderr}`);
  }
  for (const seed of ['4294967296', '-1', '-0', '1.5', '', '1e3', '99999999999999999999']) {
    assertRefused(['trace', 'a', `--seed=${seed}`], /--seed \(.*\) must be an integer from 0 to 4294967295/);
  }
});

test('conflicting or repeated flags are refused, not silently ignored', () => {
  assertRefused(['trace', 'a b', '--window', '2'], /--window needs --mask window/);
  assertRefused(['trace', 'a b', '--mask', 'causal', '--window', '2'], /--window needs --mask window/);
  assertRefused(['trace', 'a b', '--format', 'csv', '--json'], /--json and --format csv conflict/);
  assertRefused(['trace', 'a b', '--tokens', 'a,b'], /a sentence or --tokens, not both/);
  assertRefused(['trace', 'a b', '--heads', '2', '--heads', '4'], /--heads is given twice/);
  const ok = run('trace', 'a b', '--format', 'json', '--json', '--step', 'x');
  assert.equal(ok.status, 0, '--json agrees with --format json');
  const windowed = run('trace', 'a b c', '--mask', 'window', '--window', '1', '--step', 'masked', '--format', 'csv');
  assert.equal(windowed.status, 0, windowed.stderr);
  assert.match(windowed.stdout, /-inf/);
});
