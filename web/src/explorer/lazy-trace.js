// The page's side of the engine (explorer/engine.js starts it): traces live where the engine
// runs, and the page asks for what its views draw, reduced to what can be seen (see
// reduce.js): whole steps at teaching sizes, at most MAX_SIDE cells a side past that. Views
// read a trace synchronously, from what compute.js loaded for the current state.
import { AttentionError, DEFAULTS } from '../../../dist/engine/engine.js';
import { linksRequest, MAX_SIDE, rowRequest, spreadRequest, stepRequest } from '../requests.js';

/** Asked for data that was not loaded: a render that raced ahead of its data (it is redone). */
export class NotLoaded extends Error {}

function errorOf(data) {
  return data?.code ? new AttentionError(data.code, data.field, data.message) : new Error(data?.message ?? data);
}

const keyOf = (request) => JSON.stringify(request);

// A trace costing at most this many multiply-adds is computed on the page's thread: about 2 ms
// of WASM on this project's 2-core machine (64 tokens at d_model 128 is 5.2 M: 2.2 ms, measured
// with every step read), small beside a frame, and no round trip to the worker.
export const PAGE_COST = 4_000_000;
const PAGE_MAX_TOKENS = 128;

/**
 * Whether engine options (not a trained model's layer) are cheap enough for the page's thread:
 * the Q, K, V and output projections (d_model² per token each) and the scores and weighted sum
 * (n × m × d_model each).
 */
export function fitsOnPage(options) {
  if (options.model || !Array.isArray(options.tokens)) return false;
  const n = options.tokens.length;
  const m = options.kvTokens?.length || n;
  const d = Number(options.dModel ?? DEFAULTS.dModel);
  if (!(d > 0)) return false; // the worker's engine says what is wrong with it
  if (Math.max(n, m) > PAGE_MAX_TOKENS) return false;
  return d * d * (2 * n + 2 * m) + 2 * n * m * d <= PAGE_COST;
}

// A trained model is loaded on the page's thread too when one of its layers' traces, at its whole
// context through its last layer, costs at most this many multiply-adds (the model run up to the
// layer, then the explorer's ten steps): 56 M for the shipped models (4 layers since 2026-12-01)
// at 64 tokens, about 7 ms here at the rate measured for the 2-layer ones (30 M, 3.6 ms).
export const MODEL_PAGE_COST = 64_000_000;

/** Whether a trained model (modelLoad's summary) is cheap enough for the page's thread. */
export function modelFitsOnPage({ layers, dModel: d, contextLength: t, config = {} }) {
  const dFF = config.attentionOnly ? 0 : Number(config.dFF) || 4 * d; // 0: the default
  const cost = t * layers * (4 * d * d + 2 * d * dFF) + 4 * t * d * d + 2 * t * t * d;
  return cost > 0 && cost <= MODEL_PAGE_COST;
}

const caller = (call) => (type, payload, transfer) =>
  call(type, payload, transfer).catch((error) => Promise.reject(errorOf(error)));

export class RemoteEngine {
  #call;
  #page = null;
  #next = 1;
  #pageModels = new Map(); // name → true: loaded on the page's thread as in the worker
  #loading = new Map(); // name → the latest load or dispose of it
  #pending = Promise.resolve();

  /**
   * transport: { call(type, payload) → Promise, limits, worker, threads: { count, reason } (the
   * worker's engine: engine.js) }; page: the same service on the page's own thread beside a
   * worker (engine.js), for the traces that fit there, or null.
   */
  constructor({ call, limits, worker, threads }, page = null) {
    this.#call = caller(call);
    if (page) this.#page = caller(page.call);
    this.limits = Object.freeze({ ...limits });
    /** The threads of the engine that computes long traces, and why one (engine-threads.js). */
    this.threads = Object.freeze({ ...threads });
    /** Whether the engine runs in a Web Worker (false: on the page, when no worker could start). */
    this.inWorker = Boolean(worker);
  }

