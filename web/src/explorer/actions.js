// The explorer's own buttons: the language, the view tabs (arrow keys move between them),
// the exports (SVG, PNG, CSV, JSON) and the two share links. Each sets state or reads the
// computer's trace; none draws (the store's change does).
//
//   wireActions({ root, $, store, strings, computer, notice, shareLinks }) → { viewSVG() }
import * as d3 from 'd3';
import { VIEWS } from '../views/registry.js';
import { figureCaption } from './caption.js';
import { download } from '../download.js';
import { figureSVG, svgToPNG, traceCSV, traceJSON } from './export.js';
import { FIGURE_SIZES } from './share.js';

// A preview is the embed itself, live, scaled to this width (px).
const PREVIEW_WIDTH = 256;

/**
 * @param o { root, $: its elements by data-role, store, strings(): the page's strings now,
 *            computer (compute.js), notice(text) (messages.js), shareLinks: { page(state), embed(state),
 *            figure(state, size): a compact figure's { text, link, note } } or none }
 */
export function wireActions({ root, $, store, strings, computer, notice, shareLinks }) {
  /** The current view as a standalone SVG string, with a title, the legend and labels. */
  function viewSVG() {
    const { trace } = computer;
    const state = store.get();
    const s = strings();
    const view = VIEWS[state.view];
    const svg = root.querySelector(view.exported);
    const heads = view.headLegend && trace ? (state.head === 'all' ? d3.range(trace.heads) : [state.head]) : [];
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
  $('copy-embed').addEventListener('click', (event) => {
    // The explorer's code is copied at once, as it always was; the choices offer the figures.
    copy(shareLinks?.embed(store.get()) ?? '', event.currentTarget);
    if (shareLinks?.figure) showEmbedChoices();
  });
  $('embed-close').addEventListener('click', closeEmbedChoices);

  /**
   * The embed code's three choices, each with its code, a Copy button and a live preview (the
   * embed page itself in a scaled-down frame): the explorer, and the compact figure for a 16:9
   * slide and for a 900 px column. Until now a teacher had to find compact=1 in the docs.
   */
  function showEmbedChoices() {
    const state = store.get();
    const s = strings();
    const full = shareLinks.embed(state);
    const fullLink = full.text
      .match(/src="([^"]*)"/)[1]
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"');
    const choices = [
      { key: 'full', label: s.embedFull, code: full, link: fullLink, size: FIGURE_SIZES.slide },
      ...Object.entries(FIGURE_SIZES).map(([key, size]) => {
        const figure = shareLinks.figure(state, size);
        return { key, label: s[key === 'slide' ? 'embedSlide' : 'embedColumn'], code: figure, link: figure.link, size };
      }),
    ];
    const make = (tag, attrs = {}, text = '') => {
      const el = document.createElement(tag);
      for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
      if (text) el.textContent = text;
      return el;
    };
    $('embed-options').replaceChildren(
      ...choices.map(({ key, label, code, link, size }) => {
        const option = make('div', { class: 'embed-option', 'data-embed': key });
        const scale = PREVIEW_WIDTH / size.width;
        const frame = make('div', { class: 'embed-preview' });
        frame.style.width = `${PREVIEW_WIDTH}px`;
        frame.style.height = `${Math.round(size.height * scale)}px`;
        const preview = make('iframe', { src: link, title: s.embedPreview(label), tabindex: '-1', loading: 'lazy' });
        preview.width = size.width;
        preview.height = size.height;
        preview.style.transform = `scale(${scale})`;
        frame.append(preview);
        const id = `${root.querySelector('[role=tab]').id}-embed-${key}`;
        const codeBox = make('textarea', { id, readonly: '', rows: '3', spellcheck: 'false' });
        codeBox.value = code.text;
        const button = make('button', { type: 'button', 'aria-describedby': id }, s.embedCopy);
        button.addEventListener('click', () => copy(code, button));
        option.append(make('h3', {}, label), frame, codeBox, button);
        return option;
      }),
    );
    $('embed-choices').hidden = false;
  }

  // Closed, its previews go: each runs an engine of its own.
  function closeEmbedChoices() {
    $('embed-choices').hidden = true;
    $('embed-options').replaceChildren();
  }
  if (!shareLinks) root.querySelector('.share').hidden = true;

  return { viewSVG };
}
