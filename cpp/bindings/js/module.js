// Loads and compiles the WebAssembly module once, then makes instances of it synchronously:
// an engine whose instance failed (a C++ exception, a trap, an abort leave its stack pointer
// and heap in an unknown state) replaces it at once, inside the call that failed.
//
// The same file serves both builds: dist/engine (one thread) and dist/engine-mt (-pthread). The
// threaded module imports its memory (shared, made by its JS) where the other defines its own; it
// needs SharedArrayBuffer, and starts a pool of workers (the cores less the caller) that run the
// trainer's shards. Its pthreads load attention-engine.mjs by URL: that folder must be served as
// files, never bundled.
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
  const threaded = WebAssembly.Module.imports(compiled).some((i) => i.kind === 'memory');
  const threading = threaded ? await provideThreads() : null;
  const instantiate = function instantiate() {
    let failure;
    const module = {
      print: () => {},
      printErr: () => {},
      ...(threaded && {
        ...threading,
        pthreadPoolSize: Math.max(1, hardwareThreads(threading) - 1),
        mainScriptUrlOrBlob: new URL('./attention-engine.mjs', import.meta.url).href,
      }),
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
  if (!threaded) return instantiate;
  // The first instance's workers load before the engine is handed out, so that its first trainer
  // runs on every core at once (a thread starts only on a loaded worker). An instance made later
  // (after a failure) loads its own in the background: a trainer made meanwhile runs its shards
  // on the calling thread until they are up (parallel.hpp), with the same numbers.
  const first = instantiate();
  await workersLoaded(first);
  let spare = first;
  return function instantiateThreaded() {
    const module = spare ?? instantiate();
    spare = null;
    return module;
  };
}

const hardwareThreads = ({ navigator = globalThis.navigator }) =>
  Math.max(1, Number(navigator?.hardwareConcurrency) || 1);

/** What the module's Worker and navigator are (cpp/bindings/threads_pre.js): node's own, or the page's. */
async function provideThreads() {
  let threading = {};
  if (isNode) {
    // By URL, not by name: a bundler must not pull node's modules into a page's bundle (the
    // threaded build is never bundled; the single-threaded one never comes here).
    const { nodeThreading } = await import(new URL('./node_threads.js', import.meta.url).href);
    threading = nodeThreading();
  }
  // A training step waits for its shards' threads: never on a page's main thread.
  if (typeof window === 'object' && globalThis === window) {
    throw new Error(
      "the threaded engine runs in a Web Worker (or node): on a page's main thread it would wait for its threads",
    );
  }
  if (typeof SharedArrayBuffer !== 'function' || globalThis.crossOriginIsolated === false) {
    throw new Error(
      'the threaded engine needs SharedArrayBuffer: a page served with Cross-Origin-Opener-Policy: ' +
        'same-origin and Cross-Origin-Embedder-Policy: require-corp, or node (use dist/engine elsewhere)',
    );
  }
  return threading;
}

/**
 * Ends the threads of an instance that is dropped (after a failure): in the threaded build its
 * workers would otherwise live on, each holding the instance's whole memory, one set per restart.
 * Nothing is asked of the instance's WASM, which may be the part that failed.
 */
export function releaseModule(module) {
  const threads = module?.PThread;
  if (!threads) return; // the single-threaded build
  for (const worker of [...threads.runningWorkers, ...threads.unusedWorkers]) worker.terminate();
  threads.runningWorkers.length = 0;
  threads.unusedWorkers.length = 0;
}

/**
 * The C++ type of an exception that reached JS as a bare number (Emscripten throws the pointer to
 * it), e.g. "St9bad_alloc", read from the instance's memory without calling into its WASM; or
 * null when `thrown` is not such a pointer. Emscripten 3.1.6's layout: 16 bytes of header before
 * the exception, its std::type_info pointer at header + 4, the type's name pointer at type + 4.
 */
export function cxxExceptionType(module, thrown) {
  try {
    const heap = module?.HEAPU8;
    if (!heap || !Number.isInteger(thrown) || thrown < 16 || thrown + 4 > heap.length) return null;
    const view = new DataView(heap.buffer);
    const type = view.getUint32(thrown - 16 + 4, true);
    if (type === 0 || type + 8 > heap.length) return null;
    const name = view.getUint32(type + 4, true);
    let end = name;
    while (end < heap.length && end - name < 256 && heap[end] !== 0) end++;
    if (end === name || heap[end] !== 0) return null;
    return String.fromCharCode(...heap.subarray(name, end));
  } catch {
    return null;
  }
}

/** Resolves once every worker of the instance's pool has loaded the module (at most 30 s). */
async function workersLoaded(module, timeoutMs = 30000) {
  const began = Date.now();
  while (!module.PThread.unusedWorkers.every((worker) => worker.loaded) && Date.now() - began < timeoutMs) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
