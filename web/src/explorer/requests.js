// What the page can ask the engine's worker for (lazy-trace.js sends them, reduce.js answers):
// a step as a grid of at most maxSide cells a side, one row, the spread of some steps'
// values, or the links view's strongest weights. Plain data, so views can say what they need.
import { MAX_SIDE } from './reduce.js';

export const stepRequest = (name, head = 0, maxSide = MAX_SIDE) => ({ kind: 'grid', name, head, maxSide });
export const rowRequest = (name, head, i) => ({ kind: 'row', name, head, i });
export const spreadRequest = (names, heads) => ({ kind: 'spread', names, heads });
export const linksRequest = (heads, { min, max }) => ({ kind: 'links', heads, min, max });
