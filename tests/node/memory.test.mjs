// 10,000 traces of varying size: the WASM heap in use returns to where it started, and WASM
// memory stops growing once the largest size has been seen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEngine } from './support.mjs';

const engine = await createEngine();

test('10,000 runs keep the WASM heap bounded', () => {
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
  assert.equal(end.inUse, start.inUse, 'every allocation of every run was freed');
  assert.equal(end.memory, start.memory, 'WASM memory did not grow');
  assert.ok(inUseWhileOpen > start.inUse + 64 * 32 * 4, 'an open trace does hold memory (the measure works)');
});
