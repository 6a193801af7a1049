// The texts beside the stage (each step's title and explanation, the formula's context lines)
// as functions of the computation the run does. The computation is read from the engine's own
// options (engine-options.js engineOptions, the object the engine gets), so that a text never
// names a term the run does not have: no "positional encoding is added" when PE is off, no W_O
// when there is none, no "same word, same vector" when X comes from NumPy's random stream.
import { engineOptions } from './engine-options.js';
import { stepAt } from './steps.js';

/**
 * What the random-weights explorer computes for a state: { embedding: 'hash' | 'stream',
 * positionalEncoding, outputProjection, heads, dK, scale, temperature, mask: 'none' | 'causal' |
 * 'window' | 'dilated' | 'longformer' | 'bigbird', maskCausal: a pattern's causal version }. A trained model's layer: its learned input, W_O, ÷√d_k and causal mask.
 */
export function computationOf(state) {
  if (state.model && state.model !== 'random') {
    return {
      embedding: 'trained',
      positionalEncoding: false,
      outputProjection: true,
      heads: state.heads,
      dK: null,
      scale: true,
      temperature: 1,
      mask: 'causal',
      maskCausal: false,
      attention: 'softmax',
    };
  }
  const o = engineOptions(state, []);
  return {
    embedding: o.embedding ?? 'hash',
    positionalEncoding: o.positionalEncoding,
    outputProjection: o.outputProjection !== false,
    heads: o.heads,
    dK: o.dK ?? o.dModel / o.heads,
    scale: o.scale,
    temperature: o.temperature,
    mask: typeof o.mask === 'string' ? o.mask : o.mask.type,
    // A pattern mask's causal version (the engine's causal flag, j ≤ i as well).
    maskCausal: typeof o.mask === 'object' && o.mask.causal === true,
    attention: o.attention ?? 'softmax',
  };
}

// Per step key: (computation, strings) → { title, text } where the run differs from the
// strings' default texts (i18n.js steps), or null.
const VARIANTS = {
  embed: (c, s) =>
    c.embedding === 'trained'
      ? null
      : {
          text: `${c.embedding === 'stream' ? s.embedStream : s.embedHash} ${c.positionalEncoding ? s.peOn : s.peOff}`,
        },
  split: (c, s) => (c.heads === 1 ? { title: s.splitTitleOne, text: s.splitOne(c.dK) } : null),
  scale: (c, s) =>
    c.scale ? null : { title: c.temperature !== 1 ? s.temperatureOnlyTitle : s.scaleOffTitle, text: s.scaleOffText },
  // A window or a sparse pattern: its own title, and why information still reaches every word.
  // A causal pattern adds why it keeps only j ≤ i (the engine's count, added after, is the causal one).
  mask: (c, s) => {
    const v = c.mask === 'none' ? { title: s.maskNoneTitle, text: s.maskNoneText } : (s.maskSteps[c.mask] ?? null);
    return v && c.maskCausal ? { title: `${v.title}${s.maskCausalTitle}`, text: `${v.text} ${s.maskCausalText}` } : v;
  },
  concat: (c, s) => (c.heads === 1 ? { title: s.concatTitleOne, text: s.concatOne } : null),
  output: (c, s) => (c.outputProjection ? null : { title: s.outputTitleNone, text: s.outputNone }),
};

// Linear attention does other work at steps 4–8 (steps.js LINEAR_STEPS); with a causal mask the
// summary, the normaliser and the output read prefix sums, which their texts add.
const LINEAR_CAUSAL = new Set(['scale', 'mask', 'weighted']);

function linearTexts(key, c, strings) {
  const base = strings.linearSteps[key];
  if (!base || c.mask !== 'causal' || !LINEAR_CAUSAL.has(key)) return base;
  return { ...base, text: `${base.text} ${strings.linearCausal}` };
}

/** Step `key`'s { title, short, text } for a state, in the language of `strings`. */
export function stepTexts(key, state, strings) {
  const c = computationOf(state);
  const linear = c.attention === 'linear' ? linearTexts(key, c, strings) : null;
  if (linear) return { ...linear };
  const base = strings.steps[key];
  const variant = VARIANTS[key]?.(c, strings) ?? {};
  return { ...base, ...variant };
}

/** The title of the state's current step (or of step n, 1-based). */
export const stepTitle = (state, strings, n = state.step) => stepTexts(stepAt(n, state).key, state, strings).title;

/**
 * The formula's context lines in TeX: X' = X + PE only when PE is added, O = Concat · W_O only
 * when there is a W_O (and O = head₁ with one head and none).
 */
export function formulaContextFor(state) {
  const c = computationOf(state);
  const no = state.lang === 'zh' ? '无 ' : 'no ';
  const x = c.positionalEncoding ? String.raw`X'=X+PE` : String.raw`X'=X\;\;(\text{${no}}PE)`;
  const heads = c.heads === 1 ? String.raw`\mathrm{head}_1` : String.raw`\mathrm{head}_1,\dots,\mathrm{head}_h`;
  const concat = String.raw`\htmlClass{t-concat}{\mathrm{Concat}(${heads})}`;
  const out = c.outputProjection
    ? String.raw`${concat}\,\htmlClass{t-wo}{W_O}`
    : String.raw`${concat}${c.heads === 1 ? String.raw`=\mathrm{head}_1` : ''}\;\;(\text{${no}}W_O)`;
  return String.raw`\begin{aligned}
  &\htmlClass{t-x}{${x}} \\
  &\htmlClass{t-qkv}{Q=X'W_Q,\;K=X'W_K,\;V=X'W_V} \\
  &\htmlClass{t-out}{O}=${out}
\end{aligned}`;
}
