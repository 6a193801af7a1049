// The page's trained models: the model selector, what is shown and what it was trained on, and
// the model panel (grid of heads, the whole block, next token). Models load and run in the
// engine's worker (models/service.js); the explorer opens the chosen layer's attention through
// ready(). State (model, layer, head, sentence) lives in the explorer's store. This module only
// wires the panel's parts, each of which states its shape at its top and imports none of the
// others:
//
//   store ── change of PANEL_FIELDS ──► panel-view.js   selector texts, about, grid, next, block
//   panel-open.js      the selector and the files that open a model; which models are loaded
//   panel-roles.js     measuring an opened checkpoint's head roles (the measure row)
//   panel-continue.js  the continue buttons: one more token into the sentence
//   export-button.js   "Export for transformers"
//
//   createModelPanel(root, store, engine) → { ready(key), openBytes(bytes, name, origin),
//     openFiles(files), idle(), view: the last modelView drawn }
import { byRole, setText } from '../dom.js';
import { createExportButton } from './export-button.js';
import { createContinuer } from './panel-continue.js';
import { createModelOpener } from './panel-open.js';
import { createRoleMeasurer } from './panel-roles.js';
import { createPanelView } from './panel-view.js';

// The fields the panel draws from; a change of any re-runs the model.
const PANEL_FIELDS = [
  'model',
  'modelRevision',
  'sentence',
  'layer',
  'head',
  'heads',
  'sampleTemperature',
  'topK',
  'lang',
];

/**
 * @param root the explorer's root (the template holds the selector and the panel)
 * @param store the explorer's store
 * @param engine the RemoteEngine (engine.ask(type, payload) reaches models/service.js)
 */
export function createModelPanel(root, store, engine) {
  const $ = byRole(root);
  // A keystroke renders the panel too (the sentence): texts are written only where they differ.
  const say = (role, text) => setText($(role), text);
  function notice(text) {
    $('model-notice').hidden = !text;
    $('model-notice').textContent = text ?? '';
  }
  // The parts are handed to each other below; the measure's redraw and the export button's name
  // run only after a click or a measurement, once `view` and `opener` exist.
  // "Export for transformers": the shown model's file name names the .zip and its README.
  const exportButton = createExportButton($, engine, store, (key) =>
    key === 'file' ? opener.file().name : `${key}.model`,
  );
  const measure = createRoleMeasurer({ $, store, engine, say, redraw: () => view.draw(store.get()) });
  const opener = createModelOpener({ root, $, store, engine, say, measure });
  const continuer = createContinuer({ store, engine, notice });
  const view = createPanelView({ root, $, store, engine, opener, measure, continuer, exportButton, say, notice });
  store.subscribe((state, changed) => {
    if (PANEL_FIELDS.some((f) => changed.has(f))) view.draw(state);
  });
  view.draw(store.get());

  return {
    ready: opener.ready,
    openBytes: opener.openBytes,
    openFiles: opener.openFiles,
    /** Resolves once the panel has drawn the store's state. */
    idle: view.idle,
    get view() {
      return view.last;
    },
  };
}
