// The page: one explorer with its whole state in the URL.
// First: its error listeners must exist before any other module runs.
import { startPage } from './startup.js';
import './app.css';
// d3 declares itself free of side effects, so the bundler would drop the module that adds
// selection.transition(): import it for its side effect.
import 'd3-transition';
import { defaultLanguage, strings } from './i18n.js';
import { defaultState, stateFromURL } from './state.js';
import { createExplorer } from './explorer/explorer.js';
import { VIEW_KEYS } from './views/registry.js';
import { sharedEngine } from './explorer/engine.js';
import { embedLink, embedSnippet, figureLink, figureSnippet, MAX_LINK_CHARS, pageLink } from './explorer/share.js';
import { pageKind } from './page-kind.js';
import { handoffId, MODEL_PARAM, takeModel } from './model-handoff.js';

await startPage(async () => {
  const base = defaultState(defaultLanguage());
  // ?model=local:<id>: a model the playground handed over (model-handoff.js), not a link value.
  const search = new URLSearchParams(location.search);
  const handed = handoffId(search.get(MODEL_PARAM));
  if (handed) search.delete(MODEL_PARAM);
  const { state, notices, repeated } = stateFromURL(`?${search}`, base, VIEW_KEYS);
  // The first `model` value is the one read (as every key's): a later one is repeated.
  if (handed && new URLSearchParams(location.search).getAll(MODEL_PARAM).length > 1) repeated.unshift(MODEL_PARAM);
  const engine = await sharedEngine({ threads: true });
  let urlTimer;
  let explorer = null; // onChange runs once inside createExplorer, before it returns

  // What a link leaves out, in the current language (null when it keeps everything).
  const linkNote = (s, fit) =>
    fit.sentenceLeftOut ? strings(s.lang).linkTooLong(fit.fullLength, MAX_LINK_CHARS) : null;

  // The notice: link values that were ignored, and what a link to this state leaves out.
  function showNotes(s, fit) {
    const notes = [
      notices.length ? strings(s.lang).ignoredURL(notices.join(', ')) : null,
      repeated.length ? strings(s.lang).repeatedURL(repeated.join(', ')) : null,
      linkNote(s, fit),
    ];
    explorer?.showNotice(notes.filter(Boolean).join('\n') || null);
  }

  explorer = createExplorer(document.getElementById('app'), {
    engine,
    state,
    keyTarget: document,
    shareLinks: {
      page(s) {
        const fit = pageLink(s, base);
        return { text: fit.link, note: linkNote(s, fit) };
      },
      embed: (s) => ({ text: embedSnippet(s, base), note: linkNote(s, embedLink(s, base)) }),
      // A compact figure at a size of FIGURE_SIZES, and its link (the choices' preview).
      figure: (s, size) => ({
        text: figureSnippet(s, base, size),
        link: figureLink(s, base).link,
        note: linkNote(s, figureLink(s, base)),
      }),
    },
    onChange(s) {
      // Setting the same lang restyles the whole page (150–190 ms with 2,048 chips).
      const lang = s.lang === 'zh' ? 'zh-CN' : 'en';
      if (document.documentElement.lang !== lang) document.documentElement.lang = lang;
      if (document.title !== strings(s.lang).title) document.title = strings(s.lang).title;
      // The address bar is a link too: a reload must reach the server within its limit.
      const fit = pageLink(s, base);
      showNotes(s, fit);
      // replaceState costs milliseconds: write the URL once typing pauses, not per keystroke.
      clearTimeout(urlTimer);
      urlTimer = setTimeout(() => history.replaceState(null, '', `${fit.link}${location.hash}`), 150);
    },
  });
  // The single file's embed code would point at an embed.html that is not beside it.
  if (pageKind.singleFile) document.querySelector('[data-role=copy-embed]').hidden = true;
  showNotes(explorer.store.get(), pageLink(explorer.store.get(), base));
  if (handed) {
    const s = strings(explorer.store.get().lang);
    try {
      const entry = await takeModel(handed);
      if (entry) await explorer.openModel(entry.bytes, entry.name, entry.origin);
      else explorer.showNotice(s.modelGone);
    } catch (error) {
      // A record that is there but no model's (HandoffError), or IndexedDB refusing (private
      // windows, a full disk): the page stays on random weights and says which.
      explorer.showNotice(
        error.code === 'MALFORMED_HANDOFF'
          ? s.modelDamaged(error.field, error.message)
          : s.handoffFailed(error.message),
      );
    }
  }
  window.attentionExplorer = explorer; // for the console and for tests
});
