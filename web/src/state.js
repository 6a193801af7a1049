// The page's whole state, kept in the URL so that any view is a link:
// ?s=我爱吃火锅&kv=I+love+hotpot&tok=words&d=8&h=2&seed=42&mask=causal&w=2&attn=linear&scale=1&t=1&pe=1&init=scaled&step=7&view=links&head=1&q=0&lang=zh&tutorial=1
// (a trained model: &model=tang&layer=2&temp=0.7&topk=5; a sparse mask: &mask=longformer&w=2&g=0&mc=1)
// Bad or unknown values fall back to the defaults and are reported as notices.
import { LANGUAGES } from './i18n.js';
import { TOKENIZATION_MODES } from './tokenize.js';
import { STEP_COUNT } from './step-keys.js';
import { LINKABLE_MODELS } from './model-catalog.js';
import { MAX_SENTENCE_CHARS } from './limits.js';
import { ATTENTION_KINDS, INITS, LIMITS, MASK_TYPES } from './catalog.js';
import { createStore as createBaseStore } from './store.js';
import {
  clip,
  clippedOnce,
  decimal,
  fieldTable,
  flag,
  int,
  intSet,
  kindsOf,
  oneBased,
  oneOf,
  oneOfNumbers,
  readQuery,
  SEED,
  text,
  writeQuery,
} from './url-fields.js';

export { ATTENTION_KINDS, INITS, MAX_SENTENCE_CHARS };
// The masks the page offers: the engine's (MASK_TYPES) but padding and custom, whose positions or
// matrix the page has no control for.
const UNOFFERED_MASKS = ['padding', 'custom'];
export const MASKS = Object.freeze(MASK_TYPES.filter((type) => !UNOFFERED_MASKS.includes(type)));
// The sparse patterns' settings (docs/computation.md, "Sparse and local attention"): the link's
// parser, the number boxes and the engine's options read these bounds. Global tokens are
// indices into the sentence (the engine ignores one past its end), at most GLOBAL_TOKENS.max of them.
export const SPARSE = Object.freeze({
  dilation: Object.freeze({ min: 1, max: 64 }),
  block: Object.freeze({ min: 1, max: 64 }),
  random: Object.freeze({ min: 0, max: 16 }),
});
export const GLOBAL_TOKENS = Object.freeze({ min: 0, max: LIMITS.maxTokens - 1, count: 16 });
// Which settings each pattern takes: a control or a link row for another pattern is hidden/unused.
// maskCausal keeps only the pattern's keys j ≤ i (a causal sliding window, as in Mistral's local
// attention): it means nothing for none and causal, which take no settings.
export const MASK_SETTINGS = Object.freeze({
  window: ['window', 'maskCausal'],
  dilated: ['window', 'dilation', 'maskCausal'],
  longformer: ['window', 'global', 'maskCausal'],
  bigbird: ['window', 'global', 'block', 'random', 'maskSeed', 'maskCausal'],
});
export const takesSetting = (mask, setting) => (MASK_SETTINGS[mask] ?? []).includes(setting);
export const D_MODELS = [4, 8, 16, 32, 64, 128, 256, 512];
// The page's temperature range (inside the engine's, catalog.js TEMPERATURE): the link, the number box and the
// softmax view's slider all accept exactly this.
export const TEMPERATURE = Object.freeze({ min: 0.05, max: 20 });
// A trained model's next-token controls (models/next.js): the sampling temperature's slider and
// top-k's box accept exactly these, and so does a link (temp=, topk=).
export const SAMPLE_TEMPERATURE = Object.freeze({ min: 0.1, max: 3, step: 0.1 });
export const TOP_K = Object.freeze({ min: 1, max: 50 });

export const PRESETS = [
  '我 爱 吃 火锅',
  '猫追着球跑',
  '小明在北京的清华大学读书',
  'The cat chased the ball because it was fast',
  'I love eating hotpot',
];

