// A model's layer and head as the explorer may ask for them: a leaf, so that the explorer's
// computing part reads it without loading the model panel.

/** `state`'s layer and head within a model of `summary`'s shape (a head it lacks: all of them). */
export function modelBounds(state, summary) {
  return {
    layer: Math.min(state.layer, summary.layers - 1),
    head: state.head !== 'all' && state.head >= summary.heads ? 'all' : state.head,
  };
}
