// The views under the stage, registered once. The template's tabs and panels, what the page
// loads for a view (explorer/needs.js) and how it draws (explorer/render.js) read VIEWS; the
// state's allowed `view` values are ../view-keys.js's VIEW_KEYS, in the same order (this file
// refuses to load if the two differ), so that the state reads them without loading d3. Adding a
// view is its module, one entry here, its key in view-keys.js, and its `view.<key>` name and
// `<key>Hint` in i18n.js (docs/architecture.md, "Adding one thing"). Each entry:
//   panel: the tab panel's markup (static text only: no user data goes through innerHTML),
//   role: the data-role of the element it draws into (emptied when there is no trace),
//   exported: a selector for the SVG that the SVG/PNG export takes,
//   requests(ctx): what it reads from the trace (requests.js), for
//     ctx = { trace (or only its sizes), state, head (0-based), heads: number[], query },
//   draw(ctx): draws, for ctx = { trace, state, strings, head, heads, query,
//     el(role): an element of the panel, width: the views' width in px, get/set: the store's,
//     figure: the frame's { width, height } where the view is a figure (the compact embed), else null };
//     each view's module exports it (drawLinksView …): every view draws from this one argument.
// A view's handlers only set state; the store's change draws it again.
import * as d3 from 'd3';
import { drawLinksView, LINK_LIMITS } from './links.js';
import { drawHeatmapView, heatmapSide, heatmapStepsFor } from './heatmap.js';
import { drawMatricesView, matricesOf, matrixHead } from './matrices.js';
import { drawSoftmaxView } from './softmax.js';
import { linksRequest, rowRequest, spreadRequest, stepRequest } from '../requests.js';
import { VIEW_KEYS } from '../view-keys.js';
import { isLinear } from '../steps.js';
import { viewNote } from './view-note.js';

export const VIEWS = {
  links: {
    panel: `<p class="hint" data-i18n="linksHint"></p>${viewNote('links')}<p class="hint untrained" data-i18n="untrainedNote"></p><div class="links-kind" data-role="links-kind" role="group" hidden></div><div class="links-legend" data-role="links-legend"></div><p class="hint" data-role="links-note" hidden></p><svg data-role="links" class="links-svg"></svg>`,
    role: 'links',
    exported: '[data-role=links]',
    // Linear attention: softmax's and the implied weights both, for the view's toggle.
    requests: ({ heads, state }) =>
      isLinear(state)
        ? [linksRequest(heads, LINK_LIMITS), linksRequest(heads, LINK_LIMITS, 'linearWeights')]
        : [linksRequest(heads, LINK_LIMITS)],
    draw: drawLinksView,
  },
  heatmap: {
    panel: `<p class="hint" data-i18n="heatmapHint"></p>${viewNote('heatmap')}<p class="hint" data-role="heatmap-linear-hint" hidden></p><button type="button" data-role="table-toggle" data-i18n="showTable" aria-expanded="false"></button><svg data-role="heatmaps" class="heatmap-svg" role="img"></svg><div data-role="heatmap-tables" hidden></div>`,
    role: 'heatmaps',
    exported: '[data-role=heatmaps]',
    requests: ({ state, heads }) => [
      stepRequest('mask'),
      ...heatmapStepsFor(state).flatMap((name, _, names) =>
        heads.map((h) => stepRequest(name, h, heatmapSide(heads.length * names.length))),
      ),
    ],
    draw: drawHeatmapView,
  },
  matrices: {
    panel:
      '<p class="hint" data-i18n="matricesHint"></p><p class="hint" data-i18n="sharedScales"></p><svg data-role="matrices" class="matrices-svg" role="img"></svg><div data-role="matrices-arithmetic" class="arithmetic" aria-live="polite" hidden></div>',
    role: 'matrices',
    exported: '[data-role=matrices]',
    requests: ({ trace, head }) => matricesOf(trace).map(([name]) => stepRequest(name, matrixHead(name, head))),
    draw: drawMatricesView,
  },
  softmax: {
    panel: `<p class="hint" data-i18n="softmaxHint"></p>${viewNote('softmax')}<p class="hint" data-role="softmax-linear" hidden></p><div data-role="softmax"></div>`,
    role: 'softmax',
    exported: '.softmax-charts',
    requests: ({ trace, head, query }) => [
      ...['scores', 'masked', 'weights'].map((name) => rowRequest(name, head, query)),
      spreadRequest(['scores', 'scaled'], d3.range(trace.heads)),
    ],
    draw: drawSoftmaxView,
  },
};

// The state validates `view` against the leaf list (it must not load the views): the two agree.
if (Object.keys(VIEWS).join() !== VIEW_KEYS.join()) {
  throw new Error(
    `views/registry.js has views ${Object.keys(VIEWS)}, view-keys.js lists ${VIEW_KEYS}: make them the same`,
  );
}

export { VIEW_KEYS };
