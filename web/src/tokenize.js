// How the page splits a sentence: one module shared with the engine's API and the CLI
// (cpp/bindings/js/segment.js, copied beside the engine by the build).
export { TOKENIZATION_MODES, segmentSentence, tokenizeSentence, truncateToTokens } from '../../dist/engine/segment.js';
