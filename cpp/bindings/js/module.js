// Loads and compiles the WebAssembly module once, then makes instances of it synchronously:
// an engine whose instance failed (a C++ exception, a trap, an abort leave its stack pointer
// and heap in an unknown state) replaces it at once, inside the call that failed.
import createAttentionModule from './attention-engine.mjs';

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

async function wasmBytes({ wasmBinary, wasmUrl }) {
  if (wasmBinary) return wasmBinary;
  const url = new URL(wasmUrl ?? './attention-engine.wasm', import.meta.url);
  if (isNode) {
    // Emscripten 3.1.6 would fetch() a file path under node 20 and fail: read the bytes here.
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`could not load the engine from ${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

/**
 * @param {{ wasmBinary?: ArrayBuffer | Uint8Array, wasmUrl?: string | URL }} [options]
 * @returns {Promise<() => object>} a function that returns a fresh, ready Emscripten module
 */
export async function compileModule(options = {}) {
  const compiled = await WebAssembly.compile(await wasmBytes(options));
  return function instantiate() {
    let failure;
    const module = {
      print: () => {},
      printErr: () => {},
      // Emscripten calls this instead of fetching; receiving the instance synchronously makes
      // the factory finish initialising before it returns.
      instantiateWasm(imports, receive) {
        try {
          const instance = new WebAssembly.Instance(compiled, imports);
          receive(instance, compiled);
          return instance.exports;
        } catch (error) {
          failure = error;
          throw error;
        }
      },
    };
    createAttentionModule(module).catch(() => {}); // failures are reported just below
    if (!module.calledRun) throw failure ?? new Error('the WebAssembly module did not start');
    return module;
  };
}
