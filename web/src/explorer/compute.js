// Computing: a state → the engine's trace of it. Opens traces in the engine's worker (random
// weights from the state's options, or a trained model's layer once the model panel has it
// loaded), frees the one it replaces, and loads what a state draws (needs.js). It draws
// nothing: what the learner should read goes out through `say` and `showEmpty`.
//
//   createComputer({ engine, models, store, strings, say, showEmpty }) → {
//     trace            the drawable trace, or null (no sentence, too long, an error)
//     opened           a promise: resolves once the newest trace opened is drawable (or failed)
//     reads(changed)   whether a change of these state fields asks for a new trace
//     update(state, { modelChanged, superseded }) opens a trace when asked, or when a skipped one is due;
//                      true if it tried
//     load(state)      loads what `state` draws from the drawable trace
//     takeChanged()    true once after each new `trace` (the page's chips and stale UI follow it)
//     drop()           no trace: frees the last one opened
//   }
import { MAX_SENTENCE_CHARS } from '../state.js';
import { tokenizeSentence, truncateToTokens } from '../tokenize.js';
import { requestsFor } from './needs.js';
import { engineOptions, MODEL_FIELDS, modelTraceOptions, TRAINED_FIELDS } from '../engine-options.js';
import { modelBounds } from '../models/bounds.js';

// What a new trace is computed for: the engine's options, or a trained model's layer.
export const TRACE_FIELDS = [...new Set([...MODEL_FIELDS, ...TRAINED_FIELDS])];

// Traces up to this many n×m cells over all heads (e.g. 64 tokens × 16 heads) are computed
// for every keystroke; beyond, only for the newest state.
const CHEAP_CELLS = 65536;

/**
 * @param o { engine: the page's engine (open, limits), models: the model panel (ready(key)),
 *            store, strings(): the page's strings now, say(text, action): the message under
 *            the sentence, showEmpty(empty): the hint shown when there is no sentence }
 */
