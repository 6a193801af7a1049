// The views under the stage, registered once. The template's tabs and panels, the state's
// allowed `view` values, what the page loads for a view (explorer/needs.js) and how it draws
// (explorer/render.js) all read VIEWS, in this order; adding a view is one entry here plus its
// `view.<key>` name in i18n.js. Each entry:
//   panel: the tab panel's markup (static text only: no user data goes through innerHTML),
//   role: the data-role of the element it draws into (emptied when there is no trace),
//   exported: a selector for the SVG that the SVG/PNG export takes,
//   requests(ctx): what it reads from the trace (requests.js), for
//     ctx = { trace (or only its sizes), state, head (0-based), heads: number[], query },
//   draw(ctx): draws, for ctx = { trace, state, strings, head, heads, query,
//     el(role): an element of the panel, width: the views' width in px, get/set: the store's }.
// A view's handlers only set state; the store's change draws it again.
import * as d3 from 'd3';
import { drawLinks, linksLegend, LINK_LIMITS } from './links.js';
import { drawHeatmaps, heatmapSide, heatmapStepFor, heatmapTables, stepMaking } from './heatmap.js';
import { drawMatrices, matricesOf, matrixHead } from './matrices.js';
import { drawSoftmax } from './softmax.js';
import { linksRequest, rowRequest, spreadRequest, stepRequest } from '../requests.js';
import { stepAt } from '../steps.js';
import { addsPositionalEncoding } from '../state.js';
import { setText } from '../dom.js';
import { cellIn, drawArithmetic, pickedFrom } from './arithmetic.js';
import { VIEW_KEYS } from '../view-keys.js';

/** The note over a view (class view-note, data-role `<view>-shows`). */
const shows = (view) => `<p class="hint view-note" data-role="${view}-shows" hidden></p>`;

/**
 * Says what a view shows when the stage shows something else: another step (`step`, 1-based,
 * e.g. the links' weights of step 7 while the stage is at step 2) or, under "all heads", one
 * head only (`oneHead`).
 */
function sayWhatItShows(note, { trace, state, strings }, { step = null, oneHead = false }) {
  const parts = [
    step && step !== state.step ? strings.viewShowsStep(step, strings.steps[stepAt(step).key].title, state.step) : '',
    oneHead && state.head === 'all' && trace.heads > 1 ? strings.viewShowsHead(0) : '',
  ].filter(Boolean);
  note.hidden = !parts.length;
  setText(note, parts.join(' '));
}

