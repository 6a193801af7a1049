// The views under the stage, in tab order: the state's allowed `view` values. A leaf, so that
// the state (and the server, the CLI, node tests) reads them without loading the views;
// views/registry.js holds one entry per key, in this order, and refuses to load otherwise.
export const VIEW_KEYS = ['links', 'heatmap', 'matrices', 'softmax'];
