// The playground's one store (the shared store.js): the link's fields (state.js) and the page's
// own state beside them, which no link carries (UI_FIELDS). Every part reads the page from here;
// a change redraws what reads it (schedule.js, page-view.js) and writes the link when a link
// field changed.
import { createStore } from '../store.js';
import { emptyHistory } from './history.js';

/** What a model just made (or refused) starts from: nothing of the last model stays. */
export const newModel = () => ({
  info: null, // the worker's description of the model: trainable, config, parameterCount, text …
  playing: false,
  history: emptyHistory(), // the run's curves and snapshots (history.js), added to in place
  scrubIndex: null, // the snapshot the slider shows; null: follow the newest
  heatmapPage: 0, // the page of heatmaps shown (pager.js), both grids
  // A loaded model file's knobs (layers, heads, …), shown in the controls while it is the model;
  // the link keeps the page's own, which a changed control trains from.
  loadedKnobs: null,
  status: { step: 0, rate: null }, // the last step and speed shown, redrawn in a new language
  lastAnswer: null, // the worker's answer to the typed example, with its attention
});

/** The fields of the page's own state: a change of only these never writes the link. */
export const UI_FIELDS = Object.keys(newModel());

/** The page's store over the link's state. */
export const createPageStore = (linkState) => createStore({ ...linkState, ...newModel() });

/** Whether a change (a set of field names) touched a field the link carries. */
export const touchesLink = (changed) => [...changed].some((field) => !UI_FIELDS.includes(field));
