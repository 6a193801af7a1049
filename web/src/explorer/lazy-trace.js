// A trace that copies a step out of WASM memory only when a view first asks for it, and
// keeps that copy. The page draws a handful of steps at a time, so a 2,000-token sentence
// never copies every head's n×n matrices; export reads the rest on demand.

/** Wraps an engine LiveTrace. Call dispose() when a newer trace replaces it. */
export function lazyTrace(live) {
  const cache = new Map();
  return {
    ...live, // the summary fields of a LiveTrace (tokens, sizes, flops) are plain own properties
    isPerHead: (name) => live.info(name).perHead,
    step(name, head = 0) {
      const key = `${name}:${head}`;
      let step = cache.get(key);
      if (!step) {
        step = live.step(name, head);
        cache.set(key, step);
      }
      return step;
    },
    dispose: () => live.dispose(),
  };
}
