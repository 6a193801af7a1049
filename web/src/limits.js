// The page's limits that code outside the page reads too (the server sizes its request
// headers by them): a leaf, so that reading one costs one module.

// Longer sentences are refused with an offer to truncate (docs/explorer.md, "The page's limits").
export const MAX_SENTENCE_CHARS = 20000;
