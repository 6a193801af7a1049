// The explanation beside the stage: the step's title, the attention formula with the current
// term highlighted (KaTeX, rendered to DOM nodes: no HTML strings, CSP-safe), the shapes
// with this run's numbers, and a short explanation drawn from the tutorials.
//
// A keystroke redraws it with mostly the same content: each part is written only when its
// source (text or TeX) differs from what the node shows, so typing renders no KaTeX (tex.js
// writes the shapes line's new n into its digits) and leaves the formula and its highlight alone.
import { formulaFor, stepAt } from '../steps.js';
import { formulaContextFor, stepTexts } from '../step-texts.js';
import { addsPositionalEncoding } from '../state.js';
import { renderTex } from './tex.js';
import { setText } from '../dom.js';
import { percentText } from '../i18n-sparse.js';
import { takesSetting } from '../state.js';

// The mask step of a window or sparse pattern says how many of the n·m scores it computes (the
// engine's count: the point of the pattern is the scores it never forms).
function withFraction(text, def, trace, state, strings) {
  const fraction = trace?.computedScoreFraction;
  if (
    def.key !== 'mask' ||
    def.linear ||
    (state.model ?? 'random') !== 'random' ||
    !takesSetting(state.mask, 'window') ||
    typeof fraction !== 'number'
  )
    return text;
  const total = trace.nQuery * trace.nKey;
  return `${text} ${strings.sparseFraction(percentText(fraction), trace.computedScores, total)}`;
}

// trainedTexts: a trained model's own step texts { [step key]: text } (models/i18n.js
// stepTexts, passed in by the explorer), shown instead of the random-weights ones.
export function drawExplanation(root, trace, state, strings, trainedTexts = null) {
  const def = stepAt(state.step, state);
  const text = stepTexts(def.key, state, strings);
  setText(root.querySelector('.step-title'), `${state.step}. ${text.title}`);
  // The formula shows ÷√d_k and ÷T as this state computes them: rendered again when they change.
  const rendered =
    renderTex(root.querySelector('.formula'), formulaFor(state), true) |
    renderTex(root.querySelector('.formula-context'), formulaContextFor(state), true);
  // The step's terms light up: looked for again only when the step or the formula changed.
  const terms = def.terms.join(' ');
  if (rendered || root.dataset.terms !== terms) {
    root.dataset.terms = terms;
    for (const el of root.querySelectorAll('[class*="t-"]')) {
      const classes = [...el.classList].filter((c) => c.startsWith('t-'));
      el.classList.toggle(
        'active',
        classes.some((t) => def.terms.includes(t)),
      );
    }
  }
  const head = state.head === 'all' ? 0 : state.head;
  renderTex(root.querySelector('.shapes'), def.detail(trace, head, state), false);
  // A trained model's weights are not random: its own words where the text says they are.
  const trained = state.model && state.model !== 'random' ? trainedTexts?.[def.key] : null;
  setText(root.querySelector('.step-text'), trained ?? withFraction(text.text, def, trace, state, strings));
  // Temperature is its own concept: explained where it acts (step 5) and wherever it is not 1;
  // positional encoding beside its waves (step 1).
  const note = root.querySelector('.concept-note');
  const concept =
    // (Linear attention has no temperature: its steps 5–7 are other steps.)
    !def.linear && (def.key === 'scale' || (state.temperature !== 1 && ['mask', 'softmax'].includes(def.key)))
      ? [`${strings.temperatureTitle} = ${state.temperature}: `, strings.temperatureText]
      : def.key === 'embed' && addsPositionalEncoding(state)
        ? [`${strings.peTitle}: `, strings.peText]
        : null;
  note.hidden = !concept;
  if (concept && note.textContent !== concept.join('')) {
    const title = document.createElement('strong');
    title.textContent = concept[0];
    note.replaceChildren(title, concept[1]);
  }
}