export function createComputer({ engine, models, store, strings, say, showEmpty }) {
  let trace = null;
  let traceChanged = false;
  let modelDirty = false; // a skipped compute changed the model: the next update computes
  let latest = null; // the trace opened last; its answer may still be on its way
  let latestModel = null; // the newest computeModel() (a model may still be loading)
  let opened = Promise.resolve(); // resolves when `latest` is drawable (or failed)

  function setTrace(next) {
    trace = next;
    traceChanged = true;
  }

  /**
   * Opens the trace of `state` (the message leaves at once); resolves when it is the drawn
   * trace, or null without opening when the state has no trace or is `superseded` and not
   * cheap (a newer state follows: fast typing in a long text must not queue seconds of work).
   */
  function compute(state, superseded) {
    if (state.model !== 'random') return computeModel(state);
    const tokens = tokensOf(state, 'sentence');
    // Cross-attention: keys and values from the second sentence (none: self-attention).
    const kvTokens = tokens && tokensOf(state, 'kv');
    if (!tokens || !kvTokens) return null;
    showEmpty(tokens.length === 0);
    if (!tokens.length) {
      drop();
      say(null);
      return null;
    }
    const nKey = kvTokens.length || tokens.length;
    if (superseded && tokens.length * nKey * state.heads > CHEAP_CELLS) {
      modelDirty = true;
      return null;
    }
    const options = engineOptions(state, tokens, kvTokens);
    // The same tokens and settings (a space typed after a word): the trace is the same.
    const key = JSON.stringify(options);
    if (latest?.optionsKey === key && !latest.disposed) return opened;
    // Free the old trace's WASM memory before the new one takes its own.
    latest?.dispose();
    // The trace's first data comes with it (one message per keystroke): what this state
    // draws, for a trace of these sizes.
    const sizes = {
      heads: state.heads,
      nQuery: tokens.length,
      nKey,
      cross: kvTokens.length > 0,
      dModel: state.dModel,
      dK: state.dModel / state.heads,
      // Step 10's operands ask the trace whether W_O is used (without it, it costs no FLOPs).
      flops: { outputProjection: options.outputProjection === false ? 0 : 1 },
    };
    const opening = engine.open(options, requestsFor(sizes, state));
    opening.optionsKey = key;
    latest = opening;
    opened = opening.ready.then(
      () => {
        if (latest !== opening) return;
        setTrace(opening);
        say(null);
      },
      (error) => {
        if (latest !== opening) return;
        latest = null;
        setTrace(null);
        say(`${strings().engineError}: ${error.message}`);
      },
    );
    return opened;
  }

  /**
   * The tokens of `state[field]` (the sentence, or cross-attention's kv), or null when it is
   * too long for the page or the engine: then the trace is dropped and a message offers to cut it.
   */
  function tokensOf(state, field) {
    const s = strings();
    const { maxTokens } = engine.limits;
    const text = state[field];
    if (text.length > MAX_SENTENCE_CHARS) {
      drop();
      showEmpty(false);
      say(s.tooLong(text.length, MAX_SENTENCE_CHARS), {
        label: s.truncate(MAX_SENTENCE_CHARS),
        run: () => store.set({ [field]: text.slice(0, MAX_SENTENCE_CHARS) }),
      });
      return null;
    }
    const tokens = tokenizeSentence(text, state.tokenization);
    if (tokens.length > maxTokens) {
      drop();
      showEmpty(false);
      say(s.tooManyTokens(tokens.length, maxTokens), {
        label: s.truncateTokens(maxTokens),
        run: () => store.set({ [field]: truncateToTokens(text, state.tokenization, maxTokens) }),
      });
      return null;
    }
    return tokens;
  }

  /**
   * A trained model's layer (models/panel.js): the same ten steps, computed from the layer's
   * own input and weights once the model is loaded in the worker. Resolves when drawable.
   */
  function computeModel(state) {
    const empty = !state.sentence.trim();
    showEmpty(empty);
    if (empty) {
      drop();
      say(null);
      return null;
    }
    latest?.dispose();
    latest = null;
    const mine = {};
    latestModel = mine;
    opened = models
      .ready(state.model)
      .then((summary) => {
        if (latestModel !== mine) return undefined;
        // What this state draws comes with the trace, as for random weights (compute): loaded
        // after it, it was a second round trip to the worker, queued behind the model panel's
        // (about 20 ms a keystroke at 8 tokens). The sizes are the model's; the token count is
        // the page's estimate (the worker encodes the text), which only the picked cell and the
        // softmax view's query row depend on: where it is wrong, load() loads the rest.
        const tokenization = summary.config.vocabulary === 'character' ? 'chars' : 'words';
        const n = Math.max(1, Math.min(summary.contextLength, tokenizeSentence(state.sentence, tokenization).length));
        const sizes = { heads: summary.heads, nQuery: n, nKey: n, cross: false, dModel: summary.dModel };
        sizes.dK = summary.config.dK || summary.dModel / summary.heads; // 0: the default
        sizes.flops = { outputProjection: 1 };
        // The layer and head within the model, as the panel bounds them in the store (models/panel.js,
        // which computes again): head 6 of random weights' 8 must not be asked of a model with 4.
        const bounded = { ...state, ...modelBounds(state, summary) };
        const opening = engine.open(modelTraceOptions(bounded), requestsFor(sizes, bounded));
        latest = opening;
        return opening.ready.then(() => {
          if (latest !== opening) return;
          setTrace(opening);
          say(null);
        });
      })
      .catch((error) => {
        if (latestModel !== mine) return;
        latest?.dispose();
        latest = null;
        setTrace(null);
        say(`${strings().engineError}: ${error.message}`);
      });
    return opened;
  }

  /** No trace: frees the last one opened (every older one was freed when it was replaced). */
  function drop() {
    latest?.dispose();
    latest = null;
    setTrace(null);
  }

  return {
    get trace() {
      return trace;
    },
    get opened() {
      return opened;
    },
    reads: (changed) => TRACE_FIELDS.some((f) => changed.has(f)),
    /** Computes when the model changed, or a skipped compute left one to do. */
    update(state, { modelChanged, superseded }) {
      if (!modelChanged && !modelDirty) return false;
      modelDirty = false;
      compute(state, superseded);
      return true;
    },
    async load(state) {
      if (trace && !trace.disposed) await trace.load(requestsFor(trace, state));
    },
    takeChanged() {
      const was = traceChanged;
      traceChanged = false;
      return was;
    },
    drop,
  };
}
