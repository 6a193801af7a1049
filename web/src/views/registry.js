// The views under the stage, registered once. The template's tabs and panels, the state's
// allowed `view` values, what the page loads for a view (explorer/needs.js) and how it draws
// (explorer.js) all read VIEWS, in this order; adding a view is one entry here plus its
// `view.<key>` name in i18n.js. Each entry:
//   panel: the tab panel's markup (static text only: no user data goes through innerHTML),
//   role: the data-role of the element it draws into (emptied when there is no trace),
//   exported: a selector for the SVG that the SVG/PNG export takes,
//   requests(ctx): what it reads from the trace (explorer/requests.js), for
//     ctx = { trace (or only its sizes), state, head (0-based), heads: number[], query },
//   draw(ctx): draws, for ctx = { trace, state, strings, head, heads, query,
//     el(role): an element of the panel, width: the views' width in px, get/set: the store's }.
// A view's handlers only set state; the store's change draws it again.
import * as d3 from 'd3';
import { drawLinks, linksLegend, LINK_LIMITS } from './links.js';
import { drawHeatmaps, heatmapSide, heatmapStepFor, heatmapTables } from './heatmap.js';
import { drawMatrices, MATRICES, matrixHead } from './matrices.js';
import { drawSoftmax } from './softmax.js';
import { linksRequest, rowRequest, spreadRequest, stepRequest } from '../explorer/requests.js';

export const VIEWS = {
  links: {
    panel:
      '<p class="hint" data-i18n="linksHint"></p><p class="hint untrained" data-i18n="untrainedNote"></p><div class="links-legend" data-role="links-legend"></div><p class="hint" data-role="links-note" hidden></p><svg data-role="links" class="links-svg"></svg>',
    role: 'links',
    exported: '[data-role=links]',
    requests: ({ heads }) => [linksRequest(heads, LINK_LIMITS)],
    draw({ trace, state, strings, el, set }) {
      linksLegend(el('links-legend'), trace, { head: state.head, strings });
      const { shown, total, every } = drawLinks(d3.select(el('links')), trace, {
        head: state.head,
        focus: state.focus,
        pair: state.pair,
        strings,
        // A locked query is also the softmax view's and the stage's query.
        onFocus: (focus) => set(focus?.locked && focus.side === 'query' ? { focus, query: focus.index } : { focus }),
      });
      const notes = [shown === total ? '' : strings.linksCapped(shown, total), every ? strings.linksImage(every) : ''];
      el('links-note').hidden = !notes.join('');
      el('links-note').textContent = notes.join(' ').trim();
    },
  },
  heatmap: {
    panel:
      '<p class="hint" data-i18n="heatmapHint"></p><button type="button" data-role="table-toggle" data-i18n="showTable" aria-expanded="false"></button><svg data-role="heatmaps" class="heatmap-svg" role="img"></svg><div data-role="heatmap-tables" hidden></div>',
    role: 'heatmaps',
    exported: '[data-role=heatmaps]',
    requests: ({ state, heads }) => [
      stepRequest('mask'),
      ...heads.map((h) => stepRequest(heatmapStepFor(state.step), h, heatmapSide(heads.length))),
    ],
    draw({ trace, state, strings, el, width, get, set }) {
      // A cell picked here is highlighted in the links view, for its head when one is shown.
      const onPair = (pair) => set({ pair, view: 'links', head: state.head === 'all' ? 'all' : pair.head });
      const o = { step: state.step, head: state.head, strings };
      drawHeatmaps(d3.select(el('heatmaps')), trace, { ...o, width: Math.max(320, width - 16), onPair });
      const toggle = el('table-toggle');
      // Its text is kept by explorer.js renderTexts too (data-i18n), in views not drawn.
      toggle.dataset.i18n = state.tables ? 'hideTable' : 'showTable';
      toggle.textContent = strings[toggle.dataset.i18n];
      toggle.setAttribute('aria-expanded', String(state.tables));
      toggle.onclick = () => set({ tables: !get().tables });
      el('heatmap-tables').hidden = !state.tables;
      if (state.tables) heatmapTables(el('heatmap-tables'), trace, o);
    },
  },
  matrices: {
    panel:
      '<p class="hint" data-i18n="matricesHint"></p><svg data-role="matrices" class="matrices-svg" role="img"></svg>',
    role: 'matrices',
    exported: '[data-role=matrices]',
    requests: ({ head }) => MATRICES.map(([name]) => stepRequest(name, matrixHead(name, head))),
    draw: ({ trace, el, head, width }) =>
      drawMatrices(el('matrices'), trace, { head, width: Math.max(600, width - 16) }),
  },
  softmax: {
    panel: '<p class="hint" data-i18n="softmaxHint"></p><div data-role="softmax"></div>',
    role: 'softmax',
    exported: '.softmax-charts',
    requests: ({ trace, head, query }) => [
      ...['scores', 'masked', 'weights'].map((name) => rowRequest(name, head, query)),
      spreadRequest(['scores', 'scaled'], d3.range(trace.heads)),
    ],
    draw({ trace, state, strings, el, set }) {
      drawSoftmax(el('softmax'), trace, {
        head: state.head,
        query: state.query,
        strings,
        scale: state.scale,
        temperature: state.temperature,
        onQuery: (query) => set({ query }),
        onTemperature: (temperature) => set({ temperature }),
      });
    },
  },
};

export const VIEW_KEYS = Object.keys(VIEWS);
