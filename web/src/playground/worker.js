// The playground's training worker: its own WASM engine, one trainer (or a loaded model, or the
// two trainers of the √d_k experiment). It trains in chunks of about CHUNK_MS and yields between
// them, so a pause or any other message is handled within one chunk; while paused it does
// nothing at all. It posts metrics in batches and attention snapshots as transferred buffers.
//
// In:  { type: 'configure', config } | { type: 'text', text, level, knobs, name } | 'play' |
//      'pause' | { type: 'step', count } | { type: 'example', input } | 'save' |
//      { type: 'exportHf', name } | { type: 'load', bytes } | { type: 'experiment', setting, seed } | 'dispose', after
//      { type: 'init', wasmBinary } (the single-threaded engine, bundled here) or
//      { type: 'init', engineUrl } (the threaded one, dist/engine-mt, imported by its URL: its
//      pthreads import it again, so it cannot be bundled)
// Out: { type: 'ready', corpusLimits, threads } | { type: 'configured', info, snapshot } |
//      { type: 'textProgress', fraction } | { type: 'progress', rows, snapshot?, evaluation?,
//      heads?, sample?, rate } | { type: 'answer', … } | { type: 'saved', bytes } |
//      { type: 'exportedHf', bytes, name } or { type: 'exportedHf', error } |
//      { type: 'experiment', rows, exactMatch? } | { type: 'playing', playing } |
//      { type: 'error', error }
import { createEngine } from '../../../dist/engine/engine.js';
import { armConfig, armRow, DK_ARMS, DK_EVAL_EXAMPLES, DK_STEPS } from './dk-experiment.js';
import { scoresHeads, TASK_NAMES } from './presets.js';
import { answer, fixedSequence, headScores, snapshot } from './session.js';
import { addTextProgress, buildTextTrainer, sampleOf, textInfo, withRoles } from './worker-text.js';
import { hfZip, hfZipName } from '../hf-export.js';

/** A chunk of steps lasts about this long: short enough that pausing feels immediate. */
const CHUNK_MS = 20;
/** Metrics and a snapshot go out at most this often (the page draws each batch once). A post
 * waits for the end of a chunk, so posts come every POST_MS … POST_MS + CHUNK_MS, and a loaded
 * machine stretches chunks: 50 (with 20 ms chunks) keeps the page above 10 redraws per second
 * where 80 (with 30 ms chunks) gave 6–9. */
const POST_MS = 50;
/** Held-out exact match is measured on this many examples every EVAL_MS (≈ 50 ms of work on
 * the sort preset, 150 ms on a loaded machine: it holds up pausing for that long). */
const EVAL_EXAMPLES = 100;
const EVAL_MS = 1500;
const HEAD_EXAMPLES = 16;

let engine = null;
/** A trainer's `threads`, its batch's shards: one per core the engine runs (engine.threads). The
 * √d_k experiment's arms keep their own (dk-experiment.js), so that a live run is the committed one. */
let shards = 1;
let trainer = null; // a Trainer, or a TrainedModel after 'load' (which cannot train)
let arms = null; // the experiment: { scaled, unscaled, control }, each { trainer, config }
let sequence = null; // the fixed example's tokens
let text = null; // "Your text": buildTextTrainer's result, the trainer being text.trainer
let textClock = { heldOut: 0, sample: 0 };
let playing = false;
let perChunk = 1;
let pending = [];
let lastPost = 0;
let lastEval = -Infinity; // a new model's first post carries a measurement
let rate = { steps: 0, ms: 0, tokens: 0 };

const post = (message, transfer = []) => self.postMessage(message, transfer);
const errorData = (error) => ({ code: error.code ?? 'ERROR', field: error.field ?? null, message: error.message });

function info(model) {
  return {
    parameterCount: model.parameterCount,
    // A text model's vocabulary can hold thousands of symbols the page never shows.
    vocabulary: text ? [] : [...model.vocabulary],
    contextLength: model.contextLength,
    config: { ...model.config },
    trainable: typeof model.step === 'function',
    steps: typeof model.step === 'function' ? model.steps : 0,
    ...(text && { text: textInfo(text) }),
  };
}

function freeAll() {
  trainer?.dispose();
  trainer = null;
  text = null;
  for (const arm of Object.values(arms ?? {})) arm.trainer.dispose();
  arms = null;
  pending = [];
  setPlaying(false);
}

function setPlaying(on) {
  if (playing === on) return;
  playing = on;
  post({ type: 'playing', playing });
  if (on) schedule();
}

