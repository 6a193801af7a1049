// One engine per page, however many explorers it holds, in a Web Worker: a 2,048-token trace
// computes there while the page stays responsive. The worker's code is also bundled into this
// script, so that the single file on file:// and the web component on any page can start it
// from a blob: URL. A second instance of the same service runs on the page's own thread for
// small traces (lazy-trace.js fitsOnPage): a keystroke's trace then computes, and draws, in the
// keystroke's own task, without a round trip to the worker. Where no worker can
// start (a host page's CSP forbids it), the page's instance answers everything.
//
// Where the page is cross-origin isolated, the worker runs the threaded engine (dist/engine-mt,
// ../engine-threads.js, as the playground's does): a long trace's heads run on every core. The
// page's own instance, for small traces, is always the single-threaded engine.
import workerSource from 'virtual:engine-worker';
import { createEngine } from '../../../dist/engine/engine.js';
import { engineMtUrl, singleThreadReason } from '../engine-threads.js';
import { createService } from './service.js';
import { RemoteEngine } from './lazy-trace.js';

/** The worker as a file of the site (build-scripts/bundle.mjs writes it beside the app). */
export const WORKER_FILE = 'attention-engine-worker.js';

let shared;

async function wasmBytes(options) {
  if (options?.wasmBinary) return options.wasmBinary;
  const response = await fetch(new URL('./attention-engine.wasm', import.meta.url));
  if (!response.ok) throw new Error(`attention-engine.wasm: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Starts a worker (`make()` → [worker, cleanup]) on the engine `init` names ({ wasmBinary }: the
 * single-threaded one, or { engineUrl }: the threaded one); resolves with { call, limits, threads,
 * worker } once its engine is ready, rejects if it cannot start (a CSP, a file:// page, a missing
 * file).
 */
function startWorker(make, init) {
  return new Promise((resolve, reject) => {
    let worker;
    let cleanup;
    try {
      [worker, cleanup] = make();
    } catch (error) {
      reject(error);
      return;
    }
    const pending = new Map();
    let next = 1;
    worker.onerror = (event) => {
      event.preventDefault?.();
      cleanup();
      worker.terminate();
      reject(new Error(event.message || 'the engine worker did not start'));
    };
    worker.onmessage = ({ data }) => {
      if ('ready' in data) {
        cleanup();
        if (!data.ready) return reject(Object.assign(new Error(data.error.message), data.error));
        // `transfer`: buffers of the payload moved to the worker, not copied (a checkpoint's bytes).
        const call = (type, payload = {}, transfer = []) =>
          new Promise((done, fail) => {
            const id = next++;
            pending.set(id, { done, fail });
            worker.postMessage({ ...payload, type, callId: id }, transfer);
          });
        return resolve({ call, limits: data.limits, threads: data.threads, worker });
      }
      const request = pending.get(data.callId);
      pending.delete(data.callId);
      if (data.error) request.fail(data.error);
      else request.done(data.result);
    };
    if (init.engineUrl) return worker.postMessage({ init });
    // A copy: the bytes stay usable for the next way to start if this one fails.
    const copy = init.wasmBinary.slice();
    worker.postMessage({ init: { wasmBinary: copy } }, [copy.buffer]);
  });
}

/**
 * The ways to start the worker, in order: the site's own file beside this script (same
 * origin, the site's CSP), then the same code from a blob: URL (the single file on file://,
 * the web component loaded from another origin).
 */
function workerFactories(options) {
  const name = 'attention-engine';
  const fromFile = () => [new Worker(new URL(`./${WORKER_FILE}`, import.meta.url), { name }), () => {}];
  const fromBlob = () => {
    const url = URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' }));
    return [new Worker(url, { name }), () => URL.revokeObjectURL(url)];
  };
  // The single file brings its own bytes and has no file beside it.
  return options?.wasmBinary ? [fromBlob] : [fromFile, fromBlob];
}

/** The same service on the page's own thread (answers are promises too). */
async function startInPage(bytes) {
  const service = createService(await createEngine({ wasmBinary: bytes }));
  const call = async (type, payload = {}) => {
    const { result, error } = service.handle({ type, ...payload });
    if (error) throw error;
    return result;
  };
  return { call, limits: await call('limits'), threads: 1, worker: null };
}

async function start(options) {
  const bytes = await wasmBytes(options);
  // Compiled while the worker starts; a page whose own instance cannot start still has the worker.
  const inPage = startInPage(bytes).catch((error) => {
    console.info(`Attention Explorer: no engine on the page (${error.message})`);
    return null;
  });
  // Why the worker runs one thread (engine-threads.js), or null: it may run the threaded engine.
  let reason = singleThreadReason() ?? (options?.threads ? null : 'component');
  if (reason === null) {
    try {
      const transport = await startWorker(workerFactories(options)[0], { engineUrl: engineMtUrl() });
      return new RemoteEngine({ ...transport, threads: { count: transport.threads, reason } }, await inPage);
    } catch (error) {
      console.info(`Attention Explorer: no threaded engine (${error.message})`);
      reason = 'failed';
    }
  }
  const threads = { count: 1, reason };
  for (const make of workerFactories(options)) {
    try {
      return new RemoteEngine({ ...(await startWorker(make, { wasmBinary: bytes })), threads }, await inPage);
    } catch (error) {
      console.info(`Attention Explorer: no engine worker this way (${error.message})`);
    }
  }
  const page = await inPage;
  if (!page) throw new Error('the engine started neither in a worker nor on the page');
  return new RemoteEngine({ ...page, threads });
}

/**
 * The page's engine, loaded on first use. `options` count on the first call only: { wasmBinary }
 * (the single file's bytes), { threads: true } (the site's pages: the threaded engine where the
 * page is isolated; the web component asks for none).
 */
export function sharedEngine(options) {
  shared ??= start(options);
  return shared;
}
