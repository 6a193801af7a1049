// Animation timing that respects prefers-reduced-motion: when it is set, states change at once.
const query = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)');

export function reducedMotion() {
  return Boolean(query?.matches);
}

/** Duration in ms, or 0 under reduced motion. */
export function duration(ms) {
  return reducedMotion() ? 0 : ms;
}
