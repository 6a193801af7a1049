// The embed page (embed.html): minimal chrome for an iframe. Flags in the URL hide parts:
// controls=0, stepper=0, explain=0, views=0; compact=1 shows one view and its caption
// (chrome-flags.js). It tells the parent its height through
// postMessage, and accepts one well-formed message to change its state.
// First: its error listeners must exist before any other module runs.
import { startPage } from './startup.js';
import './app.css';
import 'd3-transition';
import { defaultLanguage, strings } from './i18n.js';
import { defaultState, stateFromURL } from './state.js';
import { createExplorer } from './explorer/explorer.js';
import { VIEW_KEYS } from './views/registry.js';
import { sharedEngine } from './explorer/engine.js';
import { CHROME_FLAGS, chromeFrom } from './chrome-flags.js';

await startPage(async () => {
  const params = new URLSearchParams(location.search);
  const chrome = chromeFrom((flag) => params.get(flag));
  const repeatedFlags = []; // read at their first value, as every key of a link
  for (const flag of CHROME_FLAGS) {
    if (params.getAll(flag).length > 1) repeatedFlags.push(flag);
    params.delete(flag);
  }
  const base = defaultState(defaultLanguage());
  const parsed = stateFromURL(params.toString(), base, VIEW_KEYS);
  const { state, notices } = parsed;
  const repeated = [...repeatedFlags, ...parsed.repeated];
  const engine = await sharedEngine({ threads: true });

  // The body's own height, not the document's scrollHeight: that is at least the iframe's
  // current height, so an iframe could grow but never shrink back.
  function postHeight() {
    if (window.parent !== window) {
      const height = Math.ceil(document.body.getBoundingClientRect().height);
      window.parent.postMessage({ type: 'attention-explorer:height', height }, '*');
    }
  }

  const explorer = createExplorer(document.getElementById('app'), {
    engine,
    state,
    chrome,
    keyTarget: document,
    onChange: () => requestAnimationFrame(postHeight),
  });
  const notes = [
    notices.length && strings(state.lang).ignoredURL(notices.join(', ')),
    repeated.length && strings(state.lang).repeatedURL(repeated.join(', ')),
  ].filter(Boolean);
  if (notes.length) explorer.showNotice(notes.join('\n'));
  new ResizeObserver(postHeight).observe(document.body);

  // { type: 'attention-explorer:set', state: { step: 7, view: 'heatmap', ... } } from the parent.
  // Values go through the same parser as the URL: anything else is ignored, nothing is evaluated.
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (event.source !== window.parent || !data || typeof data !== 'object' || data.type !== 'attention-explorer:set')
      return;
    if (!data.state || typeof data.state !== 'object') return;
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(data.state)) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
        query.set(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
      }
    }
    const { state: next, notices: rejected } = stateFromURL(query.toString(), explorer.store.get(), VIEW_KEYS);
    if (rejected.length) return;
    explorer.store.set(next);
  });
});