export const VIEWS = {
  links: {
    panel: `<p class="hint" data-i18n="linksHint"></p>${shows('links')}<p class="hint untrained" data-i18n="untrainedNote"></p><div class="links-legend" data-role="links-legend"></div><p class="hint" data-role="links-note" hidden></p><svg data-role="links" class="links-svg"></svg>`,
    role: 'links',
    exported: '[data-role=links]',
    requests: ({ heads }) => [linksRequest(heads, LINK_LIMITS)],
    draw(ctx) {
      const { trace, state, strings, el, set, width } = ctx;
      sayWhatItShows(el('links-shows'), ctx, { step: stepMaking('weights') });
      linksLegend(el('links-legend'), trace, { head: state.head, strings });
      const { shown, total, every } = drawLinks(d3.select(el('links')), trace, {
        head: state.head,
        focus: state.focus,
        pair: state.pair,
        strings,
        width,
        // A locked query is also the softmax view's and the stage's query.
        onFocus: (focus) => set(focus?.locked && focus.side === 'query' ? { focus, query: focus.index } : { focus }),
      });
      const notes = [shown === total ? '' : strings.linksCapped(shown, total), every ? strings.linksImage(every) : ''];
      el('links-note').hidden = !notes.join('');
      setText(el('links-note'), notes.join(' ').trim());
    },
  },
  heatmap: {
    panel: `<p class="hint" data-i18n="heatmapHint"></p>${shows('heatmap')}<button type="button" data-role="table-toggle" data-i18n="showTable" aria-expanded="false"></button><svg data-role="heatmaps" class="heatmap-svg" role="img"></svg><div data-role="heatmap-tables" hidden></div>`,
    role: 'heatmaps',
    exported: '[data-role=heatmaps]',
    requests: ({ state, heads }) => [
      stepRequest('mask'),
      ...heads.map((h) => stepRequest(heatmapStepFor(state.step), h, heatmapSide(heads.length))),
    ],
    draw(ctx) {
      const { trace, state, strings, el, width, get, set } = ctx;
      sayWhatItShows(el('heatmap-shows'), ctx, { step: stepMaking(heatmapStepFor(state.step)) });
      // A cell picked here is marked, here and in the links view; the page stays in the heatmap.
      const onPair = (pair) => set({ pair });
      const o = { step: state.step, head: state.head, strings };
      drawHeatmaps(d3.select(el('heatmaps')), trace, { ...o, width, pair: state.pair, onPair });
      const toggle = el('table-toggle');
      // Its text is kept by explorer/render.js renderTexts too (data-i18n), in views not drawn.
      toggle.dataset.i18n = state.tables ? 'hideTable' : 'showTable';
      setText(toggle, strings[toggle.dataset.i18n]);
      toggle.setAttribute('aria-expanded', String(state.tables));
      toggle.onclick = () => set({ tables: !get().tables });
      el('heatmap-tables').hidden = !state.tables;
      if (state.tables) heatmapTables(el('heatmap-tables'), trace, o);
    },
  },
  matrices: {
    panel:
      '<p class="hint" data-i18n="matricesHint"></p><p class="hint" data-i18n="sharedScales"></p><svg data-role="matrices" class="matrices-svg" role="img"></svg><div data-role="matrices-arithmetic" class="arithmetic" aria-live="polite" hidden></div>',
    role: 'matrices',
    exported: '[data-role=matrices]',
    requests: ({ trace, head }) => matricesOf(trace).map(([name]) => stepRequest(name, matrixHead(name, head))),
    draw({ trace, state, strings, el, head, width, set }) {
      const panel = el('matrices-arithmetic');
      drawMatrices(el('matrices'), trace, {
        head,
        width,
        positionalEncoding: addsPositionalEncoding(state),
        strings,
        // A cell clicked here shows its arithmetic here, under the matrices (issue 11 §3), not
        // under the stage: an embed may show the views alone.
        picked: cellIn(state, 'matrices'),
        onCell: (operand, row, col) => {
          const cell = pickedFrom(operand, row, col, 'matrices');
          if (!cell) return;
          panel.reveal = true;
          set({ cell });
        },
      });
      drawArithmetic(panel, trace, state, strings, () => set({ cell: null }), 'matrices');
      // Under a tall drawing the panel may start below the window: the picked cell's panel is brought into it.
      if (panel.reveal && !panel.hidden) panel.scrollIntoView({ block: 'nearest' });
      panel.reveal = false;
    },
  },
  softmax: {
    panel: `<p class="hint" data-i18n="softmaxHint"></p>${shows('softmax')}<div data-role="softmax"></div>`,
    role: 'softmax',
    exported: '.softmax-charts',
    requests: ({ trace, head, query }) => [
      ...['scores', 'masked', 'weights'].map((name) => rowRequest(name, head, query)),
      spreadRequest(['scores', 'scaled'], d3.range(trace.heads)),
    ],
    draw(ctx) {
      const { trace, state, strings, el, set, width } = ctx;
      sayWhatItShows(el('softmax-shows'), ctx, { oneHead: true });
      drawSoftmax(el('softmax'), trace, {
        head: state.head,
        query: state.query,
        strings,
        scale: state.scale,
        width,
        temperature: state.temperature,
        onQuery: (query) => set({ query }),
        onTemperature: (temperature) => set({ temperature }),
      });
    },
  },
};

// The state validates `view` against the leaf list (it must not load the views): the two agree.
if (Object.keys(VIEWS).join() !== VIEW_KEYS.join()) {
  throw new Error(
    `views/registry.js has views ${Object.keys(VIEWS)}, view-keys.js lists ${VIEW_KEYS}: make them the same`,
  );
}

export { VIEW_KEYS };