/** A snapshot as a message part, its buffers listed for transfer. */
function packed(snap) {
  const { tokens, layers, heads, length, weights, roles } = snap;
  return [{ tokens, layers, heads, length, weights, ...(roles && { roles }) }, [weights.buffer]];
}

/** Steps `count` updates, timing them; one row of metrics for the curves. */
function train(model, count) {
  const t0 = performance.now();
  const m = model.step(count);
  const ms = performance.now() - t0;
  rate.steps += count;
  rate.ms += ms;
  // A task trainer's batch of whole examples, or a text trainer's windows of contextLength.
  const batch = model.trainerConfig?.batchSize ?? model.config.batchSize;
  rate.tokens += count * batch * (model.sequenceLength ?? model.contextLength);
  return { row: { ...m }, ms };
}

function flush(force = false) {
  const now = performance.now();
  if (!force && now - lastPost < POST_MS) return;
  lastPost = now;
  const rows = pending;
  pending = [];
  const speed =
    rate.ms > 0
      ? { stepsPerSecond: (rate.steps * 1000) / rate.ms, tokensPerSecond: (rate.tokens * 1000) / rate.ms }
      : null;
  rate = { steps: 0, ms: 0, tokens: 0 };
  if (arms) {
    const message = { type: 'experiment', rows, rate: speed };
    // The end of the run: each arm's held-out exact match, as the committed run measures it.
    if (arms.scaled.trainer.steps >= DK_STEPS) {
      message.exactMatch = Object.fromEntries(
        DK_ARMS.map((arm) => [arm, arms[arm].trainer.evaluate(DK_EVAL_EXAMPLES).exactMatch]),
      );
      setPlaying(false);
    }
    post(message);
    return;
  }
  // The engine's compact snapshot where it has one (a Trainer), else from a trace.
  const snap = text
    ? withRoles(trainer.attention(text.excerpt))
    : trainer.attention
      ? trainer.attention({ tokens: sequence })
      : snapshot(trainer, sequence);
  const [part, transfer] = packed(snap);
  const message = { type: 'progress', rows, rate: speed, snapshot: part, step: trainer.steps };
  if (text) {
    addTextProgress(text, message, textClock, now, force);
    post(message, transfer);
    return;
  }
  // Head scores (drawn for a task whose preset asks, induction's): the engine's, on HEAD_EXAMPLES
  // held-out examples (≈ 3 ms), with every post so that the phase change shows; else the fixed
  // example's.
  if (scoresHeads(trainer.config.task)) {
    message.heads = typeof trainer.headScores === 'function' ? trainer.headScores(HEAD_EXAMPLES) : headScores(snap);
  }
  if (force || now - lastEval >= EVAL_MS) {
    lastEval = now;
    message.evaluation = { step: trainer.steps, ...trainer.evaluate(EVAL_EXAMPLES) };
  }
  post(message, transfer);
}

function trainChunk() {
  const { row, ms } = train(trainer, perChunk);
  perChunk = Math.max(1, Math.min(500, Math.round((perChunk * CHUNK_MS) / Math.max(ms, 1))));
  pending.push(row);
}

function experimentChunk() {
  // The three arms step together, never past DK_STEPS: the run is the committed run's length.
  const count = Math.min(perChunk, DK_STEPS - arms.scaled.trainer.steps);
  let ms = 0;
  const row = {};
  for (const arm of DK_ARMS) {
    const done = train(arms[arm].trainer, count);
    ms += done.ms;
    row[arm] = armRow(done.row, arms[arm].config);
  }
  perChunk = Math.max(1, Math.min(200, Math.round((count * CHUNK_MS) / Math.max(ms, 1))));
  pending.push({ step: row.scaled.step, ...row });
}

// Yielding through a MessageChannel, not setTimeout: nested timeouts are clamped to 4 ms.
const channel = new MessageChannel();
channel.port1.onmessage = tick;
function schedule() {
  channel.port2.postMessage(0);
}

function tick() {
  if (!playing) return;
  try {
    if (arms) {
      experimentChunk();
      flush(arms.scaled.trainer.steps >= DK_STEPS); // the last rows and the end, at once
    } else {
      trainChunk();
      flush();
    }
  } catch (error) {
    setPlaying(false);
    post({ type: 'error', request: arms ? 'experiment' : 'play', error: errorData(error) });
    return;
  }
  if (playing) schedule();
}

