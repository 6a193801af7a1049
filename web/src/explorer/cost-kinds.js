// The attention kinds the cost panel measures, one row each: the engine options that select it
// and the complexity the tutorials give it. Read by the page (labels, order) and by the worker
// (cost-service.js: the options), so each fact is written here once.

/** The fixed width of the measured traces, stated on the panel: the page's own is at most 16 wide. */
export const COST_MODEL = Object.freeze({ dModel: 64, heads: 4 });

/** Half-width of the local window (|i − j| ≤ 32: 65 keys a query) in window, Longformer and BigBird's blocks. */
export const COST_WINDOW = 32;

// expected: the slope of time in n the tutorials predict; color: a head colour's index (scales.js), distinct hues.
export const COST_KINDS = Object.freeze({
  full: { options: { mask: 'none' }, expected: 2, color: 0 },
  window: { options: { mask: { type: 'window', width: COST_WINDOW } }, expected: 1, color: 1 },
  longformer: { options: { mask: { type: 'longformer', width: COST_WINDOW, global: [0] } }, expected: 1, color: 2 },
  // Blocks of 16: the block window (width 1: three blocks), one random block, one global token, ~65 keys a query.
  bigbird: {
    options: { mask: { type: 'bigbird', width: 1, block: 16, random: 1, global: [0], seed: 1 } },
    expected: 1,
    color: 3,
  },
  linear: { options: { attention: 'linear', mask: 'none' }, expected: 1, color: 5 },
});

export const COST_KIND_KEYS = Object.keys(COST_KINDS);
