// What the page must load from the engine to draw a state: the stage's operands, the stage's
// extras, the picked cell's arithmetic and the open view. compute.js loads these (one message),
// then render.js draws synchronously; a view that reads anything else throws NotLoaded (lazy-trace.js).
import { stepAt } from '../steps.js';
import { EXTRAS } from '../views/stage-extras.js';
import { VIEWS } from '../views/registry.js';
import { arithmeticRequests, cellIn } from '../views/arithmetic.js';
import { stepRequest } from '../requests.js';

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
  stepAt(state.step, state).operands(recorder, head, state);
  return requests;
}

/** Every request the stage and `state.view` need, for a trace of the state's model. */
export function requestsFor(trace, state) {
  const head = state.head === 'all' ? 0 : state.head;
  const heads = state.head === 'all' ? range(trace.heads) : [state.head];
  const query = Math.min(state.query, trace.nQuery - 1);
  const requests = stageRequests(trace, state, head);
  const extra = EXTRAS[stepAt(state.step, state).extra];
  if (extra) requests.push(...extra.requests(head, query));
  // The picked cell's arithmetic, where its panel is drawn: under the stage, or in the open view.
  requests.push(...arithmeticRequests(cellIn(state, 'stage') ?? cellIn(state, state.view), trace));
  requests.push(...VIEWS[state.view].requests({ trace, state, head, heads, query }));
  return requests;
}
