// The page's whole state, kept in the URL so that any view is a link:
// ?s=我爱吃火锅&kv=I+love+hotpot&tok=words&d=8&h=2&seed=42&mask=causal&w=2&attn=linear&scale=1&t=1&pe=1&init=scaled&step=7&view=links&head=1&q=0&lang=zh&tutorial=1
// (a trained model: &model=tang&layer=2&temp=0.7&topk=5)
// Bad or unknown values fall back to the defaults and are reported as notices.
import { LANGUAGES } from './i18n.js';
import { TOKENIZATION_MODES } from './tokenize.js';
import { STEP_COUNT } from './step-keys.js';
import { VIEW_KEYS } from './view-keys.js';
import { LINKABLE_MODELS } from './model-catalog.js';
import { MAX_SENTENCE_CHARS } from './limits.js';
import { createStore as createBaseStore } from './store.js';

export { MAX_SENTENCE_CHARS };
export const MASKS = ['none', 'causal', 'window'];
// softmax attention, or kernelised linear attention (φ = elu + 1, docs/computation.md).
export const ATTENTION_KINDS = ['softmax', 'linear'];
export const D_MODELS = [4, 8, 16, 32, 64, 128, 256, 512];
// The page's temperature range (the engine takes 0.01–100): the link, the number box and the
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

// Numbers are read as written in decimal digits only: Number() would also take '', ' 42',
// '0x10', '1e3' and '4294967295.0', so a link could mean something other than it shows.
const int = (min, max) => (text) => {
  if (!/^[0-9]{1,10}$/.test(text)) return undefined;
  const v = Number(text);
  return v >= min && v <= max ? v : undefined;
};
const decimal = (min, max) => (text) => {
  if (!/^([0-9]{1,6}|[0-9]{0,6}\.[0-9]{1,20})$/.test(text)) return undefined; // 2, 0.5, .5
  const v = Number(text);
  return v >= min && v <= max ? v : undefined;
};
const oneOf = (list) => (text) => (list.includes(text) ? text : undefined);
const flag = (text) => (text === '1' ? true : text === '0' ? false : undefined);

// URL key → [state field, parse, format]. A Map, not an object: a key from a link such as
// `toString` or `__proto__` must find nothing, not a member every object inherits.
const FIELDS = new Map(
  Object.entries({
    s: ['sentence', (t) => (t.length <= MAX_SENTENCE_CHARS ? t : undefined), String],
    kv: ['kv', (t) => (t.length <= MAX_SENTENCE_CHARS ? t : undefined), String],
    tok: ['tokenization', oneOf(TOKENIZATION_MODES), String],
    d: ['dModel', (t) => (D_MODELS.includes(int(1, 1024)(t)) ? Number(t) : undefined), String],
    h: ['heads', int(1, 16), String],
    seed: ['seed', int(0, 4294967295), String],
    mask: ['mask', oneOf(MASKS), String],
    w: ['window', int(0, 64), String],
    attn: ['attention', oneOf(ATTENTION_KINDS), String],
    scale: ['scale', flag, (v) => (v ? '1' : '0')],
    t: ['temperature', decimal(TEMPERATURE.min, TEMPERATURE.max), String],
    pe: ['positionalEncoding', flag, (v) => (v ? '1' : '0')],
    init: ['init', oneOf(['scaled', 'randn']), String],
    step: ['step', int(1, STEP_COUNT), String],
    view: ['view', oneOf(VIEW_KEYS), String],
    head: [
      'head',
      (t) => (t === 'all' ? 'all' : int(1, 16)(t) !== undefined ? Number(t) - 1 : undefined),
      (v) => (v === 'all' ? 'all' : String(v + 1)),
    ],
    q: ['query', int(0, 10000), String],
    lang: ['lang', oneOf(LANGUAGES), String],
    tutorial: ['tutorial', flag, (v) => (v ? '1' : '0')],
    // A model the user opened from a file has no link: its bytes are not in the URL.
    model: ['model', oneOf(LINKABLE_MODELS), (v) => (LINKABLE_MODELS.includes(v) ? v : undefined)],
    layer: ['layer', (t) => (int(1, 64)(t) !== undefined ? Number(t) - 1 : undefined), (v) => String(v + 1)],
    temp: ['sampleTemperature', decimal(SAMPLE_TEMPERATURE.min, SAMPLE_TEMPERATURE.max), String],
    topk: ['topK', int(TOP_K.min, TOP_K.max), String],
  }),
);

/** The value a URL key's text stands for, or undefined if the key or the text is not valid. */
export function parseField(key, text) {
  return FIELDS.get(key)?.[1](text);
}

// A link can carry tens of kilobytes: the notice names each refused value in a few words.
function clip(text, max = 60) {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, ''); // never half a surrogate pair
  return `${cut}…`;
}

/**
 * Reads a state from URL search params: { state, notices: ["d=7"], repeated: ["h"] }. A key
 * given more than once counts once, at its first value (docs/embedding.md); `repeated` names it,
 * and a later value is still checked, so that the notice names every bad value of a link.
 */
export function stateFromURL(search, base) {
  const params = new URLSearchParams(search);
  const state = { ...base };
  const notices = [];
  const seen = new Set();
  const repeated = [];
  for (const [key, text] of params) {
    const first = !seen.has(key);
    seen.add(key);
    if (!first && !repeated.includes(clip(key))) repeated.push(clip(key));
    const value = parseField(key, text);
    if (value === undefined) notices.push(clip(`${key}=${text}`));
    else if (first) state[FIELDS.get(key)[0]] = value;
  }
  return { state: constrain(state), notices, repeated };
}

/** Only the fields that differ from the defaults, so links stay short. */
export function stateToURL(state, base) {
  const params = new URLSearchParams();
  for (const [key, [name, , format]] of FIELDS) {
    const text = state[name] !== base[name] ? format(state[name]) : undefined;
    if (text !== undefined) params.set(key, text); // undefined: a value no link can carry
  }
  const query = params.toString();
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
