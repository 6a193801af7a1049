// What the playground asks of a model (a Trainer or a loaded TrainedModel), in plain data the
// worker can post: attention snapshots of one example, greedy answers, head scores. Runs in the
// worker (and in node for bench/playground-presets.mjs); never touches the DOM.
import { fittedInput, presetOf } from './presets.js';
import { TASK_BY_NAME } from '../catalog.js';

/** Only these steps are copied out of WASM for a snapshot or an answer. */
const SNAPSHOT_STEPS = ['weights', 'probabilities'];

/** The task's shape (from the trainer's config or a model file's flat config). */
export function taskOf(model) {
  const c = model.config;
  const name = c.task;
  return {
    name,
    length: c.taskLength ?? c.length,
    alphabet: c.taskAlphabet ?? c.alphabet,
    modulus: c.taskModulus ?? c.modulus,
  };
}

/**
 * One sequence's attention: { tokens: string[], layers, heads, length: T, weights:
 * Float32Array [layers × heads × T × T], probabilities: Float32Array [T × V] }.
 */
export function snapshot(model, tokens) {
  const trace = model.traceInput({ tokens }, { steps: SNAPSHOT_STEPS });
  const T = trace.tokens.length;
  const layers = trace.layerCount;
  const heads = trace.heads;
  const weights = new Float32Array(layers * heads * T * T);
  trace.layers.forEach((layer, l) => {
    for (let h = 0; h < heads; h++) weights.set(layer.step('weights', h).data, (l * heads + h) * T * T);
  });
  return { tokens: trace.tokens, layers, heads, length: T, weights, probabilities: trace.step('probabilities').data };
}

/** The arg-max of row `row` of a [T × V] probability matrix, as a symbol. */
function argmaxSymbol(probabilities, row, vocabulary) {
  const V = vocabulary.length;
  let best = 0;
  for (let v = 1; v < V; v++) if (probabilities[row * V + v] > probabilities[row * V + best]) best = v;
  return vocabulary[best];
}

/**
 * The model's greedy answer to `input` (symbol ids) and the attention of the whole sequence
 * (prompt + answer, cut at the context length): { prompt, answer, expected, snapshot }. The
 * prompt, the answer's length and the expected answer are the engine's task's (taskPrompt).
 */
export function answer(model, input) {
  const { prompt, answerLength, expected } = model.taskPrompt({ tokens: input });
  const sequence = prompt.slice();
  const out = [];
  for (let i = 0; i < answerLength; i++) {
    // Only the probabilities on the way: every head's weights (layers × heads × T × T, 100 MB
    // for a model of 6 × 64 heads at 256 tokens) are copied once, for the whole sequence.
    const probabilities = model
      .traceInput({ tokens: sequence }, { steps: ['probabilities'] })
      .step('probabilities').data;
    const next = argmaxSymbol(probabilities, sequence.length - 1, model.vocabulary);
    out.push(next);
    if (sequence.length >= model.contextLength) break;
    sequence.push(next);
  }
  // The attention of the whole sequence: the prompt and the answer (cut at the context length).
  const shown = snapshot(model, sequence);
  return { prompt, answer: out, expected, snapshot: shown };
}

/**
 * The task input the heatmaps follow: the preset's, or, for a loaded model of another shape (a
 * `train` command's file), one of the same kind fitted to its length and alphabet.
 */
export function fixedInput(task) {
  const preset = presetOf(task.name);
  const { length, alphabet, modulus } = preset.task;
  // Only the fields the task uses count (a trainer's config also carries the others' defaults).
  const same =
    TASK_BY_NAME[task.name].input === 'operands'
      ? task.modulus === modulus
      : task.length === length && task.alphabet === alphabet;
  return same ? preset.input : fittedInput(task);
}

/** The fixed example the heatmaps follow: the task's prompt and its right answer, teacher-forced. */
export function fixedSequence(model) {
  const { prompt, expected } = model.taskPrompt({ tokens: fixedInput(taskOf(model)) });
  return [...prompt, ...expected].slice(0, model.contextLength);
}

/**
 * Per layer and head, from one snapshot: the previous-token score (mean weight from t to t−1)
 * and the induction score (mean weight from each position whose token occurred before to the
 * token after that earlier occurrence), as Olsson et al. define them. [layers][heads] each.
 */
export function headScores(snap) {
  const { layers, heads, length: T, weights, tokens } = snap;
  const sources = [];
  for (let i = 1; i < T; i++) {
    const earlier = tokens.lastIndexOf(tokens[i], i - 1);
    if (earlier >= 0 && earlier + 1 < i) sources.push([i, earlier + 1]);
  }
  const score = (pairs, l, h) => {
    if (!pairs.length) return 0;
    const base = (l * heads + h) * T * T;
    let sum = 0;
    for (const [q, k] of pairs) sum += weights[base + q * T + k];
    return sum / pairs.length;
  };
  const previous = Array.from({ length: T - 1 }, (_, i) => [i + 1, i]);
  const grid = (pairs) =>
    Array.from({ length: layers }, (_, l) => Array.from({ length: heads }, (_, h) => score(pairs, l, h)));
  return { induction: grid(sources), previousToken: grid(previous) };
}
