// The page: one explorer with its whole state in the URL.
import './app.css';
// d3 declares itself free of side effects, so the bundler would drop the module that adds
// selection.transition(): import it for its side effect.
import 'd3-transition';
import { defaultLanguage, strings } from './i18n.js';
import { defaultState, stateFromURL, stateToURL } from './state.js';
import { createExplorer } from './explorer/explorer.js';
import { sharedEngine } from './explorer/engine.js';
import { embedSnippet, pageLink } from './explorer/share.js';

const base = defaultState(defaultLanguage());
const { state, notices } = stateFromURL(location.search, base);
const engine = await sharedEngine();
let urlTimer;
document.getElementById('loading').hidden = true;

const explorer = createExplorer(document.getElementById('app'), {
  engine,
  state,
  keyTarget: document,
  shareLinks: { page: (s) => pageLink(s, base), embed: (s) => embedSnippet(s, base) },
  onChange(s) {
    const lang = s.lang === 'zh' ? 'zh-CN' : 'en';
    if (document.documentElement.lang !== lang) document.documentElement.lang = lang;
    document.title = strings(s.lang).title;
    // replaceState costs milliseconds: write the URL once typing pauses, not per keystroke.
    clearTimeout(urlTimer);
    urlTimer = setTimeout(
      () => history.replaceState(null, '', `${location.pathname}${stateToURL(s, base)}${location.hash}`),
      150,
    );
  },
});
if (notices.length) explorer.showNotice(strings(state.lang).ignoredURL(notices.join(', ')));
window.attentionExplorer = explorer; // for the console and for tests
