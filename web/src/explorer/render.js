// Rendering: the computer's trace and a state → the page. Draws the texts and tabs and the
// summary (page-texts.js), the stage with its explanation and arithmetic, the chosen view (views/registry.js)
// and the token chips; keeps the panels' widths (a ResizeObserver, so no keystroke reads a
// layout) and what changed since the last draw (what to animate, whether the stage is stale).
//
//   createRenderer({ root, $, store, strings, computer, stepper, threads, onChange, redraw }) → {
//     changed(state, fields)  at once, per store change: controls, stepper, listener (not for UI_FIELDS)
//     draw(state)             the page for `state` and computer.trace (loaded by the scheduler)
//     chipsDone               resolves when every chip of the drawn trace is in the list
//     stop()                  stops watching the panels' sizes
//   }
import * as d3 from 'd3';
import { markGlobalChips, updateControls } from '../controls.js';
import { UI_FIELDS } from '../state.js';
import { stepAt } from '../steps.js';
import { drawStage, STAGE_SMALL_CELLS, sweepHighlights } from '../views/stage.js';
import { drawStageExtras } from '../views/stage-extras.js';
import { drawExplanation } from '../views/explain.js';
import { cellIn, drawArithmetic, pickedFrom } from '../views/arithmetic.js';
import { VIEWS } from '../views/registry.js';
import { setText } from '../dom.js';
import { fitSvg } from '../views/fit.js';
import { updateStepper } from '../views/stepper.js';
import { hideTooltip } from '../tooltip.js';
import { withoutMotion } from '../motion.js';
import { NotLoaded } from './lazy-trace.js';
import { chipList } from './chips.js';
import { writeStaticTexts, writeSummary } from './page-texts.js';
import { frameOf } from './compact-fit.js';
import { modelStrings } from '../models/i18n.js';

/**
 * @param o { root, $: the root's elements by data-role, store, strings(): the page's strings
 *            now, computer (compute.js), stepper: buildStepper's handle, onChange(state): the
 *            page's listener, redraw(): renders the store's state again (after a resize),
 *            threads: the engine worker's { count, reason } (engine.js) }
 */
export function createRenderer({ root, $, store, strings, computer, stepper, threads, onChange, redraw }) {
  const chips = chipList($('tokens'));
  const kvChips = chipList($('kv-tokens'));
  let chipsDone = Promise.resolve(); // resolves when every chip of the trace is in the list
  let stepChanged = false;
  let motionless = false; // the sentence changed or the panels were resized since the last draw: nothing to animate
  let stageDirty = true; // a field the stage reads changed since it was drawn
  let textsFor = null; // the language and view the static texts and tabs were last written for

  function renderTexts(state, s) {
    // The static texts and tabs depend on the language and the view only: a keystroke skips them.
    if (textsFor !== `${state.lang}:${state.view}`) {
      textsFor = `${state.lang}:${state.view}`;
      writeStaticTexts({ root, $, threads }, state, s);
    }
    writeSummary($, computer.trace, state, s);
  }

  // Nothing to animate after a resize: the same state at a new size (also the page's first layout).
  const widths = watchWidths(root, $, () => {
    motionless = true;
    redraw();
  });
  const parts = { root, $, store, widths: widths.now };
  const renderStage = loaded((state, s, animateSweep) => drawStagePart(parts, computer.trace, state, s, animateSweep));
  const renderViews = loaded((state, s) => drawViewPart(parts, computer.trace, state, s));

  function changed(state, fields) {
    if (fields.has('step')) stepChanged = true;
    if (fields.has('sentence')) motionless = true;
    // Hovering a token or picking a cell changes only what the views read (UI_FIELDS): the
    // controls, the stepper, the listener and the stage stay as they are.
    const viewsOnly = fields.size > 0 && [...fields].every((f) => UI_FIELDS.includes(f));
    if (viewsOnly) return;
    const s = strings();
    stageDirty = true;
    hideTooltip();
    updateControls(root, state, s);
    updateStepper(root.querySelector('.stepper'), stepper, state, s);
    onChange?.(state);
  }

  function draw(state) {
    const { trace } = computer;
    const s = strings();
    if (computer.takeChanged()) {
      // A poem model reads a line break before the text (its document start): chip 0, marked.
      const start = trace?.start ? modelStrings(state.lang).startChip : null;
      chipsDone = chips.show(trace?.tokens ?? [], trace?.unknown, start, trace?.chips);
      // New chips: a sparse pattern's global tokens are marked on them (the store's newest state).
      chipsDone.then(() => markGlobalChips($('tokens'), store.get(), strings()));
      // Cross-attention's keys and values as chips of their own.
      kvChips.show(trace?.cross ? trace.kvTokens : []);
      // A token or cell of the last trace that this one does not have is let go; the
      // store's change draws again.
      const stale = staleUI(trace, state);
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

  return {
    changed,
    draw,
    get chipsDone() {
      return chipsDone;
    },
    stop: widths.stop,
  };
}

/**
 * The stage and the views' panel widths, read once and then kept by a ResizeObserver: reading
 * clientWidth on every keystroke would force a layout each time. → { now: { stage, views } (px,
 * kept up to date), stop() }; onResize() after a width changed.
 */
function watchWidths(root, $, onResize) {
  const now = { stage: 800, views: 900 };
  const observer = new ResizeObserver((entries) => {
    let changed = false;
    for (const entry of entries) {
      const key = entry.target.dataset.width;
      const width = Math.floor(entry.contentRect.width);
      if (width > 0 && now[key] !== width) {
        now[key] = width;
        changed = true;
      }
    }
    if (changed) onResize();
  });
  $('stage').parentElement.dataset.width = 'stage';
  root.querySelector('.views').dataset.width = 'views';
  observer.observe($('stage').parentElement);
  observer.observe(root.querySelector('.views'));
  return { now, stop: () => observer.disconnect() };
}

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

/**
 * The stage of `state`'s step for one head, with its explanation and a picked cell's arithmetic
 * (none without a trace). parts: { root, $, store, widths }.
 */
function drawStagePart({ root, $, store, widths }, trace, state, s, animateSweep) {
  const svg = d3.select($('stage'));
  if (!trace) {
    svg.selectAll('*').remove();
    $('arithmetic').hidden = true;
    return;
  }
  const def = stepAt(state.step, state);
  const head = state.head === 'all' ? 0 : state.head;
  const operands = def.operands(trace, head, state);
  const { cell, width, height } = drawStage(svg, operands, {
    width: Math.max(300, widths.stage - 8),
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
}

/** The chosen view (views/registry.js) from the registry's one context; every view emptied without a trace. */
function drawViewPart({ root, $, store, widths }, trace, state, s) {
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
    // A figure (the compact embed): its frame's { width, height } (compact-fit.js), or null.
    figure: root.classList.contains('compact') ? frameOf(root) : null,
    get: store.get,
    set: store.set,
  });
}

/** { focus: null } and/or { pair: null } when they name what the trace does not have, else null. */
function staleUI(trace, state) {
  if (!trace) return null;
  const { focus, pair } = state;
  const patch = {};
  if (focus && focus.index >= (focus.side === 'query' ? trace.nQuery : trace.nKey)) patch.focus = null;
  if (pair && (pair.head >= trace.heads || pair.i >= trace.nQuery || pair.j >= trace.nKey)) patch.pair = null;
  return Object.keys(patch).length ? patch : null;
}
