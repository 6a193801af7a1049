// The explanation beside the stage: the step's title, the attention formula with the current
// term highlighted (KaTeX, rendered to DOM nodes: no HTML strings, CSP-safe), the shapes
// with this run's numbers, and a short explanation drawn from the tutorials.
import katex from 'katex';
import { FORMULA_CONTEXT, formulaFor, stepAt } from '../steps.js';
import { modelStrings } from '../models/i18n.js';
import { addsPositionalEncoding } from '../state.js';

const KATEX_OPTIONS = {
  throwOnError: false,
  strict: false,
  output: 'html',
  // Only \htmlClass is trusted: it marks the terms that each step highlights.
  trust: (context) => context.command === '\\htmlClass',
};

export function drawExplanation(root, trace, state, strings) {
  const def = stepAt(state.step);
  const text = strings.steps[def.key];
  root.querySelector('.step-title').textContent = `${state.step}. ${text.title}`;
  const formula = root.querySelector('.formula');
  const context = root.querySelector('.formula-context');
  // The formula shows ÷√d_k and ÷T as this state computes them: rendered again when they change.
  const tex = formulaFor(state);
  if (formula.dataset.tex !== tex) {
    katex.render(tex, formula, { ...KATEX_OPTIONS, displayMode: true });
    formula.dataset.tex = tex;
  }
  if (!context.hasChildNodes()) katex.render(FORMULA_CONTEXT, context, { ...KATEX_OPTIONS, displayMode: true });
  for (const el of root.querySelectorAll('[class*="t-"]')) {
    const terms = [...el.classList].filter((c) => c.startsWith('t-'));
    el.classList.toggle(
      'active',
      terms.some((t) => def.terms.includes(t)),
    );
  }
  const head = state.head === 'all' ? 0 : state.head;
  katex.render(def.detail(trace, head, state), root.querySelector('.shapes'), { ...KATEX_OPTIONS, displayMode: false });
  // A trained model's weights are not random: its own words where the text says they are.
  const trained = state.model && state.model !== 'random' ? modelStrings(state.lang).stepTexts[def.key] : null;
  root.querySelector('.step-text').textContent = trained ?? text.text;
  // Temperature is its own concept: explained where it acts (step 5) and wherever it is not 1;
  // positional encoding beside its waves (step 1).
  const note = root.querySelector('.concept-note');
  const concept =
    def.key === 'scale' || (state.temperature !== 1 && ['mask', 'softmax'].includes(def.key))
      ? [`${strings.temperatureTitle} = ${state.temperature}: `, strings.temperatureText]
      : def.key === 'embed' && addsPositionalEncoding(state)
        ? [`${strings.peTitle}: `, strings.peText]
        : null;
  note.hidden = !concept;
  if (concept) {
    const title = document.createElement('strong');
    title.textContent = concept[0];
    note.replaceChildren(title, concept[1]);
  }
}
