// The training contenders, each behind the same calls:
//   const c = await contender.prepare(spec, reference)
//   c.firstLoss, c.losses (the first CHECK_STEPS training losses), await c.time() → samples
//   (the timing starts after those steps)
// spec: a model configuration (bench/train/run.mjs); reference: what the engine in WASM SIMD
// gave (its initial weights, layout and batches), so every contender starts from the same
// weights and trains on the same batches.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { benchModule, root, tf } from '../contenders.mjs';
import { timeSamples } from '../timing.mjs';
import { tfjsTrainer } from './tfjs-model.mjs';

export const CHECK_STEPS = 3; // training steps compared with the engine before timing
const PROTOCOL = { warmup: 1, minSamples: 7, minSeconds: 2 };
const POOL = 4; // the engine's batch pool (bench/cpp/train_case.cpp), cycled step by step

/** "key=value …" for bench/cpp/train_case.hpp's ParseTrainSpec. */
export function specText(spec) {
  const keys = ['vocab', 'layers', 'dModel', 'heads', 'dK', 'dFF', 'context', 'batch', 'scale', 'initStd'];
  return keys
    .filter((k) => spec[k] !== undefined)
    .map((k) => `${k}=${typeof spec[k] === 'boolean' ? Number(spec[k]) : spec[k]}`)
    .join(' ');
}

function engineHandle(module, spec) {
  const handle = new module.Train(specText(spec));
  const error = handle.error();
  if (error) {
    handle.delete();
    throw new Error(`engine: ${error}`);
  }
  return handle;
}

function engineStep(handle) {
  const error = handle.step(1);
  if (error) throw new Error(`engine: ${error}`);
  return handle.loss();
}

/** The engine's starting point, from the WASM SIMD build: every other contender's too. */
export async function engineReference(spec) {
  const module = await benchModule('simd');
  const handle = engineHandle(module, spec);
  try {
    const batches = [];
    for (let i = 0; i < POOL; i++) batches.push({ tokens: handle.batch(i, false), targets: handle.batch(i, true) });
    return {
      weights: handle.parameters(),
      layout: JSON.parse(handle.layout()),
      memory: JSON.parse(handle.memory()),
      tokensPerStep: handle.tokensPerStep(),
      batches,
    };
  } finally {
    handle.delete();
  }
}

export function engineWasm(variant) {
  return {
    name: `engine WASM ${variant === 'simd' ? 'SIMD' : 'no SIMD'}`,
    async prepare(spec) {
      const module = await benchModule(variant);
      const handle = engineHandle(module, spec);
      const firstLoss = handle.firstLoss();
      const losses = [];
      for (let i = 0; i < CHECK_STEPS; i++) losses.push(engineStep(handle));
      return {
        firstLoss,
        losses,
        memory: JSON.parse(handle.memory()),
        time: () => timeSamples(() => engineStep(handle), PROTOCOL),
        dispose: () => handle.delete(),
      };
    },
  };
}

export const native = {
  name: 'engine native',
  async prepare(spec) {
    const program = path.join(root, 'build/bench-native/bench/train_native');
    const text = specText(spec);
    const log = execFileSync(program, ['log', text, String(CHECK_STEPS)], { encoding: 'utf8' });
    const losses = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((l) => l.loss !== undefined)
      .map((l) => l.loss);
    // The first step's loss is the loss of the initial weights on batch 0.
    return {
      firstLoss: losses[0],
      losses,
      time: async () => JSON.parse(execFileSync(program, ['time', text], { encoding: 'utf8' })).timing,
      dispose() {},
    };
  },
};

let cpuRegistered = false;
async function tfWith(backend) {
  const t = await tf(); // registers and initialises the wasm backend
  await import(path.join(root, 'build/bench-train/tfjs-gradients.mjs')); // bench/build.sh
  if (backend === 'cpu' && !cpuRegistered) {
    await import('@tensorflow/tfjs-backend-cpu');
    cpuRegistered = true;
  }
  await t.setBackend(backend);
  await t.ready();
  return t;
}

/** TensorFlow.js on `backend` ('wasm' or 'cpu'), the model written `variant`-style. */
export function tfjs(backend, variant) {
  return {
    name: `tfjs-backend-${backend}${variant === 'plain' ? ' (as written)' : ' (best)'}`,
    backend,
    variant,
    async prepare(spec, reference) {
      const t = await tfWith(backend);
      const trainer = tfjsTrainer(t, {
        config: { ...spec, dK: spec.dK || spec.dModel / spec.heads },
        layout: reference.layout.tensors,
        weights: reference.weights,
        variant,
      });
      const { batches } = reference;
      let next = 0;
      const step = () => {
        const b = batches[next++ % batches.length];
        return trainer.step(b.tokens, b.targets);
      };
      const firstLoss = trainer.evaluate(batches[0].tokens, batches[0].targets);
      const losses = [];
      for (let i = 0; i < CHECK_STEPS; i++) losses.push(step());
      const slow = backend === 'cpu';
      return {
        firstLoss,
        losses,
        time: () => timeSamples(step, slow ? { ...PROTOCOL, minSamples: 3, minSeconds: 0 } : PROTOCOL),
        dispose: () => trainer.dispose(),
      };
    },
  };
}
