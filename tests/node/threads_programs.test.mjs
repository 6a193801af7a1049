// The threaded engine (dist/engine-mt) in whole node programs, each in a child process (a
// failure here killed the process, and the peers' globals must not reach the other tests):
// - beside another WebAssembly library. onnxruntime-web and tfjs-backend-wasm are Emscripten
//   modules too, and under node they set globalThis.Worker to worker_threads' own Worker. The
//   engine once took whatever Worker the global held: after a peer had run, its threads started
//   on node's bare Worker, without the browser-like globals their script needs, and the process
//   died ("self is not defined").
// - started as `node --input-type=module -e …` (or a script on stdin): the engine's threads
//   inherit that flag, and their boot script, written as CommonJS, died ("require is not defined
//   in ES module scope").
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { root } from './support.mjs';

const run = promisify(execFile);

// A one-node ONNX model, y = Relu(x) over 4 floats, written as protobuf by hand (onnx.proto3's
// field numbers): enough to make onnxruntime-web start its WebAssembly module.
const ONNX_RELU = `
  const varint = (v) => { const out = []; do { out.push((v & 0x7f) | (v > 0x7f ? 0x80 : 0)); v >>>= 7; } while (v); return out; };
  const field = (n, value) => typeof value === 'number'
    ? [...varint(n << 3), ...varint(value)]
    : ((bytes) => [...varint((n << 3) | 2), ...varint(bytes.length), ...bytes])(
        typeof value === 'string' ? [...new TextEncoder().encode(value)] : value);
  const info = (name) => [...field(1, name), ...field(2, field(1, [...field(1, 1), ...field(2, field(1, field(1, 4)))]))];
  const graph = [...field(1, [...field(1, 'x'), ...field(2, 'y'), ...field(4, 'Relu')]), ...field(2, 'g'),
    ...field(11, info('x')), ...field(12, info('y'))];
  const reluModel = Uint8Array.from([...field(1, 8), ...field(7, graph), ...field(8, field(2, 13))]);
`;

// By resolved URL: the programs are files outside the repository.
const PEERS = {
  ort: `
    const ort = await import(${JSON.stringify(import.meta.resolve('onnxruntime-web'))});
    ort.env.wasm.numThreads = 1;
    const session = await ort.InferenceSession.create(reluModel);
    const { y } = await session.run({ x: new ort.Tensor('float32', Float32Array.of(-1, 2, -3, 4), [4]) });
    if (y.data.join() !== '0,2,0,4') throw new Error('onnxruntime-web: ' + y.data.join());
    await session.release();
  `,
  // tfjs picks its threaded build under node unless told otherwise.
  tfjs: `
    const tf = await import(${JSON.stringify(import.meta.resolve('@tensorflow/tfjs-core'))});
    const wasm = await import(${JSON.stringify(import.meta.resolve('@tensorflow/tfjs-backend-wasm'))});
    wasm.setWasmPaths(${JSON.stringify(`${root}/node_modules/@tensorflow/tfjs-backend-wasm/dist/`)});
    await tf.setBackend('wasm');
    const a = tf.tensor2d([1, 2, 3, 4], [2, 2]);
    if (tf.matMul(a, a).dataSync().join() !== '7,10,15,22') throw new Error('tfjs-backend-wasm');
  `,
};

// A trainer on every thread and a trace whose heads are spread over them: both need the pool.
const ENGINE = `
  const { createEngine } = await import(${JSON.stringify(`${root}/dist/engine-mt/engine.js`)});
  const engine = await createEngine();
  const trainer = engine.createTrainer({ task: 'sort', length: 4, alphabet: 5, layers: 1, dModel: 16,
    heads: 2, batchSize: 8, threads: Math.max(2, engine.threads) });
  const loss = trainer.step(3).loss;
  trainer.dispose();
  const tokens = Array.from({ length: 160 }, (_, i) => 't' + (i % 31));
  const output = engine.run({ tokens, dModel: 64, heads: 8, seed: 2 }).step('output').data;
  if (!(loss > 0) || !output.every(Number.isFinite)) throw new Error('the engine gave ' + loss);
`;

const dir = mkdtempSync(path.join(os.tmpdir(), 'threads-programs-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let programs = 0;

/** Runs the parts in order in one child node process, from a file; resolves with its output. */
async function program(...parts) {
  const file = path.join(dir, `program-${++programs}.mjs`);
  writeFileSync(file, `${ONNX_RELU}\n${parts.map((part) => `{${part}}`).join('\n')}\nconsole.log('program done');`);
  const { stdout } = await run(process.execPath, [file], { timeout: 120000 });
  return stdout;
}

for (const [name, peers] of [
  ['onnxruntime-web', [PEERS.ort]],
  ['tfjs-backend-wasm', [PEERS.tfjs]],
  ['onnxruntime-web and tfjs-backend-wasm (the benchmark)', [PEERS.ort, PEERS.tfjs]],
]) {
  test(`${name} first, then the threaded engine, in one node process`, async () => {
    assert.match(await program(...peers, ENGINE), /program done/);
  });
}

test('the threaded engine first, then a peer, then the engine again', async () => {
  // The engine sets no globals of its own, so a peer that looks for a Worker class finds its own.
  const check = `if (globalThis.Worker !== undefined) throw new Error('the engine set globalThis.Worker');`;
  assert.match(await program(ENGINE, check, PEERS.ort, PEERS.tfjs, ENGINE), /program done/);
});

test('the threaded engine in a program given as `node --input-type=module -e`', async () => {
  const { stdout } = await run(
    process.execPath,
    ['--input-type=module', '-e', `${ENGINE}\nconsole.log('program done');`],
    {
      cwd: root,
      timeout: 120000,
    },
  );
  assert.match(stdout, /program done/);
});
