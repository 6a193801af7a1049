// A page's state in one place: get, set a patch, and listeners told which fields changed
// (the explorer's store in state.js and the playground's are both this).

/** @param constrain (next state) → the state kept, e.g. fields that depend on others fixed up */
export function createStore(initial, constrain = (state) => state) {
  let state = initial;
  const listeners = new Set();
  return {
    get: () => state,
    set(patch) {
      const next = constrain({ ...state, ...patch });
      const changed = Object.keys(next).filter((k) => next[k] !== state[k]);
      if (!changed.length) return;
      state = next;
      for (const listener of listeners) listener(state, new Set(changed));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
