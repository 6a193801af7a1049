// One WebAssembly engine per page, however many explorers it holds.
import { createEngine } from '../../../dist/engine/engine.js';

let shared;

/** The page's engine, loaded on first use. `options` as for createEngine (first call only). */
export function sharedEngine(options) {
  shared ??= createEngine(options);
  return shared;
}
