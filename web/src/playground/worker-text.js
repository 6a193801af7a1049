// The training worker's side of "Your text": builds a corpus trainer from a text
// (posting the vocabulary's progress), times a few steps for the page's estimate, and adds to
// each progress message the fixed excerpt's attention, the held-out loss now and then and a
// sample from the fixed prompt every few seconds. Runs in worker.js; never touches the DOM.
import { labelHeads } from '../../../dist/engine/engine.js';
import { countTokens, excerptOf, promptOf, SAMPLE_TOKENS, textTrainerOptions } from './texts.js';

/** The held-out loss is measured this often (up to 4,096 tokens through the model). */
const HELD_OUT_MS = 3000;
/** A new sample from the fixed prompt this often: "watch it learn to write". */
const SAMPLE_MS = 3000;
/** Steps timed for the estimate of the time per 1,000 steps, after WARM_UP_STEPS (the first
 * steps allocate the model's buffers and run colder: 3–7 times slower in node). */
const WARM_UP_STEPS = 2;
const TIMED_STEPS = 4;

/**
 * A corpus trainer for `text` (a string, or a file's bytes, which the engine checks as UTF-8):
 * { trainer, excerpt, prompt, level, estimate: ms per 1,000 steps }. `progress(fraction)` is
 * told as the vocabulary is built. `threads`: the batch's shards (one per core the engine runs).
 */
export function buildTextTrainer(engine, { text, level, knobs, name, threads = 1 }, progress) {
  // The page's estimate of the length needs the text as characters; bytes that are not UTF-8
  // decode with U+FFFD here, and the engine refuses them by offset.
  const decoded = typeof text === 'string' ? text : new TextDecoder().decode(text);
  const options = textTrainerOptions(knobs, level, countTokens(decoded, level));
  const trainer = engine.createCorpusTrainer(text, {
    ...options,
    threads,
    onProgress: (p) => progress(p.fraction),
    corpus: name || 'your text',
  });
  try {
    trainer.step(WARM_UP_STEPS);
    const t0 = performance.now();
    trainer.step(TIMED_STEPS);
    const estimate = ((performance.now() - t0) / TIMED_STEPS) * 1000;
    return { trainer, excerpt: excerptOf(decoded, level), prompt: promptOf(decoded, level), level, estimate };
  } catch (error) {
    trainer.dispose();
    throw error;
  }
}

/** What a text model's `info` adds for the page: the text's summary, baselines and estimate. */
export function textInfo(built) {
  const { trainer, excerpt, prompt, level, estimate } = built;
  return {
    summary: { ...trainer.summary },
    baselines: { ...trainer.baselines },
    contextLength: trainer.contextLength,
    estimate,
    excerpt,
    prompt,
    level,
  };
}

/** The sample from the fixed prompt: the same seed each time, so that only the model changes it. */
export function sampleOf(built) {
  const { trainer, prompt, level } = built;
  const made = trainer.generate(prompt, { count: SAMPLE_TOKENS[level], greedy: false, temperature: 0.8, seed: 1 });
  return { step: trainer.steps, text: made.text };
}

/**
 * A snapshot of the excerpt with every head's role on it (head_labels.js: previous, previousLine,
 * first, self, broad, or null), measured from its weights: roles [layers × heads], as they form.
 */
export function withRoles(snap) {
  const { tokens, layers, heads, length: T, weights } = snap;
  const trace = {
    tokens,
    layers: Array.from({ length: layers }, (_, layer) => ({
      layer,
      heads,
      step: (_name, head) => ({
        rows: T,
        data: weights.subarray((layer * heads + head) * T * T, (layer * heads + head + 1) * T * T),
      }),
    })),
  };
  return { ...snap, roles: labelHeads(trace, true).map((h) => h.label) };
}

/** Adds the held-out loss and a sample to a progress `message` when they are due (`clock` keeps when). */
export function addTextProgress(built, message, clock, now, force) {
  const { trainer } = built;
  if (force || now - clock.heldOut >= HELD_OUT_MS) {
    clock.heldOut = now;
    message.evaluation = { step: trainer.steps, heldOutLoss: trainer.heldOutLoss() };
  }
  if (force || now - clock.sample >= SAMPLE_MS) {
    clock.sample = now;
    message.sample = sampleOf(built);
  }
}
