// The contenders, each behind the same two calls:
//   const c = await contender.forward(work)   work: { n, d, heads, x, wQ, wK, wV, wO }
//   c.output (Float32Array [n × d], from a first run), await c.time() → samples (ms per run)
// and the same for gemm(work) with work: { m, k, n, a, b } (c = a · b, b the "weight").
// Weights are handed over once, as a model's weights are loaded once; every timed run starts
// from X and ends with the output in a JS Float32Array.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { timeSamples } from './timing.mjs';
import { fusedAttentionModel, matMulModel, plainAttentionModel } from './peers/onnx-model.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---- the engine in WebAssembly (bench/cpp/wasm_bench.cpp: the engine library as shipped) ----

const modules = new Map();

/** The benchmark module of a build variant ('simd' or 'nosimd'); `fresh` for a new instance. */
export async function benchModule(variant, { fresh = false } = {}) {
  if (!fresh && modules.has(variant)) return modules.get(variant);
  const dir = path.join(root, `build/bench-wasm-${variant}/bench`);
  const { default: create } = await import(path.join(dir, 'bench-engine.mjs'));
  const module = await create({ wasmBinary: readFileSync(path.join(dir, 'bench-engine.wasm')) });
  if (!fresh) modules.set(variant, module);
  return module;
}

function engineRun(forward) {
  const output = forward.run();
  if (typeof output === 'string') throw new Error(`engine: ${output}`);
  return output;
}

export function engineWasm(variant) {
  return {
    name: `engine WASM ${variant === 'simd' ? 'SIMD' : 'no SIMD'}`,
    async forward(work) {
      const module = await benchModule(variant);
      const forward = new module.Forward(work.n, work.d, work.heads);
      for (const name of ['x', 'wQ', 'wK', 'wV', 'wO']) forward.setMatrix(name, work[name]);
      return {
        output: engineRun(forward),
        time: () => timeSamples(() => engineRun(forward)),
        dispose: () => forward.delete(),
      };
    },
    async gemm(work) {
      const module = await benchModule(variant);
      const gemm = new module.Gemm(work.m, work.k, work.n);
      gemm.setA(work.a);
      gemm.setB(work.b);
      gemm.run(1);
      return { output: gemm.result(), time: () => timeSamples(() => gemm.run(1)), dispose: () => gemm.delete() };
    },
  };
}

// ---- the same engine built natively (g++ -O3 -march=native), timed by itself ----

function nativeCall(mode, sizes, inputs) {
  const dir = path.join(root, 'build/bench-native/data');
  mkdirSync(dir, { recursive: true });
  const input = path.join(dir, `${mode}-in.f32`);
  const output = path.join(dir, `${mode}-out.f32`);
  const total = inputs.reduce((sum, a) => sum + a.length, 0);
  const all = new Float32Array(total);
  let offset = 0;
  for (const a of inputs) {
    all.set(a, offset);
    offset += a.length;
  }
  writeFileSync(input, all);
  const program = path.join(root, 'build/bench-native/bench/bench_native');
  const stdout = execFileSync(program, [mode, ...sizes.map(String), input, output], { encoding: 'utf8' });
  const bytes = readFileSync(output);
  return {
    output: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4).slice(),
    timing: JSON.parse(stdout),
  };
}

export const native = {
  name: 'engine native',
  async forward(work) {
    const { output, timing } = nativeCall(
      'forward',
      [work.n, work.d, work.heads],
      [work.x, work.wQ, work.wK, work.wV, work.wO],
    );
    return { output, time: async () => timing, dispose() {} };
  },
  async gemm(work) {
    const { output, timing } = nativeCall('gemm', [work.m, work.k, work.n], [work.a, work.b]);
    return { output, time: async () => timing, dispose() {} };
  },
};

// ---- onnxruntime-web, WASM backend (SIMD), one thread ----

let ortModule;
async function ort() {
  if (!ortModule) {
    ortModule = await import('onnxruntime-web');
    ortModule.env.wasm.numThreads = 1;
    ortModule.env.wasm.simd = true;
  }
  return ortModule;
}

async function ortSession(model, inputName, input, dims) {
  const o = await ort();
  const session = await o.InferenceSession.create(model, {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'all',
  });
  const feeds = { [inputName]: new o.Tensor('float32', input, dims) };
  const outputName = session.outputNames[0];
  const run = async () => (await session.run(feeds))[outputName].data;
  return { output: await run(), time: () => timeSamples(run), dispose: () => session.release() };
}

export function onnxruntime(kind) {
  return {
    name: kind === 'fused' ? 'onnxruntime-web (MultiHeadAttention)' : 'onnxruntime-web',
    async forward(work) {
      if (kind === 'fused') return ortSession(fusedAttentionModel(work), 'x', work.x, [1, work.n, work.d]);
      return ortSession(plainAttentionModel(work), 'x', work.x, [work.n, work.d]);
    },
    async gemm(work) {
      return ortSession(matMulModel(work), 'a', work.a, [work.m, work.k]);
    },
  };
}

// ---- @tensorflow/tfjs-backend-wasm (XNNPACK), one thread ----

let tfModule;
/** tfjs-core with tfjs-backend-wasm set up for one thread (also used by bench/train/). */
export async function tf() {
  if (!tfModule) {
    const core = await import('@tensorflow/tfjs-core');
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    core.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false); // one thread
    wasm.setWasmPaths(path.join(root, 'node_modules/@tensorflow/tfjs-backend-wasm/dist') + '/');
    await core.setBackend('wasm');
    await core.ready();
    tfModule = core;
  }
  return tfModule;
}

export const tfjs = {
  name: 'tfjs-backend-wasm',
  async forward({ n, d, heads, x, wQ, wK, wV, wO }) {
    const t = await tf();
    const dK = d / heads;
    const [X, WQ, WK, WV, WO] = [
      [x, n],
      [wQ, d],
      [wK, d],
      [wV, d],
      [wO, d],
    ].map(([data, rows]) => t.tensor2d(data, [rows, d]));
    // Per-head 2-D matMuls with an explicit Kᵀ: tfjs-wasm's fast path (batched 3-D matMul and
    // transposeB fall to about 1 GFLOP/s here, toolchain.md).
    const forward = () =>
      t.tidy(() => {
        const q = t.matMul(X, WQ);
        const k = t.matMul(X, WK);
        const v = t.matMul(X, WV);
        const outputs = [];
        for (let h = 0; h < heads; h++) {
          const qh = t.slice(q, [0, h * dK], [n, dK]);
          const khT = t.transpose(t.slice(k, [0, h * dK], [n, dK]));
          const vh = t.slice(v, [0, h * dK], [n, dK]);
          const weights = t.softmax(t.mul(t.matMul(qh, khT), 1 / Math.sqrt(dK)));
          outputs.push(t.matMul(weights, vh));
        }
        return t.matMul(t.concat(outputs, 1), WO);
      });
    const run = () => {
      const out = forward();
      const data = out.dataSync();
      out.dispose();
      return data;
    };
    return { output: run(), time: () => timeSamples(run), dispose: () => t.dispose([X, WQ, WK, WV, WO]) };
  },
  async gemm({ m, k, n, a, b }) {
    const t = await tf();
    const A = t.tensor2d(a, [m, k]);
    const B = t.tensor2d(b, [k, n]);
    const run = () => {
      const c = t.matMul(A, B);
      const data = c.dataSync();
      c.dispose();
      return data;
    };
    return { output: run(), time: () => timeSamples(run), dispose: () => t.dispose([A, B]) };
  },
};
