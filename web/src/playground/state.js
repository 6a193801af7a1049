// The playground's state in the URL, so that any setup is a link:
//   playground.html?task=sort&L=2&H=4&d=32&scale=1&ao=0&lr=0.01&b=32&seed=1&ex=3+1+4&lang=zh
//   playground.html?task=text&src=poems&lv=character   (your own text: the text only when short)
// One row per field (as the explorer's state.js): URL key → [field, parse, format]. The model
// knobs default to the task's preset, and a link writes only what differs from it. Bad values
// fall back to the defaults and are reported as notices naming the key.
import { LANGUAGES } from '../i18n.js';
import { DK_SETTING_NAMES } from './dk-experiment.js';
import { PRESETS, TASK_NAMES } from './presets.js';
import { MAX_URL_TEXT, READY_NAMES, TEXT_KNOBS } from './texts.js';

/** The page's modes: the toy tasks, then "Your text" (texts.js). */
export const TEXT_MODE = 'text';
export const MODES = [...TASK_NAMES, TEXT_MODE];
/** A text's source: a ready text, or the learner's own (typed, pasted or opened). */
export const SOURCES = [...READY_NAMES, 'own'];
/** auto: the level texts.js proposes for the text. */
export const LEVELS = ['auto', 'character', 'word'];

export const D_MODELS = [16, 32, 64, 128];
export const BATCHES = [8, 16, 32, 64, 128];
export const MAX_EXAMPLE_CHARS = 200;

const int = (min, max) => (text) => {
  if (!/^[0-9]{1,10}$/.test(text)) return undefined;
  const v = Number(text);
  return v >= min && v <= max ? v : undefined;
};
const oneOfNumbers = (list) => (text) =>
  /^[0-9]{1,4}$/.test(text) && list.includes(Number(text)) ? Number(text) : undefined;
const rate = (text) => {
  if (!/^(0?\.[0-9]{1,8}|[0-9]\.?[0-9]{0,8}e-[0-9]|[0-9]e-[0-9])$/.test(text)) return undefined;
  const v = Number(text);
  return v >= 1e-5 && v <= 0.1 ? v : undefined;
};
const oneOf = (list) => (text) => (list.includes(text) ? text : undefined);
const flag = (text) => (text === '1' ? true : text === '0' ? false : undefined);
const bit = (v) => (v ? '1' : '0');

// A Map: a link's key such as `toString` must find nothing.
const FIELDS = new Map(
  Object.entries({
    task: ['task', oneOf(MODES), String],
    L: ['layers', int(1, 4), String],
    H: ['heads', int(1, 4), String],
    d: ['dModel', oneOfNumbers(D_MODELS), String],
    scale: ['scale', flag, bit],
    ao: ['attentionOnly', flag, bit],
    lr: ['learningRate', rate, String],
    b: ['batchSize', oneOfNumbers(BATCHES), String],
    seed: ['seed', int(0, 4294967295), String],
    ex: ['example', (t) => (t.length <= MAX_EXAMPLE_CHARS ? t : undefined), String],
    dk: ['experiment', flag, bit],
    // The √d_k panel: its setting and the seed of a live run.
    dks: ['dkSetting', oneOf(DK_SETTING_NAMES), String],
    dkseed: ['dkSeed', int(0, 4294967295), String],
    src: ['source', oneOf(SOURCES), String],
    lv: ['level', oneOf(LEVELS), String],
    // The learner's own text, only when short (MAX_URL_TEXT): a long one stays on this computer.
    text: ['text', (t) => (t.length <= MAX_URL_TEXT ? t : undefined), String],
    lang: ['lang', oneOf(LANGUAGES), String],
  }),
);

// Embedding: these hide parts of the page (embed=1 also hides the header and links).
export const CHROME_FLAGS = ['embed', 'controls', 'curves', 'heatmaps', 'try'];

/** The state of a task with its preset's knobs. */
export function taskDefaults(task, base) {
  const knobs = task === TEXT_MODE ? TEXT_KNOBS : PRESETS[task].knobs;
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
function clip(text, max = 40) {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, '')}…`; // never half a surrogate pair
}

/**
 * { state, chrome, notices, repeated } from a query string. The task is read first: the knobs'
 * defaults are its preset's. A key given more than once counts once, at its first value (as the
 * explorer's links: docs/embedding.md); `repeated` names such keys, `notices` every key with a
 * bad value (a later value of a repeated key is checked too).
 */
export function stateFromURL(search, base) {
  const seen = new Set();
  const entries = [...new URLSearchParams(search)].map(([key, text]) => {
    const first = !seen.has(key);
    seen.add(key);
    return { key, text, first };
  });
  const notices = [];
  const repeated = [];
  const note = (list, key) => list.includes(clip(key)) || list.push(clip(key));
  const taskText = entries.find((e) => e.key === 'task')?.text;
  const task = taskText === undefined ? base.task : oneOf(MODES)(taskText);
  const state = taskDefaults(task ?? base.task, base);
  const chrome = {};
  for (const { key, text, first } of entries) {
    if (!first) note(repeated, key);
    let value;
    if (key === 'task') value = oneOf(MODES)(text);
    // The single file's playground is itself at ?page=playground (single.js): a page, not a field.
    else if (key === 'page') value = text === 'playground' ? text : undefined;
    else if (CHROME_FLAGS.includes(key)) {
      value = flag(text);
      if (value !== undefined && first) chrome[key] = value;
    } else {
      const row = FIELDS.get(key);
      value = row ? row[1](text) : undefined;
      if (value !== undefined && first) state[row[0]] = value;
    }
    if (value === undefined) note(notices, key);
  }
  return { state, chrome, notices, repeated };
}

/** The query string of a state: the task, then every field that differs from its preset. */
export function queryOf(state) {
  const preset = taskDefaults(state.task, state);
  const params = new URLSearchParams();
  for (const [key, [field, , format]] of FIELDS) {
    if (key === 'task' || key === 'lang' || state[field] !== preset[field]) params.set(key, format(state[field]));
  }
  if (!state.example) params.delete('ex');
  if (!state.experiment) params.delete('dk');
  if (state.dkSetting !== DK_SETTING_NAMES[0]) params.set('dks', state.dkSetting);
  if (state.dkSeed !== 1) params.set('dkseed', String(state.dkSeed));
  // A text's settings only in text mode (the knobs' preset spreads the state: set them here); the
  // text itself only when it is the learner's own and short.
  if (state.task === TEXT_MODE) {
    if (state.source !== 'poems') params.set('src', state.source);
    if (state.level !== 'auto') params.set('lv', state.level);
    if (state.source === 'own' && state.text && state.text.length <= MAX_URL_TEXT) params.set('text', state.text);
  }
  return params.toString();
}
