// One explorer: a store of state → the engine's trace → the views. Several can live on one
// page (the web component); each finds its elements under its own root. This module only
// wires the parts, each of which states its shape at its top:
//
//   store (state.js) ──change──► schedule.js ──► compute.js   opens traces in the engine's worker
//                                     │                         (only module that calls the engine)
//                                     └────────► render.js    draws the trace and the state
//   actions.js: the page's buttons (set state, export)   messages.js: the message and the notice
//
// A change first loads what the state needs (needs.js), then draws synchronously.
import { buildControls } from '../controls.js';
import { strings as stringsFor } from '../i18n.js';
import { createStore } from '../state.js';
import { watchColorScheme } from '../scales.js';
import { byRole } from '../dom.js';
import { buildStepper } from '../views/stepper.js';
import { explorerMarkup } from './template.js';
import { traceCSV, traceJSON } from './export.js';
import { createModelPanel } from '../models/panel.js';
import { createComputer, TRACE_FIELDS } from './compute.js';
import { createRenderer } from './render.js';
import { createScheduler } from './schedule.js';
import { createMessages } from './messages.js';
import { fitToFrame } from './compact-fit.js';
import { wireActions } from './actions.js';
import { createCostPanel } from './cost-panel.js';

/**
 * @param root an empty element to fill
 * @param o { engine, state, chrome: { header, controls, stepper, stage, explain, views, viewbar,
 *            share (all shown by default), caption (hidden), compact }, keyTarget,
 *            onChange(state), shareLinks: { page(state), embed(state) } }
 */
export function createExplorer(root, o) {
  root.classList.add('attention-explorer');
  root.innerHTML = explorerMarkup();
  const $ = byRole(root);
  const store = createStore(o.state);
  const chrome = {
    header: true,
    controls: true,
    stepper: true,
    stage: true,
    explain: true,
    views: true,
    viewbar: true,
    share: true,
    caption: false,
    ...o.chrome,
  };
  for (const el of root.querySelectorAll('[data-chrome]')) el.hidden = chrome[el.dataset.chrome] === false;
  // compact (chrome-flags.js): one view and its caption; CSS hides the rest, the model panel too.
  root.classList.toggle('compact', chrome.compact === true);
  const stopFitting = chrome.compact ? fitToFrame(root) : () => {};
  if (!chrome.explain) root.querySelector('.stage-row').classList.add('no-explain');
  const strings = () => stringsFor(store.get().lang);
  const { say, notice } = createMessages($, chrome);

  // The model panel is made last but one, as before the split (its first draw asks the
  // worker after the page's own setup); the computer asks it for models only later.
  let models = null;
  const computer = createComputer({
    engine: o.engine,
    models: { ready: (key) => models.ready(key) },
    store,
    strings,
    say,
    showEmpty: (empty) => ($('empty').hidden = !empty),
  });
  const { viewSVG } = wireActions({ root, $, store, strings, computer, notice, shareLinks: o.shareLinks });
  const stepper = buildStepper(root.querySelector('.stepper'), store, o.keyTarget ?? root);
  const renderer = createRenderer({
    root,
    $,
    store,
    strings,
    computer,
    stepper,
    threads: o.engine.threads,
    onChange: o.onChange,
    redraw: () => scheduler.render(store.get(), new Set()),
  });
  const scheduler = createScheduler({
    computer,
    renderer,
    onError: (error) => {
      // Also on the console: a bug in a draw is not the learner's input, and tests see it there.
      console.error(error);
      say(`${strings().engineError}: ${error.message}`);
    },
  });
  buildControls(root, store);
  // Head colours differ between light and dark: redraw when the scheme changes.
  const stopWatchingScheme = watchColorScheme(() => scheduler.render(store.get(), new Set()));
  models = createModelPanel(root, store, o.engine);
  const costs = createCostPanel({ $, store, engine: o.engine, strings });
  store.subscribe(scheduler.render);
  scheduler.render(store.get(), new Set(TRACE_FIELDS));

  return {
    store,
    engine: o.engine,
    get trace() {
      return computer.trace;
    },
    showNotice: notice,
    /** Shows a model file (bytes, its name) as the "model file" model; a bad one changes nothing. */
    openModel: (bytes, name, origin) => models.openBytes(bytes, name, origin),
    viewSVG,
    /** The whole trace as CSV or JSON text (promises: every step is read from the engine). */
    traceCSV: async () => (computer.trace ? traceCSV(await computer.trace.complete()) : ''),
    traceJSON: async () => (computer.trace ? traceJSON(await computer.trace.complete(), store.get()) : ''),
    /** Resolves once the explorer has drawn its latest state. */
    idle: async () => {
      await scheduler.idle();
      await models.idle();
    },
    /** The model panel: ready(key), idle(), view (models/panel.js). */
    models,
    /** Re-renders at the current size (after the container was resized). */
    refresh: () => scheduler.render(store.get(), new Set()),
    destroy() {
      // After any prepare still running, which may yet open a trace.
      scheduler.stop(computer.drop);
      renderer.stop();
      stopWatchingScheme();
      costs.stop();
      stopFitting();
      stepper.stop();
      root.replaceChildren();
    },
  };
}
