// Long sequences in the WebAssembly engine: `engine.attend()` (the layer's output without a
// trace, attend.hpp) at n = 1,024, 2,048 and 4,096, d_model 512, 8 heads of 64, for the same
// kinds as bench/cpp/longseq_bench.cpp (full, a window of 128, Longformer, BigBird, linear, and
// the floor: a window of width 0). The kinds and lengths are interleaved, one run each per round
// after a warm-up round; per case the median wall and process-CPU time, the buffers Attend counts,
// and the WASM memory a fresh instance grew to for that one run (Emscripten grows it by up to a
// fifth beyond what was asked: a coarse peak). With the native program's JSON lines, WASM ÷ native.
//   node bench/longseq.mjs [rounds] [native.json] [engine folder]   (default 5 rounds, dist/engine)
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { median } from './timing.mjs';

const folder = process.argv[4] ? pathToFileURL(`${process.argv[4]}/`) : new URL('../dist/engine/', import.meta.url);
const { createEngine } = await import(new URL('engine.js', folder));
const { compileModule } = await import(new URL('module.js', folder));
const { normalizeOptions } = await import(new URL('options.js', folder));

const SIZES = [1024, 2048, 4096];
const KINDS = [
  { name: 'floor (window w=0)', options: { mask: { type: 'window', width: 0 } } },
  { name: 'full', options: { mask: 'none' } },
  { name: 'window w=128', options: { mask: { type: 'window', width: 128 } } },
  { name: 'longformer w=128, global {0}', options: { mask: { type: 'longformer', width: 128, global: [0] } } },
  {
    name: 'bigbird w=128, global {0}, b=64, r=2',
    options: { mask: { type: 'bigbird', width: 128, global: [0], block: 64, random: 2, seed: 1 } },
  },
  { name: 'linear', options: { attention: 'linear', mask: 'none' } },
];

const optionsOf = (n, kind) => ({
  tokens: Array.from({ length: n }, (_, i) => `t${i % 997}`),
  dModel: 512,
  heads: 8,
  seed: 42,
  ...kind.options,
});

const rounds = Number.parseInt(process.argv[2] ?? '5', 10);
const native = new Map();
if (process.argv[3]) {
  for (const line of readFileSync(process.argv[3], 'utf8').split('\n').filter(Boolean)) {
    const row = JSON.parse(line);
    native.set(`${row.n} ${row.kind}`, row);
  }
}

// The memory a fresh instance grows to for one run of a case.
const instantiate = await compileModule();
function peakBytes(n, kind) {
  const module = instantiate();
  const limits = module.limits();
  const request = normalizeOptions(optionsOf(n, kind), {
    limits: { ...limits, maxTokens: limits.maxAttendTokens },
    givenNames: module.givenNames(),
    tokenizeText: () => {
      throw new Error('no text here');
    },
  });
  const result = module.attend(request, new module.WeightCache());
  if (!result.ok) throw new Error(`${kind.name}: ${result.message}`);
  return module.HEAPU8.buffer.byteLength;
}
const peak = new Map();
for (const n of SIZES) for (const kind of KINDS) peak.set(`${n} ${kind.name}`, peakBytes(n, kind));

const engine = await createEngine();
const wall = new Map();
const cpu = new Map();
const counted = new Map();
for (let round = 0; round <= rounds; round++) {
  for (const n of SIZES) {
    for (const kind of KINDS) {
      const key = `${n} ${kind.name}`;
      const options = optionsOf(n, kind);
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const result = engine.attend(options);
      const c = process.cpuUsage(c0);
      const t = performance.now() - t0;
      if (round === 0) continue;
      if (!wall.has(key)) (wall.set(key, []), cpu.set(key, []));
      wall.get(key).push(t);
      cpu.get(key).push((c.user + c.system) / 1000);
      counted.set(key, result);
    }
  }
}

console.log(
  `node ${process.version}, ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(
  '| n | kind | wall ms | CPU ms | CPU above floor | full ÷ kind (CPU above floor) | counted MB | WASM memory above floor MB | WASM ÷ native (CPU) |',
);
console.log('| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const n of SIZES) {
  const floor = median(cpu.get(`${n} ${KINDS[0].name}`));
  const full = median(cpu.get(`${n} full`)) - floor;
  for (const kind of KINDS) {
    const key = `${n} ${kind.name}`;
    const c = median(cpu.get(key));
    const above = c - floor;
    const nat = native.get(key);
    console.log(
      `| ${n} | ${kind.name} | ${median(wall.get(key)).toFixed(1)} | ${c.toFixed(1)} | ${above.toFixed(1)} | ${
        kind === KINDS[0] ? '—' : (full / above).toFixed(2)
      } | ${(counted.get(key).scoreBytes / 1e6).toFixed(2)} | ${((peak.get(key) - peak.get(`${n} ${KINDS[0].name}`)) / 1e6).toFixed(1)} | ${
        nat ? (c / nat.cpuMs).toFixed(2) : '–'
      } |`,
    );
  }
}
