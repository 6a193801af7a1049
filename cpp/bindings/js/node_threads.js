// Node's side of the threaded engine (dist/engine-mt): Emscripten 3.1.6 builds it for the web
// (ENVIRONMENT=web,worker: its node code needs require and __dirname, which an ES module lacks),
// so its pthreads ask for Web Workers. Under node they get worker_threads dressed as Web
// Workers: the pthread's script (attention-engine.worker.js, a classic script) runs with `self`,
// `postMessage`, `onmessage` and `location` as in a browser, and imports the module by its URL.
// Each worker is unref'd: the engine's idle threads never keep node running. Nothing here is set
// on node's globals: module.js hands both to the module (cpp/bindings/threads_pre.js), so that a
// library that sets globalThis.Worker itself (onnxruntime-web does) neither breaks the engine
// nor is broken by it.
import { availableParallelism } from 'node:os';
import { Worker as NodeWorker } from 'node:worker_threads';

// Runs inside each worker thread. Node evaluates it as CommonJS, or as an ES module when the
// program was started with --input-type=module (node -e, or a script on stdin) or
// --experimental-default-type=module, flags a worker inherits: so it uses neither `require` nor a
// static import, only import(), which both have. Messages that arrive meanwhile wait in the port.
const BOOT = `
(async () => {
  const { parentPort, workerData } = await import('node:worker_threads');
  const { readFileSync } = await import('node:fs');
  const { fileURLToPath } = await import('node:url');
  globalThis.self = globalThis;
  globalThis.location = { href: workerData.url };
  globalThis.navigator ??= { hardwareConcurrency: workerData.cores };
  globalThis.postMessage = (message, transfer) => parentPort.postMessage(message, transfer);
  // Emscripten tells a worker by this function; the module is imported, never loaded with it.
  globalThis.importScripts = () => {
    throw new Error('importScripts is not available under node');
  };
  parentPort.on('message', (data) => globalThis.onmessage({ data }));
  (0, eval)(readFileSync(fileURLToPath(workerData.url), 'utf8'));
})();
`;

class WebWorker {
  #thread;

  constructor(url) {
    this.onmessage = null;
    this.onerror = null;
    this.#thread = new NodeWorker(BOOT, { eval: true, workerData: { url: String(url), cores: cores() } });
    this.#thread.on('message', (data) => this.onmessage?.({ data }));
    // A browser reports an error thrown by a Worker's onerror handler and goes on; node would
    // end the process. Emscripten's handler rethrows a thread's crash (an abort for memory, say):
    // the engine learns of it from the call that waited for the thread, and replaces the instance.
    this.#thread.on('error', (error) => {
      try {
        this.onerror?.(error);
      } catch {
        // reported by the call that failed
      }
    });
    this.#thread.unref(); // after the listeners: adding one refs the worker again
  }

  postMessage(message, transfer) {
    this.#thread.postMessage(message, transfer);
  }

  terminate() {
    this.#thread.terminate();
  }
}

const cores = () => availableParallelism();

/** What the threaded module expects of a browser, for its Module object: Worker and navigator.hardwareConcurrency. */
export function nodeThreading() {
  return { Worker: WebWorker, navigator: { hardwareConcurrency: cores() } };
}
