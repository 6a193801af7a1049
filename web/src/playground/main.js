// The training playground (playground.html): pick a task and a model, train it in a Web Worker,
// watch loss, accuracy and every head's attention; try your own example; run the √d_k
// experiment; download, load or hand the model to the explorer. The state is in the URL.
// This module only wires the parts, each of which states its shape at its top:
//
//   store (page-store.js: the link's fields and the page's own) ──change──► schedule.js
//        ▲                                            frames: page-view.js frameParts → render.js
//        │                                            the link, written when a link field changed
//   train-session.js  the worker's conversation: configure, play, progress, answers, save, load
//   page-view.js      texts, controls, buttons, status     actions.js   the controls and keys
//   own-text.js, dk-panel.js: the text and √d_k panels      messages.js  the notice and the failure
//
// First: its error listeners must exist before any other module runs.
import { startPage } from '../startup.js';
import '../app.css';
import './playground.css';
import { byRole } from '../dom.js';
import { defaultLanguage } from '../i18n.js';
import { pageKind } from '../page-kind.js';
import { startTrainingWorker } from './client.js';
import { wireExperiment } from './dk-panel.js';
import { wireExportHf } from './export-hf.js';
import { strings } from './i18n.js';
import { messageLines } from './messages.js';
import { wireOwnText } from './own-text.js';
import { createPageStore } from './page-store.js';
import { createPageView, frameParts } from './page-view.js';
import { createSchedule } from './schedule.js';
import { defaultState, queryOf, stateFromURL } from './state.js';
import { MARKUP } from './template.js';
import { createTrainSession } from './train-session.js';
import { wireActions } from './actions.js';

await startPage(async () => {
  const parsed = stateFromURL(location.search, defaultState(defaultLanguage()));
  const { chrome } = parsed;
  const store = createPageStore(parsed.state);
  const state = store.get;
  const root = document.getElementById('app');
  root.innerHTML = MARKUP; // static markup, no user data
  const $ = byRole(root);
  const t = () => strings(state().lang);
  const worker = await startTrainingWorker();
  const lines = messageLines(root, t);

  const schedule = createSchedule({
    store,
    parts: frameParts({ root, store, t, experiment: () => experiment }),
    writeLink: () => {
      const chromeQuery = Object.entries(chrome)
        .map(([k, v]) => `&${k}=${v ? 1 : 0}`)
        .join('');
      // The single file is both pages: its playground keeps ?page=playground (single.js).
      const page = pageKind.singleFile ? 'page=playground&' : '';
      window.history.replaceState(null, '', `?${page}${queryOf(state())}${chromeQuery}${location.hash}`);
    },
  });
  const { redraw } = schedule;
  const view = createPageView({
    root,
    $,
    store,
    t,
    threads: worker.threads,
    chrome,
    lines,
    panels: () => ({ ownText, experiment }),
    redraw,
  });
  const session = createTrainSession({ worker, store, view, schedule, lines, ownText: () => ownText });
  wireExportHf({ $, store, t, worker, lines });
  /** Sets fields of the state (a link field also writes the link); with `reconfigure`, a new
   * model from it too; then the texts. */
  function setState(patch, { reconfigure = false } = {}) {
    store.set(patch);
    if (reconfigure) session.configure();
    view.applyTexts();
  }

  // ---- the √d_k experiment, in a worker of its own (the training above keeps its state) ----
  const experiment = wireExperiment(root, {
    t,
    state,
    setState,
    startWorker: startTrainingWorker,
    fail: lines.fail,
    redraw,
  });
  const ownText = wireOwnText(root, {
    t,
    state,
    setState,
    send: worker.send,
    limits: worker.corpusLimits,
    fail: lines.fail,
    format: view.format,
    parameters: () => state().info?.parameterCount ?? 0,
    train: session.trainText,
  });
  wireActions({ root, $, store, setState, session, schedule, lines });
  // Leaving the page frees the worker (and its WASM memory) at once.
  addEventListener('pagehide', () => worker.terminate());

  // ---- embedding: flags hide parts; the height goes to the parent page ----
  if (chrome.embed) root.querySelectorAll('[data-chrome="header"]').forEach((n) => (n.hidden = true));
  for (const part of ['controls', 'curves', 'heatmaps', 'try']) {
    if (chrome[part] === false) root.querySelectorAll(`[data-chrome="${part}"]`).forEach((n) => (n.hidden = true));
  }
  if (window.parent !== window) {
    new ResizeObserver(() => {
      const height = Math.ceil(document.body.getBoundingClientRect().height);
      window.parent.postMessage({ type: 'attention-playground:height', height }, '*');
    }).observe(document.body);
  }

  if (parsed.notices.length || parsed.repeated.length) {
    lines.notice((s) =>
      [
        parsed.notices.length && s.ignoredURL(parsed.notices.join(', ')),
        parsed.repeated.length && s.repeatedURL(parsed.repeated.join(', ')),
      ]
        .filter(Boolean)
        .join(' '),
    );
  }
  view.applyTexts();
  schedule.writeLinkSoon(); // the link as this page writes it: preset values left out, bad ones dropped
  session.configure();
  if (state().experiment) experiment.run();
  window.attentionPlayground = {
    /** The page's store: the link's fields and the page's own (page-store.js). */
    get state() {
      return state();
    },
    get history() {
      return state().history;
    },
    /** The √d_k panel's run: { setting, seed, rows, exactMatch }. */
    get experiment() {
      return experiment.view;
    },
    /** The vocabulary's progress of the last text built: the fractions the bar showed. */
    get textProgress() {
      return ownText.progressSeen;
    },
  }; // for tests and the console
});
