// One explorer: a store of state → the engine's trace → the views. Several can live on one
// page (the web component); each finds its elements under its own root. Views are functions
// of the trace and the state; only this module calls the engine, which runs in a worker: a
// change first loads what the state needs (needs.js), then draws synchronously.
import * as d3 from 'd3';
import { buildControls, updateControls } from '../controls.js';
import { strings as stringsFor } from '../i18n.js';
import { createStore, MAX_SENTENCE_CHARS, UI_FIELDS } from '../state.js';
import { stepAt } from '../steps.js';
import { stepTitle } from '../step-texts.js';
import { tokenizeSentence, truncateToTokens } from '../tokenize.js';
import { formatCount } from '../format.js';
import { watchColorScheme } from '../scales.js';
import { drawStage, STAGE_SMALL_CELLS, sweepHighlights } from '../views/stage.js';
import { drawStageExtras } from '../views/stage-extras.js';
import { drawExplanation } from '../views/explain.js';
import { cellIn, drawArithmetic, pickedFrom } from '../views/arithmetic.js';
import { VIEWS } from '../views/registry.js';
import { byRole, setText } from '../dom.js';
import { fitSvg } from '../views/fit.js';
import { buildStepper, updateStepper } from '../views/stepper.js';
import { hideTooltip } from '../tooltip.js';
import { withoutMotion } from '../motion.js';
import { jobsDone } from '../frames.js';
import { explorerMarkup } from './template.js';
import { NotLoaded } from './lazy-trace.js';
import { requestsFor } from './needs.js';
import { engineOptions, MODEL_FIELDS, modelTraceOptions, TRAINED_FIELDS } from './options.js';
import { download, figureSVG, svgToPNG, traceCSV, traceJSON } from './export.js';
import { chipList } from './chips.js';
import { createModelPanel, modelBounds } from '../models/panel.js';
import { modelStrings } from '../models/i18n.js';

// What a new trace is computed for: the engine's options, or a trained model's layer.
const TRACE_FIELDS = [...new Set([...MODEL_FIELDS, ...TRAINED_FIELDS])];

// Traces up to this many n×m cells over all heads (e.g. 64 tokens × 16 heads) are computed
// for every keystroke; beyond, only for the newest state.
const CHEAP_CELLS = 65536;

/**
 * @param root an empty element to fill
 * @param o { engine, state, chrome: { header, controls, explain, views, share } (all shown by
 *            default), keyTarget, onChange(state), shareLinks: { page(state), embed(state) } }
 */
