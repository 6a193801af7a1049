// The explorer's own buttons: the language, the view tabs (arrow keys move between them),
// the exports (SVG, PNG, CSV, JSON) and the two share links. Each sets state or reads the
// computer's trace; none draws (the store's change does).
//
//   wireActions({ root, $, store, strings, computer, notice, shareLinks }) → { viewSVG() }
import * as d3 from 'd3';
import { VIEWS } from '../views/registry.js';
import { figureCaption } from './caption.js';
import { download, figureSVG, svgToPNG, traceCSV, traceJSON } from './export.js';

/**
 * @param o { root, $: its elements by data-role, store, strings(): the page's strings now,
 *            computer (compute.js), notice(text) (messages.js), shareLinks: { page(state), embed(state) } or none }
 */
export function wireActions({ root, $, store, strings, computer, notice, shareLinks }) {
  /** The current view as a standalone SVG string, with a title, the legend and labels. */
  function viewSVG() {
    const { trace } = computer;
    const state = store.get();
    const s = strings();
    const view = state.view;
    const svg = root.querySelector(VIEWS[view].exported);
    const heads = view === 'links' && trace ? (state.head === 'all' ? d3.range(trace.heads) : [state.head]) : [];
    return figureSVG(svg, { ...figureCaption(state, trace, s), heads, headLabel: s.headN });
  }

  async function exportAs(kind) {
    const { trace } = computer;
    if (!trace) return;
    const state = store.get();
    const name = `attention-${state.view}-step${state.step}`;
    if (kind === 'svg') download(`${name}.svg`, viewSVG(), 'image/svg+xml');
    else if (kind === 'png') download(`${name}.png`, await svgToPNG(viewSVG()), 'image/png');
    else if (kind === 'csv') download('attention-trace.csv', traceCSV(await trace.complete()), 'text/csv');
    else download('attention-trace.json', traceJSON(await trace.complete(), state), 'application/json');
  }

  /** Copies `share`: a string, or { text, note } where the note says what the text leaves out. */
  async function copy(share, button) {
    const { text, note = null } = typeof share === 'string' ? { text: share } : share;
    try {
      await navigator.clipboard.writeText(text);
      button.dataset.copied = 'true';
      if (note) notice(note);
    } catch {
      // No clipboard permission (e.g. inside some iframes): show the text to copy by hand.
      notice(note ? `${note}\n${text}` : text);
    }
    setTimeout(() => delete button.dataset.copied, 1500);
  }

  for (const button of root.querySelectorAll('.language button')) {
    button.addEventListener('click', () => store.set({ lang: button.dataset.lang }));
  }
  for (const tab of root.querySelectorAll('[role=tab]')) {
    tab.addEventListener('click', () => store.set({ view: tab.dataset.view }));
    tab.addEventListener('keydown', (event) => {
      const tabs = [...root.querySelectorAll('[role=tab]')];
      const k = tabs.indexOf(tab);
      const delta = { ArrowRight: 1, ArrowLeft: tabs.length - 1 }[event.key];
      if (!delta) return;
      event.preventDefault();
      event.stopPropagation();
      const next = tabs[(k + delta) % tabs.length];
      store.set({ view: next.dataset.view });
      next.focus();
    });
  }
  for (const button of root.querySelectorAll('[data-export]')) {
    button.addEventListener('click', () => exportAs(button.dataset.export));
  }
  $('copy-link').addEventListener('click', (event) =>
    copy(shareLinks?.page(store.get()) ?? location.href, event.currentTarget),
  );
  $('copy-embed').addEventListener('click', (event) => copy(shareLinks?.embed(store.get()) ?? '', event.currentTarget));
  if (!shareLinks) root.querySelector('.share').hidden = true;

  return { viewSVG };
}
