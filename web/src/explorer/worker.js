// The engine's Web Worker: the page posts { init: { wasmBinary } } once, then requests
// { callId, type, ...payload }; each answer is { callId, result } (typed arrays transferred, not
// copied) or { callId, error }. Computing here keeps the page's main thread free.
import { createEngine } from '../../../dist/engine/engine.js';
import { createService, errorData } from './service.js';

let service = null;

self.onmessage = async ({ data }) => {
  if (data.init) {
    try {
      // The bytes come from the page: a worker made from a blob: URL has no base to fetch from.
      service = createService(await createEngine({ wasmBinary: data.init.wasmBinary }));
      self.postMessage({ ready: true, limits: service.handle({ type: 'limits' }).result });
    } catch (error) {
      self.postMessage({ ready: false, error: errorData(error) });
    }
    return;
  }
  const { result, transfer, error } = service.handle(data);
  self.postMessage({ callId: data.callId, result, error }, transfer ?? []);
};
