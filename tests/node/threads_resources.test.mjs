// What the threaded engine (dist/engine-mt) holds stays bounded however many trainers and traces
// come and go: they all run on the module's one pool of threads (SharedPool, parallel.hpp). A pool
// per trainer left one OS thread (a node worker) and about 9 MB of WASM memory behind with every
// trainer, for good: 400 trainers held 410 threads and 900 MB. And an instance replaced after a
// failure takes its threads with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { createEngine, Engine } from '../../dist/engine-mt/engine.js';
import { compileModule } from '../../dist/engine-mt/module.js';
import { nodeThreading } from '../../dist/engine-mt/node_threads.js';
import { TINY } from './training_support.mjs';

const linux = existsSync('/proc/self/task');
const osThreads = () => readdirSync('/proc/self/task').length;
const CYCLES = 200;
// A leak of one thread per cycle breaks this by far; a pool's few threads, node's own helpers and
// a worker still exiting do not.
const THREAD_SLACK = 16;
const MiB = 2 ** 20;

/** Resolves once `fn()` is true (terminated workers take a moment to exit), at most 10 s. */
async function eventually(fn) {
  for (const began = Date.now(); !fn() && Date.now() - began < 10000;) await sleep(20);
}

const engine = await createEngine();
const CONFIG = { ...TINY, layers: 1, dModel: 16, heads: 2, batchSize: 8, threads: engine.threads };
// Long enough that its heads and projections run on the pool (Trace::kMinSpreadWork).
const LONG = { tokens: Array.from({ length: 160 }, (_, i) => `t${i % 31}`), dModel: 64, heads: 8, seed: 2 };

function cycle() {
  const trainer = engine.createTrainer(CONFIG);
  try {
    trainer.step(1);
  } finally {
    trainer.dispose();
  }
}

test(
  `${CYCLES} trainers made, stepped and disposed keep the OS threads and WASM memory flat`,
  { skip: !linux && 'no /proc/self/task' },
  () => {
    for (let i = 0; i < 3; i++) cycle(); // the pool and the allocator's first blocks
    const threads = osThreads();
    const memory = engine.heapStats().memory;
    for (let i = 0; i < CYCLES; i++) cycle();
    const grew = { threads: osThreads() - threads, memoryMiB: (engine.heapStats().memory - memory) / MiB };
    assert.ok(grew.threads <= THREAD_SLACK, `OS threads grew by ${grew.threads} over ${CYCLES} trainers`);
    assert.ok(grew.memoryMiB <= 32, `WASM memory grew by ${grew.memoryMiB} MiB over ${CYCLES} trainers`);
  },
);

test(
  'trainers and long traces share the pool: interleaved, one disposed mid-way, the same numbers',
  { skip: !linux && 'no /proc/self/task' },
  () => {
    const alone = engine.createTrainer(CONFIG);
    const reference = [1, 2, 3].map(() => alone.step(1).loss);
    alone.dispose();
    const traced = engine.run(LONG).step('output').data;
    const threads = osThreads();
    for (let round = 0; round < 20; round++) {
      const [a, b] = [engine.createTrainer(CONFIG), engine.createTrainer(CONFIG)];
      try {
        const losses = { a: [a.step(1).loss], b: [b.step(1).loss] };
        assert.deepEqual(engine.run(LONG).step('output').data, traced);
        losses.a.push(a.step(1).loss);
        a.dispose(); // while b is half-way through: b's next step still runs on the pool
        losses.b.push(b.step(1).loss, b.step(1).loss);
        assert.deepEqual(losses.b, reference);
        assert.deepEqual(losses.a, reference.slice(0, 2));
      } finally {
        a.dispose();
        b.dispose();
      }
    }
    assert.ok(osThreads() - threads <= THREAD_SLACK, `OS threads grew by ${osThreads() - threads}`);
  },
);

test(
  'an instance replaced after a failure takes its threads with it',
  { skip: !linux && 'no /proc/self/task' },
  async () => {
    const instantiate = await compileModule();
    const instances = [];
    const watched = new Engine(() => {
      const module = instantiate();
      instances.push(module);
      return module;
    });
    const expected = watched.run(LONG).step('output').data;
    const threads = osThreads();
    const RESTARTS = 24;
    for (let i = 0; i < RESTARTS; i++) {
      instances.at(-1).TraceHandle.prototype.run = () => {
        throw new WebAssembly.RuntimeError('memory access out of bounds');
      };
      // The threaded build's own AttentionError class (support.mjs checks the other build's).
      assert.throws(() => watched.run(LONG), {
        name: 'AttentionError',
        code: 'INTERNAL',
        field: 'engine',
        message: /a fresh instance/,
      });
    }
    assert.equal(instances.length, RESTARTS + 1);
    await eventually(() => osThreads() - threads <= THREAD_SLACK);
    assert.ok(
      osThreads() - threads <= THREAD_SLACK,
      `OS threads grew by ${osThreads() - threads} over ${RESTARTS} restarts`,
    );
    // The last instance's threads load in the background: until then its caller runs every head.
    assert.deepEqual(watched.run(LONG).step('output').data, expected);
    await eventually(() => instances.at(-1).PThread.unusedWorkers.every((worker) => worker.loaded));
    assert.deepEqual(watched.run(LONG).step('output').data, expected);
  },
);

test("a thread that crashes, and the module's onerror that rethrows it, leave the node process running", async () => {
  // Emscripten's onerror rethrows a pthread's crash (an abort when memory runs out on a pool
  // thread): a browser reports that and goes on, and so must node, where it ended the process.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'thread-crash-'));
  try {
    const script = path.join(dir, 'crash.js');
    writeFileSync(script, "throw new Error('the thread crashed');");
    const { Worker } = nodeThreading();
    const worker = new Worker(pathToFileURL(script));
    const awake = setInterval(() => {}, 1000); // the worker is unref'd: keep node waiting for it
    const reported = await new Promise((resolve) => {
      worker.onerror = (error) => {
        resolve(error);
        throw error;
      };
    });
    await sleep(200); // an uncaught rethrow would have failed this file by now
    clearInterval(awake);
    assert.match(String(reported?.message), /the thread crashed/);
    worker.terminate();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
