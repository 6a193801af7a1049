// The playground's tasks and their presets: one row per task, everything else derived from it.
// Each preset learns its task in well under a minute in WASM on a 2-core machine (measured by
// bench/playground-presets.mjs, written to docs/benchmarks.md). The model knobs a user changes
// (layers, heads, dModel, scale, attentionOnly, learningRate, batchSize, seed) start from the
// task's row; the task's own shape (length, alphabet, modulus) and the settings below are fixed.
// The tasks themselves, their names and what a typed input of each is, are the engine's
// (catalog.js, generated from C++). A task the engine adds shows here with no row below
// (presetOf: the small model on its input shape), once playground/i18n.js names it; its row here
// is its tuning, measured.
import { TASK_BY_NAME, TASK_NAMES } from '../catalog.js';

/** Settings every trainer of the page shares, a task's and a text's (learned positions and light
 * weight decay, as the engine's learning tests: tests/cpp/learning_test.cpp). */
export const FIXED = Object.freeze({ positionalEncoding: 'learned', weightDecay: 0.01 });

/** The knobs of tests/cpp/learning_test.cpp's small model: 2 layers, 32 wide, AdamW at 1e-2. */
const SMALL = {
  layers: 2,
  heads: 2,
  dModel: 32,
  scale: true,
  attentionOnly: false,
  learningRate: 0.01,
  batchSize: 32,
  seed: 1,
};
// A fixed input whose attention the heatmaps follow while training (π's digits).
const DIGITS = [3, 1, 4, 1, 5, 9, 2, 6];

export const PRESETS = {
  copy: {
    task: { task: 'copy', length: 8, alphabet: 10 },
    knobs: SMALL,
    input: DIGITS,
    placeholder: '3 1 4 1 5 9 2 6',
  },
  reverse: {
    task: { task: 'reverse', length: 8, alphabet: 10 },
    knobs: SMALL,
    input: DIGITS,
    placeholder: '3 1 4 1 5 9 2 6',
  },
  sort: {
    task: { task: 'sort', length: 8, alphabet: 10 },
    knobs: { ...SMALL, heads: 4 },
    // Cosine decay to 1e-4 by step 1000: held-out exact match then settles above 95% instead of
    // swinging by ±20% at a constant 1e-2.
    extra: { warmupSteps: 20, totalSteps: 1000 },
    input: DIGITS,
    placeholder: '3 1 4 1 5 9 2 6',
  },
  induction: {
    // Tests/cpp's induction-head model: 2 attention-only layers, init 0.2 (0.02 leaves every
    // row near uniform for thousands of steps without LayerNorm).
    task: { task: 'induction', length: 10, alphabet: 64 },
    knobs: { ...SMALL, attentionOnly: true, learningRate: 0.02 },
    // Cosine decay to step 1000: at a constant 2e-2 token accuracy hovered at 0.97 and whole
    // answers (4–9 tokens) at 79–91%; decayed, held-out whole answers reach 100% by step ≈ 800.
    extra: { initStd: 0.2, warmupSteps: 20, totalSteps: 1000 },
    // The page draws its heads' induction and previous-token scores as it trains, and says
    // beside the curves what they show (i18n's inductionCurves).
    headScores: true,
    // Filler, a segment of 6 and the first token of its repeat: the rest of the repeat is the answer.
    input: [40, 7, 33, 12, 58, 21, 9, 50, 17, 3, 44, 26, 61, 35, 17],
    placeholder: '5 12 40 7 33 12 40',
  },
  modular: {
    task: { task: 'modular', modulus: 13 },
    knobs: { ...SMALL, layers: 1, heads: 4, dModel: 64, batchSize: 64 },
    extra: { weightDecay: 1 }, // strong decay: it generalises to held-out sums in ≈ 400 steps
    input: [7, 9],
    placeholder: '7 9',
  },
};

export { TASK_NAMES };
export const KNOB_NAMES = Object.keys(PRESETS.sort.knobs);

/**
 * An input of a task's shape ({ name, length, alphabet, modulus }): two operands, `length`
 * symbols, or a prompt (induction's: filler, a segment of m, the segment's first symbol,
 * 2n − m + 1 < 2n − 1 tokens), its symbols spread over the alphabet.
 */
