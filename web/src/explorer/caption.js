// A figure's title and subtitle in the page's language: the exported SVG/PNG's (actions.js)
// and the compact embed's caption (explorer.js) — one text, so a figure on a slide says what
// the exported one says.
//
//   figureCaption(state, trace, s) → { title: 'Links · 7. Softmax', subtitle: '我 爱 … · d_model 8, …' }
import { stepTitle } from '../step-texts.js';
import { modelStrings } from '../models/i18n.js';
import { takesSetting } from '../state.js';
// The views' names (`view.<key>`) are in their descriptors, which the registry adds to the strings.
import '../views/registry.js';

/** A model's name in the page's language, as its menu says it ("唐诗（已训练）"), never its link key. */
const modelTitle = (state, s) =>
  state.model === 'file' ? s.figureFileModel : (modelStrings(state.lang)[`model.${state.model}`] ?? state.model);

/** The mask's name, "(causal)" added for a pattern's causal version (mc=1), as the mask step's title says it. */
const maskName = (state, s) =>
  `${s[`mask.${state.mask}`]}${state.maskCausal && takesSetting(state.mask, 'maskCausal') ? s.maskCausalTitle : ''}`;

/** @param state the store's state; trace the computer's (or null while it computes); s strings(lang) */
export function figureCaption(state, trace, s) {
  const tokens = trace?.tokens.join(' ') ?? '';
  return {
    title: `${s[`view.${state.view}`]} · ${state.step}. ${stepTitle(state, s)}`,
    subtitle:
      state.model === 'random'
        ? s.figureRandom(tokens, state.dModel, state.heads, state.seed, maskName(state, s)) +
          // A figure of linear attention says so: its weights are not softmax's.
          (state.attention === 'linear' ? s.figureLinear : '')
        : s.figureModel(tokens, modelTitle(state, s), state.layer + 1, trace?.dModel, trace?.heads),
  };
}
