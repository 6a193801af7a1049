// A trained model's trace on one thread or two: the threaded engine (dist/engine-mt) in a node
// process pinned with taskset to one core or to two (node's availableParallelism follows the
// affinity, so the engine's pool has 1 or 2 threads; the same build either way). What is traced is
// what the explorer's model panel asks its worker for (models/service.js modelView): every
// layer's attention weights and the block's steps, the last position's logits only. Models: GPT-2
// small (bench/make_gpt2_small.py's checkpoint) at 8, 32 and 128 tokens, and the shipped 4 × 4,
// d_model 128 models at 8, 32 and 64 (their context). The two variants alternate (1 2 1 2 …), one
// process each; per process the median of --reps traces after one warm-up, wall and CPU time;
// the table gives the median over --rounds processes. Run it with nice: the children inherit it.
//   node bench/model-trace-threads.mjs [--rounds 5] [--reps 5] [--only gpt2|tang|brown]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BLOCK_STEPS } from '../web/src/models/steps.js';
import { median } from './timing.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const STEPS = ['weights', ...BLOCK_STEPS];

/** In a child: load the model, trace each length `reps` times; { lengths: [{ n, wall, cpu }] }. */
async function child(kind, lengths, reps) {
  const { createEngine } = await import('../dist/engine-mt/engine.js');
  const engine = await createEngine();
  let model;
  let ids;
  if (kind === 'gpt2') {
    const dir = option('--folder');
    model = engine.loadCheckpoint({
      config: readFileSync(path.join(dir, 'config.json'), 'utf8'),
      safetensors: readFileSync(path.join(dir, 'model.safetensors')),
    });
    ids = (n) => Array.from({ length: n }, (_, i) => (i * 7919 + 13) % 50257);
  } else {
    model = engine.loadModel(readFileSync(path.join(root, 'models', `${kind}.model`)));
    ids = (n) => Array.from({ length: n }, (_, i) => (i * 37 + 5) % model.vocabulary.length);
  }
  const rows = [];
  for (const n of lengths) {
    const input = { tokens: ids(n) };
    model.trace(input, { steps: STEPS });
    const wall = [];
    const cpu = [];
    for (let r = 0; r < reps; r++) {
      const c = process.cpuUsage();
      const t = performance.now();
      model.trace(input, { steps: STEPS });
      wall.push(performance.now() - t);
      const u = process.cpuUsage(c);
      cpu.push((u.user + u.system) / 1000);
    }
    rows.push({ n, wall: median(wall), cpu: median(cpu) });
  }
  return { threads: engine.threads, rows };
}

if (argv.includes('--child')) {
  const out = await child(option('--child'), option('--lengths').split(',').map(Number), Number(option('--reps')));
  process.stdout.write(JSON.stringify(out));
  process.exit(0); // the engine's threads would keep the process alive
}

const ROUNDS = Number(option('--rounds', 5));
const REPS = Number(option('--reps', 5));
const folder =
  option('--folder') ??
  execFileSync('/usr/bin/python3', [path.join(here, 'make_gpt2_small.py')], { encoding: 'utf8' }).trim();
const MODELS = [
  { kind: 'gpt2', lengths: [8, 32, 128] },
  { kind: 'tang', lengths: [8, 32, 64] },
  { kind: 'brown', lengths: [8, 32, 64] },
].filter((m) => !option('--only') || m.kind === option('--only'));

const load0 = os.loadavg()[0];
for (const { kind, lengths } of MODELS) {
  const runs = { 1: [], 2: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const cores of [1, 2]) {
      const args = [
        '-c',
        cores === 1 ? '0' : '0,1',
        process.execPath,
        fileURLToPath(import.meta.url),
        '--child',
        kind,
        '--folder',
        folder,
        '--lengths',
        lengths.join(','),
        '--reps',
        String(REPS),
      ];
      const out = JSON.parse(execFileSync('taskset', args, { encoding: 'utf8', maxBuffer: 1 << 20 }));
      if (out.threads !== cores) throw new Error(`pinned to ${cores} cores, the engine runs ${out.threads} threads`);
      runs[cores].push(out.rows);
    }
  }
  for (const [i, n] of lengths.entries()) {
    const m = (cores, key) => median(runs[cores].map((rows) => rows[i][key]));
    console.log(
      `${kind} ${n} tokens: 1 thread ${m(1, 'wall').toFixed(1)} ms (CPU ${m(1, 'cpu').toFixed(1)}), 2 threads ${m(2, 'wall').toFixed(1)} ms (CPU ${m(2, 'cpu').toFixed(1)}), wall 1 ÷ 2 = ${(m(1, 'wall') / m(2, 'wall')).toFixed(2)}`,
    );
  }
}
console.log(`load average ${load0.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}, ${ROUNDS} rounds × ${REPS} traces`);
