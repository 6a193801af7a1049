// The configuration of a trainer, read from the engine's one table of fields
// (cpp/include/attention/train/trainer_fields.hpp, exported as trainerFields()): each row's
// section, default and allowed values. Everything here is derived from those rows: the
// defaults, the validation with AttentionErrors naming the field and what is allowed, and the
// request for the WASM module (train_request.hpp reads it by the same rows).
import { describe, invalid } from './errors.js';
import { errorText, get } from './read.js';

/**
 * The module's rows as frozen objects { name, section, kind, fallback, min, max, minOpen,
 * values, note, about, allowed }.
 */
export function trainerFieldsOf(module) {
  return Object.freeze(
    module
      .trainerFields()
      .map((row) => Object.freeze({ ...row, ...(row.values && { values: Object.freeze(row.values) }) })),
  );
}

/**
 * The rows a toy task's trainer reads: every section but the corpus trainer's (its options,
 * e.g. repeatSpans, are createCorpusTrainer's; the engine keeps their defaults for a task).
 */
export function taskFieldsOf(fields) {
  return fields.filter((f) => f.section !== 'corpus');
}

/** { name: default } of the rows. */
export function defaultsOf(fields) {
  return Object.freeze(Object.fromEntries(fields.map((f) => [f.name, f.fallback])));
}

/** `value` of row `f` (a trainer field, or a text option with its page's max) as `field`, else an AttentionError naming it. */
export function check(f, value, field) {
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
  if (!ok) throw invalid(field, `${field} (${describe(value)}) must be ${f.allowed}`);
  return value;
}

/**
 * A user's flat trainer configuration → the complete, checked flat configuration, which is
 * also the request ModelHandle.create reads.
 * @param {readonly object[]} fields the engine's rows (trainerFieldsOf)
 * @param {object} config e.g. { task: 'sort', layers: 2, dModel: 32, learningRate: 3e-3 }
 * @param {string} [prefix] prepended to field names in errors (e.g. "model.config.")
 */
export function normalizeTrainerConfig(fields, config = {}, prefix = '') {
  if (!config || typeof config !== 'object' || Array.isArray(config)) {
    throw invalid(`${prefix}config`, `the trainer configuration (${describe(config)}) must be an object`);
  }
  const names = fields.map((f) => f.name);
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
  for (const f of fields) {
    const given = keys.includes(f.name) ? get(config, f.name, `${prefix}${f.name}`) : undefined;
    const value = given === undefined ? f.fallback : given;
    out[f.name] = check(f, value, `${prefix}${f.name}`);
  }
  return Object.freeze(out);
}
