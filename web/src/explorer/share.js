// Links to the current view: the page itself, and an iframe snippet for the embed page.
import { stateToURL } from '../state.js';

export function pageLink(state, base, href = location.href) {
  const url = new URL(href);
  return `${url.origin}${url.pathname}${stateToURL(state, base)}`;
}

export function embedLink(state, base, href = location.href) {
  const url = new URL('embed.html', href);
  const query = stateToURL(state, base);
  return `${url.href}${query}${query ? '&' : '?'}controls=0`;
}

/** An <iframe> that resizes itself to its content (see docs/embedding.md). */
export function embedSnippet(state, base, href = location.href) {
  const src = embedLink(state, base, href).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return `<iframe src="${src}" title="Attention Explorer" width="100%" height="760" style="border:0" loading="lazy"></iframe>
<script>
addEventListener('message', (e) => {
  if (e.data && e.data.type === 'attention-explorer:height' && typeof e.data.height === 'number')
    for (const f of document.querySelectorAll('iframe'))
      if (f.contentWindow === e.source) f.style.height = Math.ceil(e.data.height) + 'px';
});
</script>`;
}