// Tutorial mode (tutorial=1): the NumPy example of 自注意力机制完全指南 (section 代码实现), np.random.seed(42),
// X = randn(n, 8), then W_q, W_k, W_v = randn(8, 4); one head, no positional encoding, no W_O.
// These fields are pinned while it is on (the engine options it adds are in engine-options.js).
export const TUTORIAL_SENTENCE = '我 爱 吃 火锅';
export const TUTORIAL = { dModel: 8, heads: 1, seed: 42, positionalEncoding: false, init: 'randn', kv: '' };

// The page's defaults, not the engine's (TRACE_DEFAULTS, MASK_DEFAULTS), though most are equal
// today: a link leaves out every field at its default, so these are part of what each shared
// link means and must not move when the engine's defaults do.
export function defaultState(lang = 'en') {
  return {
    sentence: PRESETS[0],
    kv: '', // cross-attention: keys and values from this sentence ('' for self-attention)
    tokenization: 'words',
    dModel: 8,
    heads: 2,
    seed: 42,
    mask: 'none',
    attention: 'softmax',
    window: 1,
    global: [0], // longformer's and bigbird's global tokens (0-based, ascending)
    dilation: 2,
    block: 4,
    random: 1,
    maskSeed: 0,
    maskCausal: false, // a pattern mask's causal version (j ≤ i as well)
    scale: true,
    temperature: 1,
    positionalEncoding: true,
    init: 'scaled',
    step: 1,
    view: 'links',
    head: 'all', // 'all' or a 0-based head index
    query: 0,
    lang,
    tutorial: false,
    playing: false,
    // The views' own state, never in a link (UI_FIELDS): the token hovered or clicked in the
    // links view { side: 'query' | 'key', index, locked }, the heatmap cell picked
    // { head, i, j } (its link is highlighted), whether the heatmap's tables are shown.
    focus: null,
    pair: null,
    tables: false,
    // The stage cell whose arithmetic is shown { name, head, i, j }: never in a link, and not a
    // UI_FIELD (the panel is drawn with the stage).
    cell: null,
    // Trained models (models/): which one, the layer shown (0-based), and the next-token
    // controls (in links as temp= and topk=).
    model: 'random',
    modelRevision: 0, // a new model file opened under the same key
    layer: 0,
    sampleTemperature: 1,
    topK: 10,
  };
}

/**
 * Whether sinusoidal positional encoding is added to X: the switch, in the random-weights
 * explorer only (a trained model's layer input already holds its positions).
 */
export const addsPositionalEncoding = (state) => state.positionalEncoding && state.model === 'random';

/** Fields that only the views read: a change draws the views again, nothing else. */
export const UI_FIELDS = ['focus', 'pair', 'tables'];

// One row per link key: { key, field: the state's, kind: its parser and writer (url-fields.js) }.
const HEAD = int({ min: 1, max: 16 });
const ROWS = [
  { key: 's', field: 'sentence', kind: text(MAX_SENTENCE_CHARS) },
  { key: 'kv', field: 'kv', kind: text(MAX_SENTENCE_CHARS) },
  { key: 'tok', field: 'tokenization', kind: oneOf(TOKENIZATION_MODES) },
  { key: 'd', field: 'dModel', kind: oneOfNumbers(D_MODELS) },
  { key: 'h', field: 'heads', kind: HEAD },
  { key: 'seed', field: 'seed', kind: int(SEED) },
  { key: 'mask', field: 'mask', kind: oneOf(MASKS) },
  { key: 'w', field: 'window', kind: int({ min: 0, max: 64 }) },
  { key: 'g', field: 'global', kind: intSet(GLOBAL_TOKENS) },
  { key: 'dil', field: 'dilation', kind: int(SPARSE.dilation) },
  { key: 'blk', field: 'block', kind: int(SPARSE.block) },
  { key: 'rnd', field: 'random', kind: int(SPARSE.random) },
  { key: 'mseed', field: 'maskSeed', kind: int(SEED) },
  { key: 'mc', field: 'maskCausal', kind: flag },
  { key: 'attn', field: 'attention', kind: oneOf(ATTENTION_KINDS) },
  { key: 'scale', field: 'scale', kind: flag },
  { key: 't', field: 'temperature', kind: decimal(TEMPERATURE) },
  { key: 'pe', field: 'positionalEncoding', kind: flag },
  { key: 'init', field: 'init', kind: oneOf(INITS) },
  { key: 'step', field: 'step', kind: int({ min: 1, max: STEP_COUNT }) },
  // The allowed views are the registry's (views/registry.js VIEW_KEYS, which loads d3): the
  // parser takes them as an argument, and this row only writes the value.
  { key: 'view', field: 'view', kind: { parse: () => undefined, format: String } },
  {
    key: 'head',
    field: 'head',
    kind: {
      parse: (t) => (t === 'all' ? 'all' : oneBased(HEAD).parse(t)),
      format: (v) => (v === 'all' ? 'all' : oneBased(HEAD).format(v)),
    },
  },
  { key: 'q', field: 'query', kind: int({ min: 0, max: 10000 }) },
  { key: 'lang', field: 'lang', kind: oneOf(LANGUAGES) },
  { key: 'tutorial', field: 'tutorial', kind: flag },
  // A model the user opened from a file has no link: its bytes are not in the URL.
  {
    key: 'model',
    field: 'model',
    kind: { ...oneOf(LINKABLE_MODELS), format: (v) => (LINKABLE_MODELS.includes(v) ? v : undefined) },
  },
  { key: 'layer', field: 'layer', kind: oneBased(int({ min: 1, max: 64 })) },
  { key: 'temp', field: 'sampleTemperature', kind: decimal(SAMPLE_TEMPERATURE) },
  { key: 'topk', field: 'topK', kind: int(TOP_K) },
];
const FIELDS = fieldTable(ROWS);
const KINDS = kindsOf(FIELDS);

