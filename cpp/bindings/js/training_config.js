// The configuration of a trainer: one row per field (its section, default and allowed values),
// and everything else derived from the rows: the defaults, the validation with AttentionErrors
// naming the field and what is allowed, and the request for the WASM module
// (cpp/bindings/train_request.hpp). Field names are the engine's own (its errors and the model
// file's configuration keys spell them the same).
import { describe, invalid } from './errors.js';
import { errorText, get } from './read.js';

export const TASKS = Object.freeze(['copy', 'reverse', 'sort', 'induction', 'modular']);

const UINT32_MAX = 0xffffffff;

// kind: 'int' (with min, max), 'number' (with min, max; minOpen: > min), 'bool', 'enum' (values).
// section: where the engine reads it: task, model, optimizer or trainer.
const FIELD_ROWS = [
  ['task', 'task', 'enum', 'sort', { values: TASKS, key: 'name' }],
  ['length', 'task', 'int', 8, { min: 1, max: 256 }],
  ['alphabet', 'task', 'int', 10, { min: 2, max: 1024 }],
  ['modulus', 'task', 'int', 97, { min: 2, max: 1024 }],
  ['layers', 'model', 'int', 2, { min: 1, max: 6 }],
  ['heads', 'model', 'int', 4, { min: 1, max: 1024 }],
  ['dModel', 'model', 'int', 64, { min: 1, max: 1024 }],
  ['dK', 'model', 'int', 0, { min: 0, max: 1024, note: '0: dModel / heads' }],
  ['dFF', 'model', 'int', 0, { min: 0, max: 4096, note: '0: 4 · dModel' }],
  ['causal', 'model', 'bool', true],
  ['scale', 'model', 'bool', true],
  ['residual', 'model', 'bool', true],
  ['attentionOnly', 'model', 'bool', false],
  ['tiedEmbeddings', 'model', 'bool', true],
  ['positionalEncoding', 'model', 'enum', 'sinusoidal', { values: ['sinusoidal', 'learned'] }],
  ['initStd', 'model', 'number', 0.02, { min: 0, max: 10, minOpen: true }],
  ['learningRate', 'optimizer', 'number', 1e-3, { min: 0, max: 10, minOpen: true }],
  ['beta1', 'optimizer', 'number', 0.9, { min: 0, max: 0.999999 }],
  ['beta2', 'optimizer', 'number', 0.95, { min: 0, max: 0.999999 }],
  ['epsilon', 'optimizer', 'number', 1e-8, { min: 0, max: 1, minOpen: true }],
  ['weightDecay', 'optimizer', 'number', 0.1, { min: 0, max: 10 }],
  ['warmupSteps', 'optimizer', 'int', 0, { min: 0, max: 1e9 }],
  ['totalSteps', 'optimizer', 'int', 0, { min: 0, max: 1e9, note: '0: no cosine decay' }],
  ['minLearningRate', 'optimizer', 'number', 1e-4, { min: 0, max: 10 }],
  ['clipNorm', 'optimizer', 'number', 1, { min: 0, max: 1e9, note: '0: no clipping' }],
  ['batchSize', 'trainer', 'int', 32, { min: 1, max: 4096 }],
  ['seed', 'trainer', 'int', 1, { min: 0, max: UINT32_MAX }],
];

export const TRAINER_FIELDS = Object.freeze(
  FIELD_ROWS.map(([name, section, kind, fallback, rule = {}]) =>
    Object.freeze({ name, section, kind, fallback, ...rule }),
  ),
);

export const TRAINER_DEFAULTS = Object.freeze(Object.fromEntries(TRAINER_FIELDS.map((f) => [f.name, f.fallback])));

function allowed(f) {
  if (f.kind === 'bool') return 'true or false';
  if (f.kind === 'enum') return `one of ${f.values.join(', ')}`;
  const low = f.minOpen ? `greater than ${f.min}` : `from ${f.min}`;
  const range = f.minOpen ? `${low} and at most ${f.max}` : `${low} to ${f.max}`;
  return `${f.kind === 'int' ? 'an integer' : 'a number'} ${range}${f.note ? ` (${f.note})` : ''}`;
}

function check(f, value, field) {
  const ok =
    f.kind === 'bool'
      ? typeof value === 'boolean'
      : f.kind === 'enum'
        ? f.values.includes(value)
        : typeof value === 'number' &&
          Number.isFinite(value) &&
          (f.kind !== 'int' || Number.isInteger(value)) &&
          (f.minOpen ? value > f.min : value >= f.min) &&
          value <= f.max;
  if (!ok) throw invalid(field, `${field} (${describe(value)}) must be ${allowed(f)}`);
  return value;
}

/**
 * A user's flat trainer configuration → the complete, checked flat configuration.
 * @param {object} config e.g. { task: 'sort', layers: 2, dModel: 32, learningRate: 3e-3 }
 * @param {string} [prefix] prepended to field names in errors (e.g. "model.config.")
 */
export function normalizeTrainerConfig(config = {}, prefix = '') {
  if (!config || typeof config !== 'object' || Array.isArray(config)) {
    throw invalid(`${prefix}config`, `the trainer configuration (${describe(config)}) must be an object`);
  }
  const names = TRAINER_FIELDS.map((f) => f.name);
  let keys;
  try {
    keys = Object.keys(config);
  } catch (error) {
    throw invalid(`${prefix}config`, `reading the trainer configuration threw ${errorText(error)}`);
  }
  for (const key of keys) {
    if (!names.includes(key)) {
      throw invalid(`${prefix}${key}`, `unknown field ${describe(key)}; fields are: ${names.join(', ')}`);
    }
  }
  const out = {};
  for (const f of TRAINER_FIELDS) {
    const given = keys.includes(f.name) ? get(config, f.name, `${prefix}${f.name}`) : undefined;
    const value = given === undefined ? f.fallback : given;
    out[f.name] = check(f, value, `${prefix}${f.name}`);
  }
  return Object.freeze(out);
}

/** The sections of a flat configuration: { task, model, optimizer, batchSize, seed }. */
function sections(flat) {
  const out = { task: {}, model: {}, optimizer: {} };
  for (const f of TRAINER_FIELDS) {
    if (f.section === 'trainer') out[f.name] = flat[f.name];
    else out[f.section][f.key ?? f.name] = flat[f.name];
  }
  return out;
}

/** The request ModelHandle.create/build reads (train_request.hpp); vocabSize and contextLength come from the task. */
export function trainerRequest(flat) {
  const request = sections(flat);
  request.model.vocabSize = 0;
  request.model.contextLength = 0;
  return request;
}
