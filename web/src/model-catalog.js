// The models the page can show: random weights (the ten-step explorer as it always
// was), the two models trained in this repository (models/*.model, docs/models.md), and a model
// file the user opens. No imports: state.js reads this in node too.

export const MODELS = ['random', 'tang', 'brown', 'file'];
/** Shipped with the page: dist/site/models/<key>.model (build-scripts/bundle.mjs copies them). */
export const SHIPPED_MODELS = ['tang', 'brown'];
/** What a link can name: an opened file's bytes are not in the URL. */
export const LINKABLE_MODELS = ['random', ...SHIPPED_MODELS];