export function fittedInput(task) {
  const shape = inputShape(task.name);
  const operands = shape === 'operands';
  const symbol = (i) => (i * 7 + 3) % (operands ? task.modulus : task.alphabet);
  if (operands) return [symbol(0), symbol(1)];
  if (shape === 'sequence') return Array.from({ length: task.length }, (_, i) => symbol(i));
  const m = Math.max(2, Math.ceil(task.length / 2));
  const first = Array.from({ length: 2 * (task.length - m) + m }, (_, i) => symbol(i));
  return [...first, first[2 * (task.length - m)]];
}

/**
 * The preset of a task the rows above do not tune: the small model, on 8 symbols of 10 (a sum
 * modulo 13 for two operands), at a constant learning rate, and an input fitted to that shape.
 */
export function defaultPreset(name) {
  const shape = inputShape(name);
  const task = shape === 'operands' ? { task: name, modulus: 13 } : { task: name, length: 8, alphabet: 10 };
  const input = fittedInput({ name, length: task.length, alphabet: task.alphabet, modulus: task.modulus });
  return { task, knobs: SMALL, input, placeholder: input.join(' ') };
}

/** Whether the page draws a task's head scores as it trains: its row asks (induction's). */
export const scoresHeads = (task) => Object.hasOwn(PRESETS, task) && PRESETS[task].headScores === true;

/** A task's preset: its row above, or the default one. */
export function presetOf(name) {
  return Object.hasOwn(PRESETS, name) ? PRESETS[name] : defaultPreset(name);
}

/** What a typed input of the engine's task `name` is; a name that is no task is refused by name. */
function inputShape(name) {
  if (!Object.hasOwn(TASK_BY_NAME, name))
    throw new Error(`task ${JSON.stringify(String(name))} is not one of ${TASK_NAMES.join(', ')}`);
  return TASK_BY_NAME[name].input;
}

/** The trainer fields the page's knobs set, for a task's trainer and a text's alike. */
export function knobFields({ layers, heads, dModel, scale, attentionOnly, learningRate, batchSize, seed }) {
  return {
    layers,
    heads,
    dModel,
    // Heads 3 divide no width of the page: each head then gets ⌊dModel / heads⌋.
    dK: dModel % heads === 0 ? 0 : Math.floor(dModel / heads),
    scale,
    attentionOnly,
    learningRate,
    batchSize,
    seed,
  };
}

/** The engine configuration (TrainerConfig) of a task and its knobs. */
export function trainerConfig(taskName, knobs) {
  return presetConfig(presetOf(taskName), knobs);
}

/** The engine configuration of a preset and the knobs. */
export function presetConfig(preset, knobs) {
  return { ...FIXED, ...preset.task, ...(preset.extra ?? {}), ...knobFields(knobs) };
}

/**
 * Reads a typed example for a task of shape { name, length, alphabet, modulus } (session.taskOf):
 * symbols separated by spaces or commas (digits also run together when every symbol is one
 * digit, "31415926"). Returns { input } or { error: { key, args } } naming what is wrong, in the
 * i18n table's terms.
 */
export function parseExample(task, text, contextLength) {
  // operands: two numbers below the modulus; sequence: exactly `length` symbols; prompt: a prompt
  // the model continues, of 2 to contextLength − 1 symbols.
  const shape = TASK_BY_NAME[task.name]?.input;
  const max = shape === 'operands' ? task.modulus : task.alphabet;
  let pieces = text
    .replace(/[+=|,，]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  if (pieces.length === 1 && max <= 10 && /^[0-9]+$/.test(pieces[0])) pieces = [...pieces[0]];
  if (pieces.length === 0) return { error: { key: 'exampleEmpty', args: [] } };
  const input = [];
  for (const piece of pieces) {
    if (!/^[0-9]{1,4}$/.test(piece) || Number(piece) >= max)
      return { error: { key: 'exampleSymbol', args: [piece, max - 1] } };
    input.push(Number(piece));
  }
  if (shape === 'operands' && input.length !== 2) return { error: { key: 'exampleCount', args: [2, input.length] } };
  if (shape === 'sequence' && input.length !== task.length)
    return { error: { key: 'exampleCount', args: [task.length, input.length] } };
  if (shape === 'prompt' && (input.length < 2 || input.length >= contextLength))
    return { error: { key: 'exampleRange', args: [2, contextLength - 1, input.length] } };
  return { input };
}
