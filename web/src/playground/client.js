// The page's side of the training worker (worker.js): starts it from its file beside the page
// (build-scripts/bundle.mjs writes playground-worker.js) or, in the single file, from its code
// inside the file (a blob: URL: file:// has no worker files), hands it the engine, and routes its
// messages by type. The main thread only draws: it never waits for a thread.
//
// The engine (../engine-threads.js): where the page is cross-origin isolated, the
// threaded build, which the worker imports by URL; elsewhere, or if that fails, the
// single-threaded one, whose .wasm bytes it is handed.
import { pageKind } from '../page-kind.js';
import { engineMtUrl, singleThreadReason } from '../engine-threads.js';

export const WORKER_FILE = 'playground-worker.js';

/** An error event's message without the stringified error's prefix ("Uncaught Error: …"). */
const messageOf = (event, fallback) => event.message?.replace(/^Uncaught (?:\w*Error: )?/, '') || fallback;

async function fetchEngine() {
  const response = await fetch(new URL('attention-engine.wasm', location.href));
  if (!response.ok) throw new Error(`attention-engine.wasm: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Resolves with { corpusLimits, threads: { count, reason }, send(type, payload, transfer),
 * on(type, fn), terminate() } once the engine is up. `reason` says why there is one thread
 * ('single-file', 'not-isolated', 'failed': the threaded engine did not start), null otherwise.
 */
export async function startTrainingWorker() {
  const reason = singleThreadReason();
  if (reason === null) {
    try {
      return await startWorker({ engineUrl: engineMtUrl() });
    } catch {
      return startWorker({ failed: true });
    }
  }
  return startWorker({});
}

async function startWorker({ engineUrl, failed = false }) {
  const inside = pageKind.playgroundWorker;
  const bytes = engineUrl ? null : inside ? pageKind.wasmBinary.slice() : await fetchEngine();
  const url = inside
    ? URL.createObjectURL(new Blob([inside], { type: 'text/javascript' }))
    : new URL(WORKER_FILE, location.href);
  const worker = new Worker(url, { name: 'attention-playground' });
  const listeners = new Map();
  const on = (type, fn) => listeners.set(type, fn);
  // The engine's limits of a text to train on (corpus_text.hpp), which the page checks a file's
  // size against before reading it.
  let corpusLimits = null;
  let threads = null;
  await new Promise((resolve, reject) => {
    worker.onerror = (event) => {
      event.preventDefault?.();
      reject(new Error(messageOf(event, 'the training worker did not start')));
    };
    worker.onmessage = ({ data }) => {
      if (data.type === 'ready') {
        corpusLimits = data.corpusLimits;
        threads = { count: data.threads, reason: engineUrl ? null : failed ? 'failed' : singleThreadReason() };
        return resolve();
      }
      if (data.type === 'error') return reject(Object.assign(new Error(data.error.message), data.error));
    };
    if (engineUrl) worker.postMessage({ type: 'init', engineUrl });
    else worker.postMessage({ type: 'init', wasmBinary: bytes }, [bytes.buffer]);
  })
    .catch((error) => {
      worker.terminate();
      throw error;
    })
    .finally(() => inside && URL.revokeObjectURL(url));
  worker.onmessage = ({ data }) => listeners.get(data.type)?.(data);
  worker.onerror = (event) => {
    event.preventDefault?.();
    listeners.get('error')?.({ request: 'worker', error: { message: messageOf(event, 'the training worker failed') } });
  };
  return {
    corpusLimits,
    threads,
    on,
    send: (type, payload = {}, transfer = []) => worker.postMessage({ ...payload, type }, transfer),
    terminate: () => worker.terminate(),
  };
}
