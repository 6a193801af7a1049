// The page's side of the engine (explorer/engine.js starts it): traces live where the engine
// runs, and the page asks for what its views draw, reduced to what can be seen (see
// reduce.js): whole steps at teaching sizes, at most MAX_SIDE cells a side past that. Views
// read a trace synchronously, from what explorer.js loaded for the current state.
import { AttentionError } from '../../../dist/engine/engine.js';
import { MAX_SIDE } from './reduce.js';
import { linksRequest, rowRequest, spreadRequest, stepRequest } from './requests.js';

/** Asked for data that was not loaded: a render that raced ahead of its data (it is redone). */
export class NotLoaded extends Error {}

function errorOf(data) {
  return data?.code ? new AttentionError(data.code, data.field, data.message) : new Error(data?.message ?? data);
}

const keyOf = (request) => JSON.stringify(request);

export class RemoteEngine {
  #call;
  #next = 1;

  /** transport: { call(type, payload) → Promise, limits, worker } */
  constructor({ call, limits, worker }) {
    this.#call = (type, payload) => call(type, payload).catch((error) => Promise.reject(errorOf(error)));
    this.limits = Object.freeze({ ...limits });
    /** Whether the engine runs in a Web Worker (false: on the page, when no worker could start). */
    this.inWorker = Boolean(worker);
  }

  /**
   * Runs attention where the engine lives, with `requests` (see load()) loaded at once. The
   * trace is returned before the engine answers: it can be disposed at once (messages keep
   * their order), and its `ready` promise resolves with it once its data is there.
   */
  open(options, requests = []) {
    const id = this.#next++;
    return new RemoteTrace(this.#call, id, this.#call('open', { id, options, requests }), requests);
  }

  /** A request to the service's trained models (models/service.js): modelLoad, modelView, … */
  ask(type, payload) {
    return this.#call(type, payload);
  }

  /** Bytes malloc'ed in WASM memory and the size of WASM memory (a promise). */
  heapStats() {
    return this.#call('heapStats');
  }
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

  /** The links of `heads` with weight ≥ min, or the `max` strongest: { total, links }. */
  links(heads, limits) {
    return this.#get(linksRequest(heads, limits));
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
