// The configuration keys of a model file that a page or a tool reads, each with its type and
// range, checked when a file is loaded (TrainedModel's constructor). The engine checks the
// model's shape keys itself (dModel, layers, … when it builds the model); the descriptive keys
// (title, heldOutLoss, tokensSeen, …) it only carries, and a forged file with
// `"heldOutLoss": "4.2"` used to load and break the page that formatted it
// (`toFixed is not a function`). Here every key read anywhere has one rule, and a file that
// breaks one is refused with an error naming the key (model.config.<key>) and what is allowed.
// Keys not listed are kept but never read. The keys a model file has from the trainer's fields
// (layers, heads, dModel, …, a text model's repeatSpans) take the engine's own kinds and bounds
// (catalog.js, generated from trainer_fields.cpp), so that this check never refuses a model the
// engine loaded.
import { describe, invalid } from './errors.js';
import { MODEL_FILE_FIELDS, VOCABULARY_LEVELS } from './catalog.js';

const string = (most) => ({ type: 'string', most });
const number = (min, max) => ({ type: 'number', min, max });
const integer = (min, max) => ({ type: 'integer', min, max });
const boolean = { type: 'boolean' };
const oneOf = (...values) => ({ type: 'oneOf', values });

/** The largest count read exactly as a double: step and token counts stay below it. */
const COUNT = Number.MAX_SAFE_INTEGER;

/** A trainer field's rule: its kind and bounds as the engine has them. */
const fieldRule = (f) =>
  ({ int: () => integer(f.min, f.max), number: () => number(f.min, f.max), bool: () => boolean })[f.kind]?.() ??
  oneOf(...f.values);

export const MODEL_CONFIG_KEYS = Object.freeze({
  // The model's shape and sizes, and a task model's task (the engine refuses a wrong one too; the
  // page reads them directly), with the engine's kinds and bounds.
  ...Object.fromEntries(MODEL_FILE_FIELDS.map((f) => [f.name, fieldRule(f)])),
  // A task model's, or a text model's level (the engine's level row).
  vocabulary: oneOf('task', ...VOCABULARY_LEVELS),
  format: string(100),
  // What a corpus model was trained on, shown by the explorer's model panel.
  title: string(200),
  titleZh: string(200),
  corpus: string(1000),
  lowercase: boolean,
  canonWeighted: boolean,
  documentStart: string(64),
  trainedSteps: integer(0, COUNT),
  tokensSeen: integer(0, COUNT),
  // Losses in nats per token: ln(vocabulary) is at most ln(2^20) ≈ 14 for a uniform guess; a
  // model can do worse than uniform, so the bound is loose, but never negative or infinite.
  heldOutLoss: number(0, 1000),
  unigramLoss: number(0, 1000),
  bigramLoss: number(0, 1000),
  kn5Loss: number(0, 1000),
  bigramLambda: number(0, 1),
});

function fault(rule, value) {
  switch (rule.type) {
    case 'string':
      if (typeof value !== 'string') return `must be a string of at most ${rule.most} characters`;
      if (value.length > rule.most) return `must be at most ${rule.most} characters long (it has ${value.length})`;
      if (!value.isWellFormed()) return 'must be well-formed text (it has a lone UTF-16 surrogate)';
      return null;
    case 'number':
      return typeof value === 'number' && value >= rule.min && value <= rule.max
        ? null
        : `must be a number from ${rule.min} to ${rule.max}`;
    case 'integer':
      return Number.isInteger(value) && value >= rule.min && value <= rule.max
        ? null
        : `must be an integer from ${rule.min} to ${rule.max}`;
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    default:
      return rule.values.includes(value) ? null : `must be one of ${rule.values.join(', ')}`;
  }
}

/**
 * `config` (a model file's parsed configuration) when every key of MODEL_CONFIG_KEYS it has is
 * of its type and range; else throws an AttentionError for the first that is not, its field
 * `model.config.<key>` ("model.config.heldOutLoss ("4.2") must be a number from 0 to 1000").
 */
export function checkModelConfig(config) {
  if (!config || typeof config !== 'object' || Array.isArray(config)) {
    throw invalid('model.config', `model.config (${describe(config)}) must be an object`);
  }
  for (const [key, rule] of Object.entries(MODEL_CONFIG_KEYS)) {
    if (!Object.hasOwn(config, key)) continue;
    const problem = fault(rule, config[key]);
    if (problem) throw invalid(`model.config.${key}`, `model.config.${key} (${describe(config[key])}) ${problem}`);
  }
  return config;
}
