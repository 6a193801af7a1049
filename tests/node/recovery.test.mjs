// After any failure inside the WebAssembly instance (a C++ exception reaches JS as a bare
// number, a trap as a RuntimeError) the instance may be corrupt: its stack pointer is not
// restored and its heap may leak. The engine then replaces it with a fresh instance of the same
// compiled module, and the caller sees an AttentionError with code INTERNAL, never the raw value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAttentionError, createEngine } from './support.mjs';
import { Engine } from '../../dist/engine/engine.js';
import { compileModule } from '../../dist/engine/module.js';

const options = { tokens: ['我', '爱', '吃', '火锅'], seed: 9 };
const expected = (await createEngine()).run(options).step('output').data;

/** An engine over instances of the real module, each kept in `instances` as it is made. */
async function watchedEngine() {
  const instantiate = await compileModule();
  const instances = [];
  const engine = new Engine(() => {
    const module = instantiate();
    instances.push(module);
    return module;
  });
  return { engine, instances };
}

/** The instance's next run() fails as WASM fails: with `failure` thrown from inside the call. */
function breakRun(module, failure) {
  module.TraceHandle.prototype.run = function () {
    throw failure;
  };
}

test('a bare number or a RuntimeError from WASM becomes INTERNAL, and a fresh instance takes over', async () => {
  const { engine, instances } = await watchedEngine();
  const live = engine.open({ tokens: ['a'] }); // opened before the failure: its instance is dropped
  const failures = [5244000, new WebAssembly.RuntimeError('memory access out of bounds')];
  for (const [i, failure] of failures.entries()) {
    breakRun(instances[i], failure);
    assertAttentionError(() => engine.run(options), {
      code: 'INTERNAL',
      field: 'engine',
      message: new RegExp(`${failure.message ?? failure}.*a fresh instance`),
    });
    assert.equal(instances.length, i + 2, 'a fresh instance was made');
  }
  assert.deepEqual(engine.run(options).step('output').data, expected);
  assertAttentionError(() => live.step('x'), { code: 'DISPOSED', message: /restarted/ });
  live.dispose(); // harmless
  assert.deepEqual(engine.tokenize('我爱'), ['我', '爱']);
});

/**
 * Throws from inside the instance what C++'s `throw std::bad_alloc()` throws there: the pointer to
 * an exception whose header (16 bytes before it) names a std::type_info called "St9bad_alloc".
 */
function throwBadAlloc(module) {
  const name = 'St9bad_alloc';
  const at = module._malloc(64);
  const heap = () => new DataView(module.HEAPU8.buffer);
  const type = at + 16 + 16; // after the header and 16 bytes of exception: vtable, name pointer
  const text = type + 8;
  heap().setUint32(at + 4, type, true);
  heap().setUint32(type + 4, text, true);
  for (let i = 0; i < name.length; i++) module.HEAPU8[text + i] = name.charCodeAt(i);
  module.HEAPU8[text + name.length] = 0;
  throw at + 16;
}

test('memory running out inside WASM is named as such, and a fresh instance takes over', async () => {
  const { engine, instances } = await watchedEngine();
  instances[0].TraceHandle.prototype.run = () => throwBadAlloc(instances[0]);
  assertAttentionError(() => engine.run(options), {
    code: 'INTERNAL',
    field: 'engine',
    message:
      /^the WebAssembly engine ran out of memory \(std::bad_alloc with \d+ MB of WebAssembly memory, of the 2048 MB it can have\) and was replaced by a fresh instance, without the traces, trainers and models the old one held; dispose\(\) what you no longer need/,
  });
  assert.deepEqual(engine.run(options).step('output').data, expected);
});

test('an abort inside WASM says how full memory was (an abort says no reason)', async () => {
  const { engine, instances } = await watchedEngine();
  breakRun(instances[0], new WebAssembly.RuntimeError('Aborted(). Build with -s ASSERTIONS=1 for more info.'));
  assertAttentionError(() => engine.run(options), {
    code: 'INTERNAL',
    field: 'engine',
    message:
      /^the WebAssembly engine aborted \(with \d+ MB of WebAssembly memory, of the 2048 MB it can have\) and was replaced by a fresh instance/,
  });
  assert.deepEqual(engine.run(options).step('output').data, expected);
});
