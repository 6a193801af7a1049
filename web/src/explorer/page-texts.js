// The explorer's texts that render.js writes from a state: the static texts and tabs (in the
// page's language, for the view shown) and the summary line of the trace (its shape, parameters
// and cost), with the compact embed's caption. Each text is written only where it differs.
//
//   writeStaticTexts({ root, $, threads }, state, s)   every data-i18n text, the language buttons, the tabs
//   writeSummary($, trace, state, s)                   the caption, the summary and the cost (trace: or null)
import { formatCount } from '../format.js';
import { setText } from '../dom.js';
import { figureCaption } from './caption.js';

/** @param threads the engine worker's { count, reason } (engine.js), or none */
export function writeStaticTexts({ root, $, threads }, state, s) {
  // Setting lang, even to the same value, restyles every element below (2,048 chips).
  const lang = state.lang === 'zh' ? 'zh-CN' : 'en';
  if (root.lang !== lang) root.lang = lang;
  // Only what differs: writing the same text still replaces its node and lays out again.
  for (const el of root.querySelectorAll('[data-i18n]')) setText(el, s[el.dataset.i18n]);
  for (const el of root.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', s[el.dataset.i18nLabel]);
  for (const el of root.querySelectorAll('[data-i18n-placeholder]')) el.placeholder = s[el.dataset.i18nPlaceholder];
  // Which engine computes long traces, as the playground says it: for tests, "2" and "" or "1" and why.
  if (threads?.count) {
    setText($('engine-threads'), s.engineThreads(threads.count, threads.reason));
    $('engine-threads').dataset.threads = String(threads.count);
    $('engine-threads').dataset.threadsReason = threads.reason ?? '';
  }
  for (const button of root.querySelectorAll('.language button')) {
    button.setAttribute('aria-pressed', String(button.dataset.lang === state.lang));
  }
  for (const tab of root.querySelectorAll('[role=tab]')) {
    tab.textContent = s[`view.${tab.dataset.view}`];
    const selected = tab.dataset.view === state.view;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
    root.querySelector(`[data-panel="${tab.dataset.view}"]`).hidden = !selected;
  }
}

export function writeSummary($, trace, state, s) {
  // The compact embed's caption (shown by chrome.caption): what the exported figure says.
  if (!$('figure-caption').hidden) {
    const { title, subtitle } = figureCaption(state, trace, s);
    setText($('figure-caption-title'), title);
    setText($('figure-caption-text'), subtitle);
  }
  if (!trace) {
    setText($('summary'), '');
    setText($('cost'), '');
    return;
  }
  setText(
    $('summary'),
    s.summary(
      trace.nQuery,
      trace.heads,
      trace.dK,
      formatCount(trace.parameterCount, state.lang),
      // What the count counts (engine-options.js): no W_O in tutorial mode; a trained
      // model's layer has biases, random weights have none.
      state.tutorial ? 'W_Q, W_K, W_V' : 'W_Q, W_K, W_V, W_O',
      state.model !== 'random',
    ),
  );
  const f = trace.flops;
  // Linear attention's own FLOPs (its scores … softmax are 0): O(n·d_k²) per head.
  const linear = trace.attention === 'linear';
  const attention = linear ? f.featureMap + f.summary + f.normaliser + f.weightedSum : 0;
  setText(
    $('cost'),
    (linear ? s.costLinear : s.cost)(
      formatCount(linear ? attention : f.scores + f.scaling + f.mask + f.softmax + f.weightedSum, state.lang),
      formatCount(f.qProjection + f.kProjection + f.vProjection + f.outputProjection, state.lang),
    ),
  );
}