  /**
   * Runs attention where the engine lives, with `requests` (see load()) loaded at once: on the
   * page's thread when it fits there (its answer comes in a microtask, so the caller draws in the
   * same task), else in the worker. The trace is returned before the engine answers: it can be
   * disposed at once (messages keep their order), and its `ready` promise resolves with it once
   * its data is there.
   */
  open(options, requests = []) {
    const id = this.#next++;
    const onPage =
      Boolean(this.#page) && (options.model ? this.#pageModels.has(options.model.name) : fitsOnPage(options));
    const call = onPage ? this.#page : this.#call;
    const trace = new RemoteTrace(call, id, call('open', { id, options, requests }), requests);
    /** Whether this trace lives on the page's thread (beside a worker). */
    trace.onPage = onPage;
    return trace;
  }

  /**
   * A request to the service's trained models (models/service.js): modelLoad, modelView, … A
   * model loaded in the worker is loaded on the page's thread too, once the page is idle, if it
   * fits there (modelFitsOnPage): the explorer's trace of one of its layers is then computed and
   * drawn in the keystroke's own task, as a small trace of random weights is, while the model
   * panel's view of the same keystroke runs in the worker (a round trip and a second frame
   * were about 15 ms of every keystroke with the English prose model).
   */
  ask(type, payload) {
    const answer =
      type === 'modelLoad' && payload.checkpoint ? this.#loadCheckpoint(payload) : this.#call(type, payload);
    if (this.#page && (type === 'modelLoad' || type === 'modelDispose')) {
      const done = this.#mirror(type, payload, answer).catch(() => {}); // a page that cannot load it keeps it in the worker
      this.#pending = Promise.all([this.#pending, done]);
    }
    return answer;
  }

  /**
   * modelLoad of a checkpoint: its bytes (GPT-2 small's are 548 MB) are moved to the worker and
   * handed back with the answer (models/service.js), never copied: a copy in each thread, and the
   * structured clone's own in between, made the page's peak three times the file. Once back, the
   * payload holds them again, for the page's own load (#mirror).
   */
  async #loadCheckpoint(payload) {
    const { checkpoint } = payload;
    const answer = await this.#call('modelLoad', payload, [checkpoint.safetensors.buffer]).catch((error) => {
      // A refused file comes back with the error only: the payload's bytes are gone.
      checkpoint.safetensors = null;
      throw error;
    });
    const { safetensors, ...summary } = answer;
    if (safetensors) checkpoint.safetensors = safetensors;
    return summary;
  }

  /** Does on the page's thread what the worker did with `answer` (ask's modelLoad or modelDispose). */
  async #mirror(type, payload, answer) {
    const { name } = payload;
    // The page's copy may be the worker's model no more: it answers no trace until loaded again.
    const had = this.#pageModels.delete(name);
    const mine = {};
    this.#loading.set(name, mine);
    const current = () => this.#loading.get(name) === mine;
    let summary;
    try {
      summary = await answer;
    } catch {
      // A file the worker refused changed nothing there, nor on the page (loaded after the worker only).
      if (had && current() && type === 'modelLoad') this.#pageModels.set(name, true);
      return;
    }
    if (type === 'modelDispose' || !modelFitsOnPage(summary)) {
      await this.#page('modelDispose', payload);
      return;
    }
    await whenIdle();
    if (!current()) return;
    await this.#page('modelLoad', payload);
    if (current()) this.#pageModels.set(name, true);
  }

  /** Resolves once the trained models asked for so far are loaded on the page's thread (tests, benchmarks). */
  async modelsOnPage() {
    await this.#pending;
    return [...this.#pageModels.keys()];
  }

  /**
   * Bytes malloc'ed in WASM memory and the size of WASM memory (a promise), summed over the
   * worker's instance and the page's: { inUse, memory, worker, page } (page: null without one).
   */
  async heapStats() {
    const [worker, page] = await Promise.all([this.#call('heapStats'), this.#page?.('heapStats') ?? null]);
    if (!page) return { ...worker, worker, page: null };
    return { inUse: worker.inUse + page.inUse, memory: worker.memory + page.memory, worker, page };
  }
}

/** Resolves when the page is idle (or in a second at most): loading a model takes its thread ~45 ms (traced). */
function whenIdle() {
  return new Promise((resolve) =>
    typeof requestIdleCallback === 'function' ? requestIdleCallback(resolve, { timeout: 1000 }) : setTimeout(resolve),
  );
}

export class RemoteTrace {
  #call;
  #id;
  #info;
  #cache = new Map();

  constructor(call, id, opened, requests) {
    this.#call = call;
    this.#id = id;
    /** Resolves with this trace once the engine has run it (rejects with its error). */
    this.ready = opened.then(({ summary: { info, ...summary }, results }) => {
      this.#info = info;
      Object.assign(this, summary); // tokens, kvTokens, nQuery, nKey, dModel, heads, dK, flops, …
      if (this.#id !== null) requests.forEach((r, n) => this.#cache.set(keyOf(r), results[n]));
      return this;
    });
  }

  isPerHead(name) {
    return this.#info[name].perHead;
  }

  /** Fetches the requests not cached yet, in one message. */
  async load(requests) {
    const missing = [...new Map(requests.map((r) => [keyOf(r), r])).entries()].filter(([k]) => !this.#cache.has(k));
    if (!missing.length || this.#id === null) return;
    const results = await this.#call('load', { id: this.#id, requests: missing.map(([, r]) => r) });
    missing.forEach(([k], n) => this.#cache.set(k, results[n]));
  }

  #get(request) {
    const value = this.#cache.get(keyOf(request));
    if (value === undefined) throw new NotLoaded(`not loaded: ${keyOf(request)}`);
    return value;
  }

  /** A step as drawn: whole up to `maxSide` a side, else block means with `pooled` sizes. */
  step(name, head = 0, maxSide = MAX_SIDE) {
    return this.#get(stepRequest(name, head, maxSide));
  }

  /** Row i of a step (Float32Array). */
  row(name, head, i) {
    return this.#get(rowRequest(name, head, i));
  }

  /** Histograms of `names` over `heads`: { domain, sets: [{ bins, sd }] } (reduce.js spreadOf). */
  spread(names, heads) {
    return this.#get(spreadRequest(names, heads));
  }

  /** The links of `heads` with weight ≥ min, or the `max` strongest: { total, links } (of the weights `name`). */
  links(heads, limits, name = 'weights') {
    return this.#get(linksRequest(heads, limits, name));
  }

  /** Every step whole (for export): an object with the trace's fields and step(name, head). */
  async complete() {
    const requests = [];
    for (const name of this.stepNames) {
      const heads = this.isPerHead(name) ? this.heads : 1;
      for (let h = 0; h < heads; h++) requests.push({ kind: 'step', name, head: h });
    }
    const results = await this.#call('load', { id: this.#id, requests });
    const steps = new Map(requests.map((r, k) => [`${r.name}:${r.head}`, results[k]]));
    return {
      ...this,
      isPerHead: (name) => this.isPerHead(name),
      step: (name, head = 0) => steps.get(`${name}:${head}`),
    };
  }

  get disposed() {
    return this.#id === null;
  }

  dispose() {
    if (this.#id === null) return;
    this.#call('dispose', { id: this.#id }).catch(() => {});
    this.#id = null;
    this.#cache.clear();
  }
}
