// The engine's side of the page: it owns the engine and its live traces, and answers the
// requests of explorer/lazy-trace.js (RemoteEngine) with reduced data (explorer/reduce.js). It runs
// in a Web Worker (explorer/worker.js), or on the page when no worker can start (see engine.js).
import { gridOf, linksOf, rowOf, spreadOf } from './reduce.js';
import { modelHandlers } from '../models/service.js';
import { costHandlers } from './cost-service.js';

/** A failure as plain data: it crosses postMessage, and lazy-trace.js (errorOf) turns it back into an error. */
export function errorData(error) {
  return {
    name: error?.name ?? 'Error',
    code: error?.code,
    field: error?.field,
    message: String(error?.message ?? error),
  };
}

/** Every Float32Array/Int32Array buffer in `value` (a result), to transfer instead of copy. */
function buffersOf(value, out = new Set()) {
  if (ArrayBuffer.isView(value)) out.add(value.buffer);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) buffersOf(v, out);
  return out;
}

function summaryOf(live) {
  const info = {};
  for (const name of live.stepNames) info[name] = live.info(name);
  return {
    tokens: live.tokens,
    cross: live.cross,
    attention: live.attention,
    kvTokens: live.kvTokens,
    nQuery: live.nQuery,
    nKey: live.nKey,
    dModel: live.dModel,
    heads: live.heads,
    dK: live.dK,
    projectionWidth: live.projectionWidth,
    parameterCount: live.parameterCount,
    flops: live.flops,
    // How many of the n·m scores the mask's pattern computes (a sparse pattern's are fewer).
    computedScores: live.computedScores,
    computedScoreFraction: live.computedScoreFraction,
    stepNames: live.stepNames,
    info,
  };
}

/** The same step read twice in one request is read once (a head's n×n steps are recomputed). */
function reader(live) {
  const seen = new Map();
  return (name, head = 0) => {
    const key = `${name}:${head}`;
    if (!seen.has(key)) seen.set(key, live.step(name, head));
    return seen.get(key);
  };
}

/** One request of a trace → its result (../requests.js makes the kinds; lazy-trace.js also asks for whole steps). */
function answer(read, request) {
  switch (request.kind) {
    case 'step':
      return read(request.name, request.head);
    case 'grid':
      return gridOf(read(request.name, request.head), request.maxSide);
    case 'row':
      return rowOf(read(request.name, request.head), request.i);
    case 'spread':
      return spreadOf(request.names.map((name) => request.heads.map((h) => read(name, h).data)));
    case 'links':
      return linksOf(
        request.heads.map((h) => read(request.name ?? 'weights', h)),
        request.heads,
        request,
      );
    default:
      throw new Error(`unknown request kind ${JSON.stringify(request.kind)}`);
  }
}

export function createService(engine) {
  const traces = new Map();
  const models = modelHandlers(engine);
  const handlers = {
    ...models,
    limits: () => engine.limits,
    // The page numbers its traces: it can dispose one before this answer reaches it.
    // options.model ({ name, layer, text }): that layer of a loaded model (models/service.js).
    open({ id, options, requests = [] }) {
      const {
        unknown = null,
        cut = 0,
        start = false,
        chips = null,
        ...engineOptions
      } = options.model ? models.modelTraceOptions(options.model) : options;
      const live = engine.open(engineOptions);
      traces.set(id, live);
      try {
        return {
          summary: { ...summaryOf(live), unknown, cut, start, chips },
          results: handlers.load({ id, requests }),
        };
      } catch (error) {
        // A request it cannot answer fails the open: the trace is freed here, the page holds none.
        handlers.dispose({ id });
        throw error;
      }
    },
    dispose({ id }) {
      traces.get(id)?.dispose();
      traces.delete(id);
      return true;
    },
    load({ id, requests }) {
      const live = traces.get(id);
      if (!live) throw new Error('this trace was disposed');
      const read = reader(live);
      return requests.map((request) => answer(read, request));
    },
    heapStats: () => engine.heapStats(),
    // The cost panel's timed runs (cost-panel.js).
    ...costHandlers(engine),
  };
  return {
    /** { type, ...payload } → { result, transfer } or { error } */
    handle(message) {
      try {
        const handler = Object.hasOwn(handlers, message.type) ? handlers[message.type] : null;
        if (!handler) throw new Error(`unknown message ${JSON.stringify(message.type)}`);
        const result = handler(message);
        return { result, transfer: [...buffersOf(result)] };
      } catch (error) {
        return { error: errorData(error) };
      }
    },
  };
}