const handlers = {
  configure({ config }) {
    freeAll();
    trainer = engine.createTrainer({ threads: shards, ...config });
    sequence = fixedSequence(trainer);
    perChunk = 1;
    lastEval = -Infinity;
    const [part, transfer] = packed(snapshot(trainer, sequence));
    post({ type: 'configured', info: info(trainer), snapshot: part }, transfer);
  },
  text({ text: source, level, knobs, name }) {
    freeAll();
    const built = buildTextTrainer(engine, { text: source, level, knobs, name, threads: shards }, (fraction) =>
      post({ type: 'textProgress', fraction }),
    );
    text = built;
    trainer = built.trainer;
    perChunk = 1;
    textClock = { heldOut: performance.now(), sample: performance.now() };
    const [part, transfer] = packed(withRoles(trainer.attention(text.excerpt)));
    post(
      {
        type: 'configured',
        info: info(trainer),
        snapshot: part,
        evaluation: { step: trainer.steps, heldOutLoss: trainer.heldOutLoss() },
        sample: sampleOf(text),
      },
      transfer,
    );
  },
  load({ bytes, name }) {
    const model = engine.loadModel(bytes);
    if (!TASK_NAMES.includes(String(model.config.task))) {
      const kind = model.config.vocabulary ?? 'unknown';
      model.dispose();
      throw new Error(
        `${name} is a ${kind} model; this page trains the toy tasks (${TASK_NAMES.join(', ')}): open it in the explorer`,
      );
    }
    freeAll();
    trainer = model;
    sequence = fixedSequence(trainer);
    const [part, transfer] = packed(snapshot(trainer, sequence));
    post({ type: 'configured', info: { ...info(trainer), name }, snapshot: part }, transfer);
  },
  play() {
    if (trainer?.step || (arms && arms.scaled.trainer.steps < DK_STEPS)) setPlaying(true);
  },
  pause() {
    // The last rows first, and a measurement of the model as it stopped (the held-out line
    // names the step it paused at, not one up to EVAL_MS older): once the page hears
    // "paused", it has every step that ran.
    if (pending.length || (playing && !arms)) flush(true);
    setPlaying(false);
  },
  step({ count = 1 }) {
    if (!trainer?.step || arms) return;
    setPlaying(false);
    pending.push(train(trainer, count).row);
    flush(true);
  },
  example({ input, id }) {
    const a = answer(trainer, input);
    const [part, transfer] = packed(a.snapshot);
    post({ type: 'answer', id, prompt: a.prompt, answer: a.answer, expected: a.expected, snapshot: part }, transfer);
  },
  save({ purpose }) {
    const bytes = trainer.save();
    post({ type: 'saved', bytes, purpose }, [bytes.buffer]);
  },
  // "Export for transformers" (../hf-export.js): the model as it is now, a GPT-2 folder in a
  // .zip. Its refusal is the button's, not a failure of training: it does not stop play.
  exportHf({ name }) {
    try {
      if (!trainer) throw new Error('there is no model to export');
      const bytes = hfZip(trainer, name, 'the playground’s “Export for transformers” button');
      post({ type: 'exportedHf', bytes, name: hfZipName(name) }, [bytes.buffer]);
    } catch (error) {
      post({ type: 'exportedHf', error: errorData(error) });
    }
  },
  experiment({ setting, seed }) {
    freeAll();
    // All three or none: a refused setting or seed leaves no trainer behind.
    const made = {};
    try {
      for (const arm of DK_ARMS) {
        const config = armConfig(setting, arm, seed);
        made[arm] = { config, trainer: engine.createTrainer(config) };
      }
    } catch (error) {
      for (const arm of Object.values(made)) arm.trainer.dispose();
      throw error;
    }
    arms = made;
    perChunk = 1;
    post({ type: 'experiment', rows: [] });
    setPlaying(true);
  },
  dispose() {
    freeAll();
  },
};

self.onmessage = async ({ data }) => {
  try {
    if (data.type === 'init') {
      engine = data.engineUrl
        ? await (await import(data.engineUrl)).createEngine()
        : await createEngine({ wasmBinary: data.wasmBinary });
      const field = engine.trainerFields.find((f) => f.name === 'threads');
      shards = Math.max(1, Math.min(engine.threads, field?.max ?? 1));
      post({ type: 'ready', corpusLimits: { ...engine.corpusLimits }, threads: engine.threads });
      return;
    }
    const handler = Object.hasOwn(handlers, data.type) ? handlers[data.type] : null;
    if (!handler) throw new Error(`unknown request ${String(data.type)}`);
    handler(data);
  } catch (error) {
    post({ type: 'error', request: data.type, error: errorData(error) });
  }
};
