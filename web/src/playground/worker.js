// The playground's training worker: its own WASM engine, one trainer (or a loaded model, or the
// two trainers of the √d_k experiment). It trains in chunks of about CHUNK_MS and yields between
// them, so a pause or any other message is handled within one chunk; while paused it does
// nothing at all. It posts metrics in batches and attention snapshots as transferred buffers.
//
// In:  { type: 'configure', config } | { type: 'text', text, level, knobs, name } | 'play' |
//      'pause' | { type: 'step', count } | { type: 'example', input } | 'save' |
//      { type: 'load', bytes } | { type: 'experiment', config } | 'dispose'
// Out: { type: 'ready', corpusLimits } | { type: 'configured', info, snapshot } |
//      { type: 'textProgress', fraction } | { type: 'progress', rows, snapshot?, evaluation?,
//      heads?, sample?, rate } | { type: 'answer', … } | { type: 'saved', bytes } |
//      { type: 'experiment', rows } | { type: 'playing', playing } | { type: 'error', error }
import { createEngine } from '../../../dist/engine/engine.js';
import { PRESETS, TASK_NAMES } from './presets.js';
import { answer, fixedSequence, headScores, meanEntropy, snapshot } from './session.js';
import { addTextProgress, buildTextTrainer, sampleOf, textInfo, withRoles } from './worker-text.js';

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
let trainer = null; // a Trainer, or a TrainedModel after 'load' (which cannot train)
let pair = null; // the experiment: { scaled, unscaled, sequence }
let sequence = null; // the fixed example's tokens
let text = null; // "Your text": buildTextTrainer's result, the trainer being text.trainer
let textClock = { heldOut: 0, sample: 0 };
let playing = false;
let perChunk = 1;
let pending = [];
let lastPost = 0;
let lastEval = 0;
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
  pair?.scaled.dispose();
  pair?.unscaled.dispose();
  pair = null;
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
  if (pair) {
    post({ type: 'experiment', rows, rate: speed });
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
  // Head scores (drawn for the induction task only): the engine's, on HEAD_EXAMPLES held-out
  // examples (≈ 3 ms), with every post so that the phase change shows; else the fixed example's.
  if (trainer.config.task === 'induction') {
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
  const count = perChunk;
  const a = train(pair.scaled, count);
  const b = train(pair.unscaled, count);
  perChunk = Math.max(1, Math.min(200, Math.round((count * CHUNK_MS) / Math.max(a.ms + b.ms, 1))));
  // attentionEntropy / scoreGradientNorm are the trainer's batch metrics where the engine has
  // them; else the entropy of the fixed example's attention (and no gradient norm).
  // The gradient is shown at the softmax's input: the engine's ‖∂L/∂(q·kᵀ)‖ times √dK when the
  // model divides by √dK (the chain rule through the ÷), as is when it does not.
  const side = (model, row) => ({
    loss: row.loss,
    accuracy: row.accuracy,
    entropy: row.attentionEntropy ?? meanEntropy(snapshot(model, pair.sequence)),
    gradient:
      row.scoreGradientNorm === undefined
        ? null
        : row.scoreGradientNorm * (model.config.scale ? Math.sqrt(pair.dK) : 1),
  });
  pending.push({ step: a.row.step, scaled: side(pair.scaled, a.row), unscaled: side(pair.unscaled, b.row) });
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
    if (pair) experimentChunk();
    else trainChunk();
    flush();
  } catch (error) {
    setPlaying(false);
    post({ type: 'error', request: pair ? 'experiment' : 'play', error: errorData(error) });
    return;
  }
  if (playing) schedule();
}

const handlers = {
  configure({ config }) {
    freeAll();
    trainer = engine.createTrainer(config);
    sequence = fixedSequence(trainer);
    perChunk = 1;
    const [part, transfer] = packed(snapshot(trainer, sequence));
    post({ type: 'configured', info: info(trainer), snapshot: part }, transfer);
  },
  text({ text: source, level, knobs, name }) {
    freeAll();
    const built = buildTextTrainer(engine, { text: source, level, knobs, name }, (fraction) =>
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
    if (!Object.hasOwn(PRESETS, String(model.config.task))) {
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
    if (trainer?.step || pair) setPlaying(true);
  },
  pause() {
    // The last rows first: once the page hears "paused", it has every step that ran.
    if (pending.length) flush(true);
    setPlaying(false);
  },
  step({ count = 1 }) {
    if (!trainer?.step || pair) return;
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
  experiment({ config }) {
    freeAll();
    const scaled = engine.createTrainer({ ...config, scale: true });
    const unscaled = engine.createTrainer({ ...config, scale: false });
    const dK = scaled.config.dK || scaled.config.dModel / scaled.config.heads;
    pair = { scaled, unscaled, dK, sequence: fixedSequence(scaled) };
    perChunk = 1;
    post({ type: 'experiment', rows: [], info: info(scaled) });
    setPlaying(true);
  },
  dispose() {
    freeAll();
  },
};

self.onmessage = async ({ data }) => {
  try {
    if (data.type === 'init') {
      engine = await createEngine({ wasmBinary: data.wasmBinary });
      post({ type: 'ready', corpusLimits: { ...engine.corpusLimits } });
      return;
    }
    const handler = Object.hasOwn(handlers, data.type) ? handlers[data.type] : null;
    if (!handler) throw new Error(`unknown request ${String(data.type)}`);
    handler(data);
  } catch (error) {
    post({ type: 'error', request: data.type, error: errorData(error) });
  }
};
