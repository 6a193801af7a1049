// 10,000 traces of varying size: the WASM heap in use returns to where it started, and WASM
// memory stops growing once the largest size has been seen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAttentionError, createEngine, fullTier } from './support.mjs';

const engine = await createEngine();

test('10,000 runs keep the WASM heap bounded', fullTier, () => {
  const sizes = [1, 3, 8, 17, 32, 64];
  const sentence = (n, i) => Array.from({ length: n }, (_, j) => `w${(i + j) % 97}`);
  // Warm up with the largest size, so that memory has grown as far as it ever needs to.
  engine.run({ tokens: sentence(64, 0), dModel: 32, heads: 4 });
  const start = engine.heapStats();
  let inUseWhileOpen = 0;
  for (let i = 0; i < 10000; i++) {
    const n = sizes[i % sizes.length];
    const options = { tokens: sentence(n, i), dModel: 32, heads: 4, seed: i, mask: i % 2 ? 'causal' : 'none' };
    if (i % 3 === 0) {
      const live = engine.open(options);
      live.step('weights', i % 4);
      live.dispose();
    } else {
      engine.run(options);
    }
    if (i % 500 === 0) {
      const live = engine.open({ tokens: sentence(64, i), dModel: 32, heads: 4 });
      inUseWhileOpen = Math.max(inUseWhileOpen, engine.heapStats().inUse);
      live.dispose();
    }
  }
  const end = engine.heapStats();
  console.log(
    `  heap in use: start ${start.inUse} B, end ${end.inUse} B, ${inUseWhileOpen} B while a 64-token trace is open; memory ${start.memory} → ${end.memory} B`,
  );
  // dlmalloc hands out a whole free chunk when what would remain of it is under its 16-byte
  // minimum, so the bytes in use after a run depend on where the run's blocks landed, by 8 or 16
  // bytes; a leak of one block a run would be 10,000 × 16 bytes or more.
  const SLACK = 64;
  assert.ok(
    Math.abs(end.inUse - start.inUse) <= SLACK,
    `every allocation of every run was freed: ${end.inUse - start.inUse} B of slack (at most ${SLACK})`,
  );
  assert.equal(end.memory, start.memory, 'WASM memory did not grow');
  assert.ok(inUseWhileOpen > start.inUse + 64 * 32 * 4, 'an open trace does hold memory (the measure works)');
});

test('open() without dispose() stops at maxLiveTraces, and memory returns on dispose()', async () => {
  const fresh = await createEngine();
  const options = (i) => ({ tokens: ['a', 'b', `c${i}`], dModel: 16, heads: 2, seed: i });
  fresh.run(options(0)); // the cached weights stay; everything else must return
  const start = fresh.heapStats().inUse;
  const { maxLiveTraces } = fresh.limits;
  assert.equal(maxLiveTraces, 256);
  const traces = Array.from({ length: maxLiveTraces }, (_, i) => fresh.open(options(i)));
  for (const call of [() => fresh.open(options(0)), () => fresh.run(options(0))]) {
    assertAttentionError(call, {
      code: 'LIMIT_EXCEEDED',
      field: 'maxLiveTraces',
      message: '256 traces are open, as many as maxLiveTraces allows; call dispose() on the traces you no longer need',
    });
  }
  assert.ok(fresh.heapStats().inUse > start, 'open traces hold memory');
  traces[0].dispose();
  fresh.open(options(1)).dispose(); // one slot free again
  for (const t of traces) t.dispose();
  assert.equal(fresh.heapStats().inUse, start, 'every disposed trace returned its memory');
  assert.equal(fresh.run(options(3)).tokens[2], 'c3');
});

test('live traces are capped by the WASM memory they hold (maxLiveBytes)', async () => {
  const fresh = await createEngine({ maxLiveBytes: 4 * 2 ** 20 });
  assert.equal(fresh.limits.maxLiveBytes, 4 * 2 ** 20);
  const tokens = Array.from({ length: 256 }, (_, i) => `t${i}`);
  const traces = [];
  const open = () => traces.push(fresh.open({ tokens, dModel: 64, heads: 4 }));
  assert.throws(
    () => {
      for (let i = 0; i < 100; i++) open();
    },
    {
      code: 'LIMIT_EXCEEDED',
      field: 'maxLiveBytes',
      message:
        /^\d+ open traces hold [\d.]+ MB of WASM memory, more than the limit \(maxLiveBytes, 4 MB\); call dispose\(\) on the traces you no longer need$/,
    },
  );
  assert.ok(traces.length >= 1 && traces.length < 100, `${traces.length} traces opened`);
  for (const t of traces) t.dispose();
  open(); // works again
  traces.pop().dispose();
  await assert.rejects(createEngine({ maxLiveBytes: -1 }), { code: 'INVALID_ARGUMENT', field: 'maxLiveBytes' });
});