/** URL key → kind, with `view` one of `views` (the registry's VIEW_KEYS). */
function kindsWith(views) {
  if (!Array.isArray(views))
    throw new TypeError('state.js: the allowed views are an array (views/registry.js VIEW_KEYS)');
  return new Map(KINDS).set('view', oneOf(views));
}

/**
 * The value a URL key's text stands for, or undefined if the key or the text is not valid;
 * `views` are the allowed views, needed only for the key `view`.
 */
export function parseField(key, text, views = []) {
  return (key === 'view' ? kindsWith(views) : KINDS).get(key)?.parse(text);
}

// A link can carry tens of kilobytes: the notice names each refused value in a few words.
const NOTICE_CHARS = 60;

/**
 * Reads a state from URL search params: { state, notices: ["d=7"], repeated: ["h"] }, with
 * `views` the allowed values of `view` (views/registry.js VIEW_KEYS). A key
 * given more than once counts once, at its first value (docs/embedding.md); `repeated` names it,
 * and a later value is still checked, so that the notice names every bad value of a link.
 */
export function stateFromURL(search, base, views) {
  const { values, refused, repeated } = readQuery(search, kindsWith(views));
  const state = { ...base };
  for (const [key, value] of values) state[FIELDS.get(key).field] = value;
  return {
    state: constrain(state),
    notices: refused.map(({ key, text }) => clip(`${key}=${text}`, NOTICE_CHARS)),
    repeated: clippedOnce(repeated, NOTICE_CHARS),
  };
}

/** Only the fields that differ from the defaults, so links stay short. */
export function stateToURL(state, base) {
  const query = writeQuery(state, ROWS, base);
  return query ? `?${query}` : '';
}

/** Keeps dependent fields consistent: heads divide dModel, the head and query exist, tutorial mode's fields. */
export function constrain(state) {
  // A trained model brings its own shape: the model panel sets heads and clamps layer and head.
  if (state.model !== 'random') return { ...state, tutorial: false };
  const s = state.tutorial ? { ...state, ...TUTORIAL } : { ...state, layer: 0 };
  if (s.dModel % s.heads !== 0 || s.heads > s.dModel) {
    const divisors = [1, 2, 4, 8, 16].filter((h) => s.dModel % h === 0 && h <= s.dModel);
    s.heads = divisors.reduce((best, h) => (Math.abs(h - s.heads) < Math.abs(best - s.heads) ? h : best), 1);
  }
  if (s.head !== 'all' && s.head >= s.heads) s.head = 'all';
  return s;
}

/** The explorer's store: the shared store (store.js) keeping every state constrained. */
export const createStore = (initial) => createBaseStore(initial, constrain);
