// What the page can ask the engine's worker for (explorer/lazy-trace.js sends them, explorer/reduce.js
// answers): a step as a grid of at most maxSide cells a side, one row, the spread of some steps'
// values, or the links view's strongest weights. Plain data, so views can say what they need;
// it sits below the views and the explorer, which both read it.
import { LIMITS } from './catalog.js';

/** Sides up to this many cells are sent whole; longer ones are averaged in blocks (explorer/reduce.js). */
export const MAX_SIDE = 512;
/** The longest side any matrix of a trace can have (the engine's limits): a request with it reads a matrix whole, never as block means. */
export const WHOLE = Math.max(LIMITS.maxTokens, LIMITS.maxDModel, LIMITS.maxProjectionWidth);

export const stepRequest = (name, head = 0, maxSide = MAX_SIDE) => ({ kind: 'grid', name, head, maxSide });
export const rowRequest = (name, head, i) => ({ kind: 'row', name, head, i });
export const spreadRequest = (names, heads) => ({ kind: 'spread', names, heads });
// name: the weights drawn, softmax's (the default, left out of the request) or linear attention's implied ones.
export const linksRequest = (heads, { min, max }, name = 'weights') => ({
  kind: 'links',
  heads,
  min,
  max,
  ...(name === 'weights' ? {} : { name }),
});
