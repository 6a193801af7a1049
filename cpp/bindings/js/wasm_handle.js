// The Embind handle behind a JS object of the engine (a live trace, a model or trainer, a
// tokenizer): its calls run inside the engine's failure guard, it is freed once, and once freed
// or orphaned (a trap replaced the WASM instance, engine.js) every call is refused as DISPOSED,
// naming the object and what to do.
import { AttentionError } from './errors.js';

export class WasmHandle {
  #handle;
  #call;
  #onDispose;
  #field;
  #again;
  #gone;

  /**
   * @param handle the Embind handle (owned from now on)
   * @param call runs a function inside the engine's failure guard
   * @param onDispose told once, with the owner, when it is disposed
   * @param field what the owner is, for the error: 'trace', 'model', 'tokenizer'
   * @param again what to do after a restart: 'open the trace again'
   */
  constructor(handle, call, onDispose, field, again) {
    this.#handle = handle;
    this.#call = call;
    this.#onDispose = onDispose;
    this.#field = field;
    this.#again = again;
    this.#gone = `this ${field} was disposed`;
  }

  /** Throws DISPOSED once disposed or orphaned. */
  check() {
    if (!this.#handle) throw new AttentionError('DISPOSED', this.#field, this.#gone);
  }

  /** fn(handle) inside the engine's failure guard; DISPOSED once disposed or orphaned. */
  run(fn) {
    this.check();
    const handle = this.#handle;
    return this.#call(() => fn(handle));
  }

  get disposed() {
    return this.#handle === null;
  }

  /** Frees the WASM memory once, telling onDispose of `owner` first. */
  dispose(owner) {
    if (!this.#handle) return;
    const handle = this.#handle;
    this.#handle = null;
    this.#onDispose(owner);
    this.#call(() => handle.delete());
  }

  /** The engine replaced its WASM instance: the memory went with the old one. */
  orphan() {
    this.#handle = null;
    this.#gone = `the engine was restarted after an internal error; ${this.#again}`;
  }
}
