// The playground's state in the URL, so that any setup is a link:
//   playground.html?task=sort&L=2&H=4&d=32&scale=1&ao=0&lr=0.01&b=32&seed=1&ex=3+1+4&lang=zh
//   playground.html?task=text&src=poems&lv=character   (your own text: the text only when short)
// One row per field (as the explorer's state.js; url-fields.js reads and writes them). The model
// knobs default to the task's preset, and a link writes only what differs from it. Bad values
// fall back to the defaults and are reported as notices naming the key.
import { VOCABULARY_LEVELS } from '../catalog.js';
import { LANGUAGES } from '../i18n.js';
import {
  clippedOnce,
  fieldTable,
  flag,
  int,
  kindsOf,
  oneOf,
  oneOfNumbers,
  readQuery,
  SEED,
  text,
  writeQuery,
} from '../url-fields.js';
import { DK_SETTING_NAMES } from './dk-experiment.js';
import { presetOf, TASK_NAMES } from './presets.js';
import { MAX_URL_TEXT, READY_NAMES, TEXT_KNOBS } from './texts.js';

/** The page's modes: the toy tasks, then "Your text" (texts.js). */
export const TEXT_MODE = 'text';
export const MODES = [...TASK_NAMES, TEXT_MODE];
/** The name the page gives the model it trained: your-text.model for own text, else <task>.model. */
export const modelFileName = (state) => (state.task === TEXT_MODE ? 'your-text.model' : `${state.task}.model`);
/** A text's source: a ready text, or the learner's own (typed, pasted or opened). */
export const SOURCES = [...READY_NAMES, 'own'];
/** auto: the level texts.js proposes for the text; then the engine's levels (its level row). */
export const LEVELS = ['auto', ...VOCABULARY_LEVELS];

export const D_MODELS = [16, 32, 64, 128];
export const BATCHES = [8, 16, 32, 64, 128];
export const MAX_EXAMPLE_CHARS = 200;

export const LAYERS = [1, 2, 3, 4];
export const HEADS = [1, 2, 3, 4];
/** The learning rates the page offers, and the range a link may give. */
export const RATES = [0.0003, 0.001, 0.003, 0.01, 0.02, 0.03];
export const LEARNING_RATE = Object.freeze({ min: 1e-5, max: 0.1 });

/**
 * The model's knobs as the page's controls, in the order shown: a select of `values` (a value
 * outside them, a loaded model's or a link's learning rate, is added while it is shown), the seed
 * box, or a check box. template.js lays them out, page-view.js shows them, actions.js binds them;
 * every one is a link field (ROWS) and a change makes a new model.
 */
export const KNOB_CONTROLS = [
  { field: 'layers', values: LAYERS },
  { field: 'heads', values: HEADS },
  { field: 'dModel', values: D_MODELS },
  { field: 'learningRate', values: RATES },
  { field: 'batchSize', values: BATCHES },
  { field: 'seed', control: 'seed' },
  { field: 'scale', control: 'check' },
  { field: 'attentionOnly', control: 'check' },
];

// A learning rate as a decimal (0.003, .01) or in e-notation (3e-4), within LEARNING_RATE.
const RATE = /^(0?\.[0-9]{1,8}|[0-9]\.?[0-9]{0,8}e-[0-9]|[0-9]e-[0-9])$/;
const rate = {
  ...LEARNING_RATE,
  parse: (t) =>
    RATE.test(t) && Number(t) >= LEARNING_RATE.min && Number(t) <= LEARNING_RATE.max ? Number(t) : undefined,
  format: String,
};
const isText = (state) => state.task === TEXT_MODE;

