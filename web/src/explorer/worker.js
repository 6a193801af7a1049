// The engine's Web Worker: the page posts { init: { wasmBinary } } (the single-threaded engine,
// bundled here) or { init: { engineUrl } } (the threaded one, dist/engine-mt, imported by its URL:
// its pthreads import it again, so it cannot be bundled) once, then requests
// { callId, type, ...payload }; each answer is { callId, result } (typed arrays transferred, not
// copied) or { callId, error }. Computing here keeps the page's main thread free.
import { createEngine } from '../../../dist/engine/engine.js';
import { createService, errorData } from './service.js';

let service = null;

self.onmessage = async ({ data }) => {
  if (data.init) {
    try {
      // The bytes come from the page: a worker made from a blob: URL has no base to fetch from.
      const { engineUrl, wasmBinary } = data.init;
      const engine = engineUrl ? await (await import(engineUrl)).createEngine() : await createEngine({ wasmBinary });
      service = createService(engine);
      self.postMessage({ ready: true, limits: service.handle({ type: 'limits' }).result, threads: engine.threads });
    } catch (error) {
      self.postMessage({ ready: false, error: errorData(error) });
    }
    return;
  }
  const { result, transfer, error } = service.handle(data);
  self.postMessage({ callId: data.callId, result, error }, transfer ?? []);
};