export function createExplorer(root, o) {
  root.classList.add('attention-explorer');
  root.innerHTML = explorerMarkup();
  const $ = byRole(root);
  const store = createStore(o.state);
  const chrome = {
    header: true,
    controls: true,
    stepper: true,
    stage: true,
    explain: true,
    views: true,
    share: true,
    ...o.chrome,
  };
  for (const el of root.querySelectorAll('[data-chrome]')) el.hidden = chrome[el.dataset.chrome] === false;
  if (!chrome.explain) root.querySelector('.stage-row').classList.add('no-explain');

  let trace = null;
  // Rendering: render() updates the controls at once and queues a prepare() of its state;
  // only the newest state is drawn. Small traces are computed for every state, as typed (as
  // cheap as before, and the engine sees the same sequence); past CHEAP_CELLS a prepare that a
  // newer render overtook is skipped, so fast typing does not queue seconds of work.
  let generation = 0;
  let queue = Promise.resolve();
  let modelDirty = false; // a skipped prepare changed the model: the next one computes
  let latest = null; // the trace opened last; its answer may still be on its way
  let latestModel = null; // the newest computeModel() (a model may still be loading)
  let opened = Promise.resolve(); // resolves when `latest` is drawable (or failed)
  const chips = chipList($('tokens'));
  const kvChips = chipList($('kv-tokens'));
  let chipsDone = Promise.resolve(); // resolves when every chip of the trace is in the list
  let traceChanged = false;
  let stepChanged = false;
  let motionless = false; // the sentence changed or the panels were resized since the last draw: nothing to animate
  let stageDirty = true; // a field the stage reads changed since it was drawn
  const strings = () => stringsFor(store.get().lang);

  /** A message under the sentence; `action` adds a button, e.g. { label, run } to truncate. */
  function showMessage(text, action = null) {
    const message = $('message');
    message.hidden = !text;
    setText(message, text ?? '');
    if (text && action) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'message-action';
      button.textContent = action.label;
      button.addEventListener('click', action.run);
      message.append(' ', button);
    }
    if (chrome.controls === false && text) showNotice(text);
  }

  function showNotice(text) {
    $('notice').hidden = !text;
    setText($('notice'), text ?? '');
  }

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
    $('empty').hidden = tokens.length > 0;
    if (!tokens.length) {
      dropTraces();
      showMessage(null);
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
    const opening = o.engine.open(options, requestsFor(sizes, state));
    opening.optionsKey = key;
    latest = opening;
    opened = opening.ready.then(
      () => {
        if (latest !== opening) return;
        setTrace(opening);
        showMessage(null);
      },
      (error) => {
        if (latest !== opening) return;
        latest = null;
        setTrace(null);
        showMessage(`${s.engineError}: ${error.message}`);
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
    const { maxTokens } = o.engine.limits;
    const text = state[field];
    if (text.length > MAX_SENTENCE_CHARS) {
      dropTraces();
      $('empty').hidden = true;
      showMessage(s.tooLong(text.length, MAX_SENTENCE_CHARS), {
        label: s.truncate(MAX_SENTENCE_CHARS),
        run: () => store.set({ [field]: text.slice(0, MAX_SENTENCE_CHARS) }),
      });
      return null;
    }
    const tokens = tokenizeSentence(text, state.tokenization);
    if (tokens.length > maxTokens) {
      dropTraces();
      $('empty').hidden = true;
      showMessage(s.tooManyTokens(tokens.length, maxTokens), {
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
    $('empty').hidden = !empty;
    if (empty) {
      dropTraces();
      showMessage(null);
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
        // softmax view's query row depend on: where it is wrong, prepare() loads the rest.
        const tokenization = summary.config.vocabulary === 'character' ? 'chars' : 'words';
        const n = Math.max(1, Math.min(summary.contextLength, tokenizeSentence(state.sentence, tokenization).length));
        const sizes = { heads: summary.heads, nQuery: n, nKey: n, cross: false, dModel: summary.dModel };
        sizes.dK = summary.config.dK || summary.dModel / summary.heads; // 0: the default
        sizes.flops = { outputProjection: 1 };
        // The layer and head within the model, as the panel bounds them in the store (models/panel.js,
        // which computes again): head 6 of random weights' 8 must not be asked of a model with 4.
        const bounded = { ...state, ...modelBounds(state, summary) };
        const opening = o.engine.open(modelTraceOptions(bounded), requestsFor(sizes, bounded));
        latest = opening;
        return opening.ready.then(() => {
          if (latest !== opening) return;
          setTrace(opening);
          showMessage(null);
        });
      })
      .catch((error) => {
        if (latestModel !== mine) return;
        latest?.dispose();
        latest = null;
        setTrace(null);
        showMessage(`${strings().engineError}: ${error.message}`);
      });
    return opened;
  }

  /** No trace: frees the last one opened (every older one was freed when it was replaced). */
  function dropTraces() {
    latest?.dispose();
    latest = null;
    setTrace(null);
  }

  let textsFor = null; // the language and view the static texts and tabs were last written for

  function renderTexts(state, s) {
    // The static texts and tabs depend on the language and the view only: a keystroke skips them.
    if (textsFor !== `${state.lang}:${state.view}`) {
      textsFor = `${state.lang}:${state.view}`;
      renderStaticTexts(state, s);
    }
    renderSummary(state, s);
  }

  function renderStaticTexts(state, s) {
    // Setting lang, even to the same value, restyles every element below (2,048 chips).
    const lang = state.lang === 'zh' ? 'zh-CN' : 'en';
    if (root.lang !== lang) root.lang = lang;
    // Only what differs: writing the same text still replaces its node and lays out again.
    for (const el of root.querySelectorAll('[data-i18n]')) setText(el, s[el.dataset.i18n]);
    for (const el of root.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', s[el.dataset.i18nLabel]);
    for (const el of root.querySelectorAll('[data-i18n-placeholder]')) el.placeholder = s[el.dataset.i18nPlaceholder];
    for (const button of root.querySelectorAll('.language button')) {
      button.setAttribute('aria-pressed', String(button.dataset.lang === state.lang));
    }
    for (const tab of root.querySelectorAll('[role=tab]')) {
      tab.textContent = s[`view.${tab.dataset.view}`];
      const selected = tab.dataset.view === state.view;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      root.querySelector(`[data-panel="${tab.dataset.view}"]`).hidden = !selected;
    }
  }

  function renderSummary(state, s) {
    if (trace) {
      setText(
        $('summary'),
        s.summary(trace.nQuery, trace.heads, trace.dK, formatCount(trace.parameterCount, state.lang)),
      );
      const f = trace.flops;
      setText(
        $('cost'),
        s.cost(
          formatCount(f.scores + f.scaling + f.mask + f.softmax + f.weightedSum, state.lang),
          formatCount(f.qProjection + f.kProjection + f.vProjection + f.outputProjection, state.lang),
        ),
      );
    } else {
      setText($('summary'), '');
      setText($('cost'), '');
    }
  }

  // Widths are read once and then kept by a ResizeObserver: reading clientWidth on every
  // keystroke would force a layout each time.
  const widths = { stage: 800, views: 900 };
  const observer = new ResizeObserver((entries) => {
    let changed = false;
    for (const entry of entries) {
      const key = entry.target.dataset.width;
      const width = Math.floor(entry.contentRect.width);
      if (width > 0 && widths[key] !== width) {
        widths[key] = width;
        changed = true;
      }
    }
    // Nothing to animate: the same state at a new size (also the page's first layout).
    if (changed) {
      motionless = true;
      render(store.get(), new Set());
    }
  });

  function stageWidth() {
    return Math.max(300, widths.stage - 8);
  }

  const renderStage = loaded((state, s, animateSweep) => {
    const svg = d3.select($('stage'));
    if (!trace) {
      svg.selectAll('*').remove();
      $('arithmetic').hidden = true;
      return;
    }
    const def = stepAt(state.step);
    const head = state.head === 'all' ? 0 : state.head;
    const operands = def.operands(trace, head, state);
    const { cell, width, height } = drawStage(svg, operands, {
      width: stageWidth(),
      smallCells: STAGE_SMALL_CELLS,
      stepKey: `${def.key}:${head}`,
      legend: { maskedLabel: s.masked },
      below: (top, width) => drawStageExtras(svg, trace, state, s, top, width),
      // A cell shows its arithmetic under the stage, outlined (a score's pair is also the link to highlight).
      picked: cellIn(state, 'stage'),
      onCell: (operand, row, col) => {
        const cell = pickedFrom(operand, row, col, 'stage');
        if (!cell) return;
        const { head, i, j } = cell;
        const scoreShaped = operand.step.rows === trace.nQuery && operand.step.cols === trace.nKey;
        store.set({ cell, ...(scoreShaped ? { pair: { head, i, j } } : {}) });
      },
    });
    // Sized with room to spare: a keystroke that adds a row lays out none of the stage's texts again.
    fitSvg(svg.node(), width, height);
    if (animateSweep && operands.some((d) => d.sweep)) sweepHighlights(svg, cell);
    // "All heads" in the views; the stage draws one head and says which.
    $('stage-note').hidden = state.head !== 'all' || trace.heads === 1;
    setText($('stage-note'), s.stageShowsHead(head));
    drawExplanation(root.querySelector('.explain'), trace, state, s, modelStrings(state.lang).stepTexts);
    drawArithmetic($('arithmetic'), trace, state, s, () => store.set({ cell: null }));
  });

  /** Draws with what is loaded; a draw that needs more waits for the render queued after it. */
  function loaded(draw) {
    return (...args) => {
      try {
        draw(...args);
      } catch (error) {
        if (!(error instanceof NotLoaded)) throw error;
      }
    };
  }

  const renderViews = loaded((state, s) => {
    const view = VIEWS[state.view];
    if (!trace) {
      for (const { role } of Object.values(VIEWS)) d3.select($(role)).selectAll('*').remove();
      return;
    }
    const heads = state.head === 'all' ? d3.range(trace.heads) : [state.head];
    view.draw({
      trace,
      state,
      strings: s,
      head: state.head === 'all' ? 0 : state.head,
      heads,
      query: Math.min(state.query, trace.nQuery - 1),
      el: $,
      // Drawn as wide as their panel (viewBox = drawn size): text keeps its size on a phone.
      width: Math.max(280, widths.views),
      get: store.get,
      set: store.set,
    });
  });

  function render(state, changed) {
    const s = strings();
    const modelChanged = TRACE_FIELDS.some((f) => changed.has(f));
    if (changed.has('step')) stepChanged = true;
    if (changed.has('sentence')) motionless = true;
    // Hovering a token or picking a cell changes only what the views read (UI_FIELDS): the
    // controls, the stepper, the listener and the stage stay as they are.
    const viewsOnly = changed.size > 0 && [...changed].every((f) => UI_FIELDS.includes(f));
    if (!viewsOnly) {
      stageDirty = true;
      hideTooltip();
      updateControls(root, state, s);
      updateStepper(root.querySelector('.stepper'), stepperUI, state, s);
      o.onChange?.(state);
    }
    const gen = ++generation;
    queue = queue
      .then(() => prepare(gen, state, modelChanged))
      .catch((error) => {
        // Also on the console: a bug in a draw is not the learner's input, and tests see it there.
        console.error(error);
        showMessage(`${strings().engineError}: ${error.message}`);
      });
  }

  /** Computes (when the model changed) and loads what `state` needs, then draws if newest. */
  async function prepare(gen, state, modelChanged) {
    const superseded = gen !== generation;
    if (modelChanged || modelDirty) {
      modelDirty = false;
      compute(state, superseded);
      // A newer state follows at once: its prepare waits, not this one.
      if (superseded) return;
    }
    if (gen !== generation) return;
    await opened; // the newest trace, also when an overtaken prepare opened it
    if (gen !== generation) return;
    if (trace && !trace.disposed) await trace.load(requestsFor(trace, state));
    if (gen !== generation) return;
    draw(state);
  }

  function draw(state) {
    const s = strings();
    if (traceChanged) {
      traceChanged = false;
      chipsDone = chips.show(trace?.tokens ?? [], trace?.unknown);
      // Cross-attention's keys and values as chips of their own.
      kvChips.show(trace?.cross ? trace.kvTokens : []);
      // A token or cell of the last trace that this one does not have is let go; the
      // store's change draws again.
      const stale = staleUI(state);
      if (stale) {
        store.set(stale);
        return;
      }
    }
    renderTexts(state, s);
    const drawViews = () => {
      if (stageDirty) renderStage(state, s, stepChanged);
      renderViews(state, s);
    };
    if (motionless && !stepChanged) withoutMotion(drawViews);
    else drawViews();
    stageDirty = false;
    stepChanged = false;
    motionless = false;
  }

  /** { focus: null } and/or { pair: null } when they name what the trace does not have, else null. */
  function staleUI(state) {
    if (!trace) return null;
    const { focus, pair } = state;
    const patch = {};
    if (focus && focus.index >= (focus.side === 'query' ? trace.nQuery : trace.nKey)) patch.focus = null;
    if (pair && (pair.head >= trace.heads || pair.i >= trace.nQuery || pair.j >= trace.nKey)) patch.pair = null;
    return Object.keys(patch).length ? patch : null;
  }

  /** Resolves once every queued render has drawn (for tests and benchmarks). */
  async function idle() {
    let seen;
    do {
      seen = queue;
      await seen;
      await chipsDone;
      // What a keystroke's draw left to after its frame (the cells' numbers, frames.js).
      await jobsDone();
    } while (seen !== queue);
  }

  /** The current view as a standalone SVG string, with a title, the legend and labels. */
  function viewSVG() {
    const state = store.get();
    const s = strings();
    const view = state.view;
    const svg = root.querySelector(VIEWS[view].exported);
    const heads = view === 'links' && trace ? (state.head === 'all' ? d3.range(trace.heads) : [state.head]) : [];
    return figureSVG(svg, {
      title: `${s[`view.${view}`]} · ${state.step}. ${stepTitle(state, s)}`,
      subtitle:
        state.model === 'random'
          ? `${trace?.tokens.join(' ') ?? ''} · d_model ${state.dModel}, ${state.heads} heads, seed ${state.seed}, mask ${state.mask}`
          : `${trace?.tokens.join(' ') ?? ''} · model ${state.model}, layer ${state.layer + 1}, d_model ${trace?.dModel}, ${trace?.heads} heads`,
      heads,
      headLabel: s.headN,
    });
  }

  async function exportAs(kind) {
    if (!trace) return;
    const state = store.get();
    const name = `attention-${state.view}-step${state.step}`;
    if (kind === 'svg') download(`${name}.svg`, viewSVG(), 'image/svg+xml');
    else if (kind === 'png') download(`${name}.png`, await svgToPNG(viewSVG()), 'image/png');
    else if (kind === 'csv') download('attention-trace.csv', traceCSV(await trace.complete()), 'text/csv');
    else download('attention-trace.json', traceJSON(await trace.complete(), state), 'application/json');
  }

  /** Copies `share`: a string, or { text, note } where the note says what the text leaves out. */
  async function copy(share, button) {
    const { text, note = null } = typeof share === 'string' ? { text: share } : share;
    try {
      await navigator.clipboard.writeText(text);
      button.dataset.copied = 'true';
      if (note) showNotice(note);
    } catch {
      // No clipboard permission (e.g. inside some iframes): show the text to copy by hand.
      showNotice(note ? `${note}\n${text}` : text);
    }
    setTimeout(() => delete button.dataset.copied, 1500);
  }

  for (const button of root.querySelectorAll('.language button')) {
    button.addEventListener('click', () => store.set({ lang: button.dataset.lang }));
  }
  for (const tab of root.querySelectorAll('[role=tab]')) {
    tab.addEventListener('click', () => store.set({ view: tab.dataset.view }));
    tab.addEventListener('keydown', (event) => {
      const tabs = [...root.querySelectorAll('[role=tab]')];
      const k = tabs.indexOf(tab);
      const delta = { ArrowRight: 1, ArrowLeft: tabs.length - 1 }[event.key];
      if (!delta) return;
      event.preventDefault();
      event.stopPropagation();
      const next = tabs[(k + delta) % tabs.length];
      store.set({ view: next.dataset.view });
      next.focus();
    });
  }
  for (const button of root.querySelectorAll('[data-export]')) {
    button.addEventListener('click', () => exportAs(button.dataset.export));
  }
  $('copy-link').addEventListener('click', (event) =>
    copy(o.shareLinks?.page(store.get()) ?? location.href, event.currentTarget),
  );
  $('copy-embed').addEventListener('click', (event) =>
    copy(o.shareLinks?.embed(store.get()) ?? '', event.currentTarget),
  );
  if (!o.shareLinks) root.querySelector('.share').hidden = true;

  const stepperUI = buildStepper(root.querySelector('.stepper'), store, o.keyTarget ?? root);
  $('stage').parentElement.dataset.width = 'stage';
  root.querySelector('.views').dataset.width = 'views';
  observer.observe($('stage').parentElement);
  observer.observe(root.querySelector('.views'));
  buildControls(root, store);
  // Head colours differ between light and dark: redraw when the scheme changes.
  const stopWatchingScheme = watchColorScheme(() => render(store.get(), new Set()));
  const models = createModelPanel(root, store, o.engine);
  store.subscribe(render);
  render(store.get(), new Set(TRACE_FIELDS));

  return {
    store,
    engine: o.engine,
    get trace() {
      return trace;
    },
    showNotice,
    /** Shows a model file (bytes, its name) as the "model file" model; a bad one changes nothing. */
    openModel: (bytes, name) => models.openBytes(bytes, name),
    viewSVG,
    /** The whole trace as CSV or JSON text (promises: every step is read from the engine). */
    traceCSV: async () => (trace ? traceCSV(await trace.complete()) : ''),
    traceJSON: async () => (trace ? traceJSON(await trace.complete(), store.get()) : ''),
    /** Resolves once the explorer has drawn its latest state. */
    idle: async () => {
      await idle();
      await models.idle();
    },
    /** The model panel: ready(key), idle(), view (models/panel.js). */
    models,
    /** Re-renders at the current size (after the container was resized). */
    refresh: () => render(store.get(), new Set()),
    destroy() {
      generation++;
      observer.disconnect();
      stopWatchingScheme();
      stepperUI.stop();
      // After any prepare still running, which may yet open a trace.
      queue = queue.then(dropTraces);
      root.replaceChildren();
    },
  };
}
