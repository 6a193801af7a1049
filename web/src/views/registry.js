// The views under the stage, registered once, in tab order. Adding a view is its module, which
// exports one descriptor, and its line in VIEW_LIST (docs/architecture.md, "Adding one thing").
// The template's tabs and panels, what the page loads for a view (explorer/needs.js) and how it
// draws (explorer/render.js) read VIEWS; the state's parser takes VIEW_KEYS as an argument
// (stateFromURL), so that the state, the server and node tools read links without loading d3.
// Each descriptor:
//   key: the link's `view` value and the tab's data-view,
//   strings: { en: { name, hint, ... }, zh: { name, hint, ... } }: the tab's name (`view.<key>`
//     in the page's strings), the panel's hint (`<key>Hint`) and any other string of the view's
//     own under its key, added to i18n.js's tables here (a key they hold already is refused),
//   panel: the tab panel's markup (static text only: no user data goes through innerHTML),
//   role: the data-role of the element it draws into (emptied when there is no trace),
//   exported: a selector for the SVG that the SVG/PNG export takes,
//   headLegend: true where the view colours by head, so the exported figure gets a legend of the
//     heads drawn (optional: none),
//   requests(ctx): what it reads from the trace (requests.js), for
//     ctx = { trace (or only its sizes), state, head (0-based), heads: number[], query },
//   draw(ctx): draws, for ctx = { trace, state, strings, head, heads, query,
//     el(role): an element of the panel, width: the views' width in px, get/set: the store's,
//     figure: the frame's { width, height } where the view is a figure (the compact embed), else null };
//     every view draws from this one argument.
// A view's handlers only set state; the store's change draws it again.
import { LINKS_VIEW } from './links.js';
import { HEATMAP_VIEW } from './heatmap.js';
import { MATRICES_VIEW } from './matrices.js';
import { SOFTMAX_VIEW } from './softmax.js';
import { addStrings, LANGUAGES } from '../i18n.js';

const VIEW_LIST = [LINKS_VIEW, HEATMAP_VIEW, MATRICES_VIEW, SOFTMAX_VIEW];

export const VIEWS = Object.fromEntries(VIEW_LIST.map((view) => [view.key, view]));
/** The allowed `view` values of a link, in tab order: what the page passes to stateFromURL. */
export const VIEW_KEYS = Object.freeze(VIEW_LIST.map((view) => view.key));

if (VIEW_KEYS.length !== new Set(VIEW_KEYS).size) {
  throw new Error(`views/registry.js: a view key twice in ${VIEW_KEYS}`);
}

/** The views' strings in `lang`: each one's name and hint, and any other string of its own. */
function viewStrings(lang) {
  return Object.fromEntries(
    VIEW_LIST.flatMap(({ key, strings }) => {
      const { name, hint, ...own } = strings[lang] ?? {};
      if (typeof name !== 'string' || typeof hint !== 'string') {
        throw new Error(`views/registry.js: the view ${key} has no ${lang} name and hint`);
      }
      return [[`view.${key}`, name], [`${key}Hint`, hint], ...Object.entries(own)];
    }),
  );
}
addStrings(Object.fromEntries(LANGUAGES.map((lang) => [lang, viewStrings(lang)])), 'views/registry.js');
