// Links to the current view: the page itself, and an iframe snippet for the embed page.
import { stateToURL } from '../state.js';

// A server refuses a request line longer than its limit (Node's default is 16 KB, many hosts
// stop at 8 KB) and the link would not open. Links keep to this many characters: past it the
// sentence is left out, the rest of the state stays, and the page says so (linkTooLong).
export const MAX_LINK_CHARS = 8000;

// State fields whose default comes from the viewer's browser (defaultState(defaultLanguage())).
const BROWSER_DEPENDENT = ['lang'];

/**
 * `prefix` followed by the query of `state` (and `extra`, e.g. 'controls=0'), within
 * MAX_LINK_CHARS: { link, fullLength (with the sentence), sentenceLeftOut }.
 */
function fitLink(prefix, state, base, extra = '') {
  const withQuery = (query) => `${prefix}${query}${extra ? `${query ? '&' : '?'}${extra}` : ''}`;
  // The default language is the viewer's browser's: a link leaving it out would open in the
  // reader's language, not the one the sender sees. BROWSER_DEPENDENT fields are always written.
  const pinned = { ...base, ...Object.fromEntries(BROWSER_DEPENDENT.map((field) => [field, undefined])) };
  const full = withQuery(stateToURL(state, pinned));
  if (full.length <= MAX_LINK_CHARS) return { link: full, fullLength: full.length, sentenceLeftOut: false };
  const link = withQuery(stateToURL({ ...state, sentence: base.sentence, kv: base.kv }, pinned));
  return { link, fullLength: full.length, sentenceLeftOut: true };
}

/** The page's link to `state`: { link, fullLength, sentenceLeftOut }. */
export function pageLink(state, base, href = location.href) {
  const url = new URL(href);
  url.search = '';
  url.hash = ''; // not origin + pathname: a file:// page's origin is the string "null"
  return fitLink(url.href, state, base);
}

/** The embed page's link to `state`, controls hidden: { link, fullLength, sentenceLeftOut }. */
export function embedLink(state, base, href = location.href) {
  return fitLink(new URL('embed.html', href).href, state, base, 'controls=0');
}

/** An <iframe> that resizes itself to its content (see docs/embedding.md). */
export function embedSnippet(state, base, href = location.href) {
  const src = embedLink(state, base, href).link.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return `<iframe src="${src}" title="Attention Explorer" width="100%" height="760" style="border:0" loading="lazy"></iframe>
<script>
addEventListener('message', (e) => {
  if (e.data && e.data.type === 'attention-explorer:height' && typeof e.data.height === 'number')
    for (const f of document.querySelectorAll('iframe'))
      if (f.contentWindow === e.source) f.style.height = Math.ceil(e.data.height) + 'px';
});
</script>`;
}

/** The sizes a compact figure is offered at: a 16:9 slide and a 900 px column (docs/embedding.md). */
export const FIGURE_SIZES = {
  slide: { width: 1280, height: 720 },
  column: { width: 900, height: 506 },
};

/** The embed page's link to `state` as a compact figure: { link, fullLength, sentenceLeftOut }. */
export function figureLink(state, base, href = location.href) {
  return fitLink(new URL('embed.html', href).href, state, base, 'compact=1');
}

/**
 * An <iframe> of the compact figure of `state` at `size` ({ width, height }): it fills its frame
 * (explorer/compact-fit.js), so the frame keeps that shape at any width and needs no script.
 */
export function figureSnippet(state, base, size, href = location.href) {
  const src = figureLink(state, base, href).link.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const { width, height } = size;
  return `<iframe src="${src}" title="Attention Explorer" width="${width}" height="${height}" style="border:0; max-width:100%; height:auto; aspect-ratio:${width} / ${height}" loading="lazy"></iframe>`;
}
