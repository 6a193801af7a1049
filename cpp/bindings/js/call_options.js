// How the engine's model objects read the options objects of their calls (encode, predict,
// generate, …): own keys only, unknown names refused, each value read once, range checks that
// name the field. Shared by language_model.js and training.js.
import { describe, invalid } from './errors.js';
import { errorText, get } from './read.js';
import { LIMITS, TEMPERATURE } from './catalog.js';

/** Object.keys(object), a throwing Proxy or getter becoming an AttentionError for `field`. */
export function ownKeys(object, field, name) {
  try {
    return Object.keys(object);
  } catch (error) {
    throw invalid(field, `reading ${name} threw ${errorText(error)}`);
  }
}

/** The own options of `options` (unknown ones refused), each read once, over `defaults`. */
export function readOptions(options, defaults, call) {
  if (options === undefined) return { ...defaults };
  if (!options || typeof options !== 'object' || Array.isArray(options)) {
    throw invalid('options', `the options of ${call}() (${describe(options)}) must be an object`);
  }
  const names = Object.keys(defaults);
  const out = { ...defaults };
  for (const key of ownKeys(options, 'options', `the options of ${call}()`)) {
    if (!names.includes(key)) {
      throw invalid(key, `unknown option ${describe(key)} of ${call}(); options are: ${names.join(', ')}`);
    }
    const value = get(options, key, key);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

export function numberIn(value, field, min, max) {
  if (typeof value !== 'number' || !(value >= min && value <= max)) {
    throw invalid(field, `${field} (${describe(value)}) must be a number from ${min} to ${max}`);
  }
  return value;
}

export function integerIn(value, field, min, max, note = '') {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw invalid(field, `${field} (${describe(value)}) must be an integer from ${min}${note} to ${max}`);
  }
  return value;
}

/**
 * generate()'s options over their defaults { count: 1, temperature: 1, topK: 0, greedy: true,
 * seed: 1 }, for a vocabulary of `vocabularySize`. As the CLI: temperature, topK and seed shape
 * sampling, so greedy refuses any of them but its default (it would ignore it).
 */
export function readGenerateOptions(options, vocabularySize) {
  const o = readOptions(options, { count: 1, temperature: 1, topK: 0, greedy: true, seed: 1 }, 'generate');
  const count = integerIn(o.count, 'count', 1, LIMITS.maxGenerate);
  const temperature = numberIn(o.temperature, 'temperature', TEMPERATURE.min, TEMPERATURE.max);
  const topK = integerIn(o.topK, 'topK', 0, vocabularySize, ' (all)');
  if (typeof o.greedy !== 'boolean') throw invalid('greedy', `greedy (${describe(o.greedy)}) must be true or false`);
  const seed = integerIn(o.seed, 'seed', 0, LIMITS.maxSeed);
  if (o.greedy) {
    for (const [field, value, fallback] of [
      ['temperature', temperature, 1],
      ['topK', topK, 0],
      ['seed', seed, 1],
    ]) {
      if (value !== fallback) {
        throw invalid(
          field,
          `${field} (${describe(value)}) shapes sampling, which greedy: true does not do: give greedy: false too, or leave ${field} out`,
        );
      }
    }
  }
  return { count, temperature, topK, greedy: o.greedy, seed };
}
