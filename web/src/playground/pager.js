// The pager over the heatmaps: a model with more heads than one page holds
// (heatmaps.js heatmapPages, MAX_MAPS) shows a layer select and Previous / Next, all keyboard
// operable; the page's text says which layers and heads are shown, out of how many.
import { heatmapPages, MAX_MAPS } from './heatmaps.js';
import { setText } from './text.js';

const $ = (root, role) => root.querySelector(`[data-role="${role}"]`);

/** Page `index` of a snapshot's heatmaps (clamped), and every page. */
export function heatmapPage(snapshot, index) {
  const pages = heatmapPages(snapshot.layers, snapshot.heads);
  const i = Math.max(0, Math.min(pages.length - 1, index));
  return { pages, index: i, page: pages[i] };
}

/** The pager over the heatmaps: hidden when one page holds them all. */
export function drawPager(root, snapshot, { pages, index, page }, t) {
  const pager = $(root, 'heatmap-pager');
  pager.hidden = pages.length === 1;
  if (pager.hidden) return;
  const { layers: L, heads: H } = snapshot;
  setText($(root, 'heatmap-paged'), t.heatmapsPaged(L * H, Math.min(MAX_MAPS, L * H)));
  setText($(root, 'heatmap-page'), t.heatmapPage(page, L, H));
  const select = $(root, 'heatmap-layer');
  if (select.options.length !== L) {
    select.replaceChildren(...Array.from({ length: L }, (_, l) => new Option(String(l + 1), String(l + 1))));
  }
  select.value = String(page.layers[0] + 1);
  // aria-disabled, not disabled: the focus stays on a button pressed to the last page.
  $(root, 'heatmap-prev').setAttribute('aria-disabled', String(index === 0));
  $(root, 'heatmap-next').setAttribute('aria-disabled', String(index === pages.length - 1));
}

/**
 * Wires the pager's controls: `snapshot()` is the snapshot shown (or undefined), `page()` the
 * page index now, `show(i)` shows page i (clamped here).
 */
export function wirePager(root, { snapshot, page, show }) {
  const pages = () => {
    const snap = snapshot();
    return snap ? heatmapPages(snap.layers, snap.heads) : [];
  };
  const go = (i) => show(Math.max(0, Math.min(pages().length - 1, i)));
  $(root, 'heatmap-prev').addEventListener('click', () => go(page() - 1));
  $(root, 'heatmap-next').addEventListener('click', () => go(page() + 1));
  $(root, 'heatmap-layer').addEventListener('change', (e) => {
    const layer = Number(e.target.value) - 1;
    go(pages().findIndex((p) => p.layers[1] >= layer));
  });
}
