import { MASK_SETTINGS, takesSetting } from './state.js';

// The one mapping from the page's state to the engine's options. Each row names the state
// fields it reads and the options it makes from them; the fields whose change needs a new
// trace (MODEL_FIELDS) are the union of the rows' fields, so a new option is one row.
const ROWS = [
  [['sentence', 'tokenization'], (s, tokens) => ({ tokens })],
  // Cross-attention: keys and values from the second sentence's tokens (none: self-attention).
  [['kv'], (s, tokens, kvTokens) => (kvTokens.length ? { kvTokens } : {})],
  [['dModel'], (s) => ({ dModel: s.dModel })],
  [['heads'], (s) => ({ heads: s.heads })],
  [['seed'], (s) => ({ seed: s.seed })],
  [
    ['mask', 'window', 'global', 'dilation', 'block', 'random', 'maskSeed', 'maskCausal'],
    (s) => ({ mask: maskOption(s) }),
  ],
  [['attention'], (s) => ({ attention: s.attention })],
  [['scale'], (s) => ({ scale: s.scale })],
  [['temperature'], (s) => ({ temperature: s.temperature })],
  [['positionalEncoding'], (s) => ({ positionalEncoding: s.positionalEncoding })],
  [['init'], (s) => ({ init: s.init })],
  // X drawn from the generator's stream, as NumPy's randn(n, d_model), and the tutorial's
  // shapes (the fields tutorial mode pins are state.js TUTORIAL).
  [['tutorial'], (s) => (s.tutorial ? { embedding: 'stream', dK: 4, outputProjection: false } : {})],
];

// The engine's mask option: a name for a dense mask, else the pattern with the settings it takes
// (state.js MASK_SETTINGS; the engine refuses an option a pattern does not take).
function maskOption(s) {
  if (!MASK_SETTINGS[s.mask]) return s.mask;
  const option = { type: s.mask, width: s.window };
  if (takesSetting(s.mask, 'global')) option.global = s.global;
  if (takesSetting(s.mask, 'dilation')) option.dilation = s.dilation;
  if (takesSetting(s.mask, 'block')) Object.assign(option, { block: s.block, random: s.random, seed: s.maskSeed });
  // Only when on: the engine's default is off, so a link without mc= runs the same trace as before.
  if (takesSetting(s.mask, 'maskCausal') && s.maskCausal) option.causal = true;
  return option;
}

/** The state fields that change the trace. */
export const MODEL_FIELDS = ROWS.flatMap(([fields]) => fields);

/**
 * The engine options for a state and its tokens (string[], from the sentence and tokenization;
 * kvTokens from the kv sentence, empty for self-attention).
 */
export function engineOptions(state, tokens, kvTokens = []) {
  return Object.assign({}, ...ROWS.map(([, make]) => make(state, tokens, kvTokens)));
}

/** A trained model's layer (models/): the fields it is opened from, instead of the rows above. */
export const TRAINED_FIELDS = ['model', 'modelRevision', 'layer', 'sentence'];

/** The options that open a trained model's layer in the engine's worker (models/service.js). */
export function modelTraceOptions(state) {
  return { model: { name: state.model, layer: state.layer, text: state.sentence } };
}
