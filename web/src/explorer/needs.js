// What the page must load from the engine to draw a state: the stage's operands, the stage's
// extras and the open view. explorer.js loads these (one message) and then draws
// synchronously; a view that reads anything else throws NotLoaded (lazy-trace.js).
import { STEPS } from '../steps.js';
import { heatmapSide, heatmapStepFor } from '../views/heatmap.js';
import { LINK_LIMITS } from '../views/links.js';
import { arithmeticRequests } from '../views/arithmetic.js';
import { linksRequest, rowRequest, spreadRequest, stepRequest } from './lazy-trace.js';

/** The matrices view: every matrix of the computation, in order (name, title). */
const MATRICES = [
  ['x', 'X'],
  ['pe', 'PE'],
  ['xPe', "X'"],
  ['wQ', 'W_Q'],
  ['wK', 'W_K'],
  ['wV', 'W_V'],
  ['q', 'Q'],
  ['k', 'K'],
  ['v', 'V'],
  ['headOutput', 'head'],
  ['concat', 'Concat'],
  ['wO', 'W_O'],
  ['output', 'O'],
];

// Cross-attention's second sentence, embedded the same way (after X').
const KV_MATRICES = [
  ['xKv', 'X_kv'],
  ['peKv', 'PE_kv'],
  ['xPeKv', "X'_kv"],
];

/** The matrices view's matrices for this trace: with the second sentence's in cross-attention. */
export function matricesOf(trace) {
  if (!trace.cross) return MATRICES;
  const at = MATRICES.findIndex(([name]) => name === 'xPe') + 1;
  return [...MATRICES.slice(0, at), ...KV_MATRICES, ...MATRICES.slice(at)];
}

const range = (n) => Array.from({ length: n }, (_, k) => k);

/** The steps a step's operands read, found by running them on a recorder. */
function stageRequests(trace, state, head) {
  const requests = [];
  const recorder = {
    ...trace,
    step(name, h = 0) {
      requests.push(stepRequest(name, h));
      return { name, head: h, rows: 0, cols: 0, data: new Float32Array(0), rowLabels: [], colLabels: [] };
    },
  };
  STEPS[state.step - 1].operands(recorder, head, state);
  return requests;
}

/** Every request the stage and `state.view` need, for a trace of the state's model. */
export function requestsFor(trace, state) {
  const head = state.head === 'all' ? 0 : state.head;
  const heads = state.head === 'all' ? range(trace.heads) : [state.head];
  const query = Math.min(state.query, trace.nQuery - 1);
  const requests = stageRequests(trace, state, head);
  if (state.step === 5) requests.push(spreadRequest(['scores', 'scaled'], [head]));
  if (state.step === 7) requests.push(rowRequest('weights', head, query));
  requests.push(...arithmeticRequests(state.cell, trace));
  if (state.view === 'links') requests.push(linksRequest(heads, LINK_LIMITS));
  else if (state.view === 'heatmap') {
    requests.push(stepRequest('mask'));
    for (const h of heads) requests.push(stepRequest(heatmapStepFor(state.step), h, heatmapSide(heads.length)));
  } else if (state.view === 'matrices') {
    for (const [name] of matricesOf(trace)) requests.push(stepRequest(name, name === 'headOutput' ? head : 0));
  } else {
    for (const name of ['scores', 'masked', 'weights']) requests.push(rowRequest(name, head, query));
    requests.push(spreadRequest(['scores', 'scaled'], range(trace.heads)));
  }
  return requests;
}
