// <attention-explorer sentence="我 爱 吃 火锅" heads="2" step="softmax" view="heatmap"></attention-explorer>
// One script tag defines the element. Each instance renders in its own shadow root; all share
// one WASM engine. Attributes are live: changing one updates that explorer.
import 'd3-transition';
import css from 'virtual:explorer-css';
import { defaultLanguage, LANGUAGES, strings } from './i18n.js';
import { defaultState } from './state.js';
import { createExplorer } from './explorer/explorer.js';
import { sharedEngine } from './explorer/engine.js';
import { ATTRIBUTES, languageOf, stateFromAttributes } from './attributes.js';
import { CHROME_FLAGS, chromeFrom } from './chrome-flags.js';

// @font-face only works in the document, not in a shadow root: split those rules out.
const fontFaces = css.match(/@font-face\s*{[^}]*}/g) ?? [];
const documentSheet = new CSSStyleSheet();
documentSheet.replaceSync(`${fontFaces.join('\n')}\n${css.match(/\.tooltip\s*{[^}]*}/)?.[0] ?? ''}`);
const shadowSheet = new CSSStyleSheet();
shadowSheet.replaceSync(css.replace(/@font-face\s*{[^}]*}/g, ''));

/** The language of the page around `element` (its nearest ancestor with a lang), or null. */
function hostLanguage(element) {
  return languageOf(element.parentElement?.closest('[lang]')?.getAttribute('lang'));
}

class AttentionExplorerElement extends HTMLElement {
  static observedAttributes = [...Object.keys(ATTRIBUTES), ...CHROME_FLAGS];

  #explorer = null;
  #base = null;
  // Watches the lang of the page around the element (see #followHostLanguage).
  #langObserver = null;

  async connectedCallback() {
    if (this.#explorer || this.shadowRoot) return;
    if (!document.adoptedStyleSheets.includes(documentSheet)) {
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, documentSheet];
    }
    const shadow = this.attachShadow({ mode: 'open' });
    shadow.adoptedStyleSheets = [shadowSheet];
    const root = document.createElement('div');
    shadow.append(root);
    try {
      // A lang the page does not have falls back like any bad attribute (and is named below).
      const lang = this.getAttribute('lang');
      this.#base = defaultState(LANGUAGES.includes(lang) ? lang : defaultLanguage());
      const { state, notices } = stateFromAttributes(this, this.#base, hostLanguage(this));
      const chrome = chromeFrom((flag) => this.getAttribute(flag));
      // Never a 0 px box while the engine loads (a slow network, or one that never answers).
      const loading = document.createElement('p');
      loading.className = 'startup-loading';
      loading.setAttribute('role', 'status');
      loading.textContent = strings(state.lang).loading;
      root.replaceChildren(loading);
      const engine = await sharedEngine();
      this.#explorer = createExplorer(root, {
        engine,
        state,
        chrome,
        onChange: (s) => this.dispatchEvent(new CustomEvent('statechange', { detail: { ...s } })),
      });
      this.#showIgnored(notices, state.lang);
      this.#followHostLanguage();
      this.dispatchEvent(new Event('ready'));
    } catch (error) {
      // Never an empty box that stays empty: say what happened, where the explorer would be.
      const message = document.createElement('p');
      message.className = 'startup-error';
      message.setAttribute('role', 'alert');
      message.textContent = strings(this.#base?.lang).startupError(error?.message ?? String(error));
      root.replaceChildren(message);
      this.dispatchEvent(new CustomEvent('error', { detail: error }));
      console.error(error);
    }
  }

  attributeChangedCallback() {
    if (!this.#explorer) return;
    const { state, notices } = stateFromAttributes(this, this.#base, hostLanguage(this));
    this.#showIgnored(notices, state.lang);
    this.#explorer.store.set(state);
  }

  /** When the host page changes its lang (a language switch), an element without one follows. */
  #followHostLanguage() {
    this.#langObserver = new MutationObserver(() => {
      const lang = hostLanguage(this);
      if (this.#explorer && !this.hasAttribute('lang') && lang && lang !== this.#explorer.store.get().lang)
        this.#explorer.store.set({ lang });
    });
    this.#langObserver.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['lang'],
      subtree: true,
    });
  }

  #showIgnored(notices, lang) {
    this.#explorer.showNotice(notices.length ? strings(lang).ignoredAttributes(notices.join(', ')) : null);
  }

  disconnectedCallback() {
    this.#langObserver?.disconnect();
    this.#langObserver = null;
    this.#explorer?.destroy();
    this.#explorer = null;
    this.shadowRoot?.replaceChildren();
  }

  /** The explorer inside (store, trace, viewSVG(), traceCSV(), traceJSON()). */
  get explorer() {
    return this.#explorer;
  }
}

if (!customElements.get('attention-explorer')) customElements.define('attention-explorer', AttentionExplorerElement);
