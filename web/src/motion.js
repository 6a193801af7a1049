// Animation timing that respects prefers-reduced-motion: when it is set, states change at once.
const query = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)');

export function reducedMotion() {
  return Boolean(query?.matches);
}

let still = 0;

/**
 * Runs draw() with every duration() 0: a keystroke's redraw shows its final state in the frame
 * it is drawn in. Transitions that glide every cell's colour cost more than that frame
 * (docs/benchmarks.md, page-keystroke), and typing is not the moment they teach anything.
 */
export function withoutMotion(draw) {
  still++;
  try {
    return draw();
  } finally {
    still--;
  }
}

/** Whether a keystroke's redraw (withoutMotion) is running: what it may leave to after its frame. */
export function typing() {
  return still > 0;
}

/**
 * Duration in ms, or 0 under reduced motion and inside withoutMotion() (asked first: reading
 * the query's `matches` evaluates it anew, about 0.15 ms a keystroke at 32 tokens).
 */
export function duration(ms) {
  return still > 0 || reducedMotion() ? 0 : ms;
}