// One row per link key (url-fields.js), in the order a link writes them. The knobs are compared
// with the task's preset, the rest with the page's defaults (queryOf); `always` rows are always
// written, a row's `when` says when it belongs in a link at all.
const ROWS = [
  { key: 'task', field: 'task', kind: oneOf(MODES), always: true },
  { key: 'L', field: 'layers', kind: oneOfNumbers(LAYERS) },
  { key: 'H', field: 'heads', kind: oneOfNumbers(HEADS) },
  { key: 'd', field: 'dModel', kind: oneOfNumbers(D_MODELS) },
  { key: 'scale', field: 'scale', kind: flag },
  { key: 'ao', field: 'attentionOnly', kind: flag },
  { key: 'lr', field: 'learningRate', kind: rate },
  { key: 'b', field: 'batchSize', kind: oneOfNumbers(BATCHES) },
  { key: 'seed', field: 'seed', kind: int(SEED) },
  { key: 'ex', field: 'example', kind: text(MAX_EXAMPLE_CHARS) },
  { key: 'lang', field: 'lang', kind: oneOf(LANGUAGES), always: true },
  // The √d_k panel: whether a run is on, its setting and the seed of a live run.
  { key: 'dk', field: 'experiment', kind: flag },
  { key: 'dks', field: 'dkSetting', kind: oneOf(DK_SETTING_NAMES) },
  { key: 'dkseed', field: 'dkSeed', kind: int(SEED) },
  // A text's settings only in text mode; the learner's own text only when short (MAX_URL_TEXT):
  // a long one stays on this computer.
  { key: 'src', field: 'source', kind: oneOf(SOURCES), when: isText },
  { key: 'lv', field: 'level', kind: oneOf(LEVELS), when: isText },
  {
    key: 'text',
    field: 'text',
    kind: text(MAX_URL_TEXT),
    when: (s) => isText(s) && s.source === 'own' && s.text.length <= MAX_URL_TEXT,
  },
];
const FIELDS = fieldTable(ROWS);

// Embedding: these hide parts of the page (embed=1 also hides the header and links).
export const CHROME_FLAGS = ['embed', 'controls', 'curves', 'heatmaps', 'try'];

/** The state of a task with its preset's knobs. */
export function taskDefaults(task, base) {
  const knobs = task === TEXT_MODE ? TEXT_KNOBS : presetOf(task).knobs;
  return { ...base, task, ...knobs, example: '' };
}

export function defaultState(lang = 'en') {
  return taskDefaults('sort', {
    lang,
    experiment: false,
    dkSetting: DK_SETTING_NAMES[0],
    dkSeed: 1,
    source: 'poems',
    level: 'auto',
    text: '',
  });
}

// A link's key can be kilobytes long: a notice names it in a few words.
const NOTICE_CHARS = 40;

// Every key a link may hold: the fields, the embedding flags and the single file's ?page=playground
// (single.js: a page, not a field).
const KINDS = new Map([...kindsOf(FIELDS), ...CHROME_FLAGS.map((key) => [key, flag]), ['page', oneOf(['playground'])]]);

/** The value a URL key's text stands for, or undefined if the key or the text is not valid. */
export const parseField = (key, t) => KINDS.get(key)?.parse(t);

/**
 * { state, chrome, notices, repeated } from a query string. The task is read first: the knobs'
 * defaults are its preset's. A key given more than once counts once, at its first value (as the
 * explorer's links: docs/embedding.md); `repeated` names such keys, `notices` every key with a
 * bad value (a later value of a repeated key is checked too).
 */
export function stateFromURL(search, base) {
  const { values, refused, repeated } = readQuery(search, KINDS);
  const state = taskDefaults(values.get('task') ?? base.task, base);
  const chrome = {};
  for (const [key, value] of values) {
    if (FIELDS.has(key)) state[FIELDS.get(key).field] = value;
    else if (CHROME_FLAGS.includes(key)) chrome[key] = value;
  }
  const notices = clippedOnce(
    refused.map((r) => r.key),
    NOTICE_CHARS,
  );
  return { state, chrome, notices, repeated: clippedOnce(repeated, NOTICE_CHARS) };
}

/**
 * The query string of a state: the task, the knobs that differ from its preset, then the other
 * fields that differ from the page's defaults.
 */
export function queryOf(state) {
  return writeQuery(state, ROWS, taskDefaults(state.task, defaultState(state.lang)));
}
