// Rendering the page's own lines from the store: the texts in the page's language, the controls
// (a loaded model's knobs while it is the model), the play and step buttons, the status line
// (step, speed, threads, parameters), and what a new model clears. The charts and heatmaps are
// frame parts (frameParts below, drawn by schedule.js); the text and √d_k panels draw themselves.
//
//   createPageView({ root, $, store, t, threads, chrome, lines, panels: () => ({ ownText, experiment }), redraw }) → {
//     applyTexts()          every text and control again (a new language, task or model)
//     showControls(), showPlaying(), showStatus()
//     clearModel()          nothing of the last model stays on the page while the next is made
//     showExampleError(e)   the typed example's fault (e: { key, args } or null)
//     format(n)             a whole number in the page's language
//   }
// The store's listener redraws the buttons on `playing` and `info`, the status on `status` and
// `info`, the controls on `loadedKnobs`.
import { presetOf, scoresHeads } from './presets.js';
import { drawAnswer, drawCurves, drawHeadScores, drawSnapshot, setText } from './render.js';
import { KNOB_CONTROLS, MODES, TEXT_MODE } from './state.js';

/** The parts drawn at most once per frame (schedule.js), in their order: the live heatmaps first. */
export function frameParts({ root, store, t, experiment }) {
  const state = store.get;
  return [
    // The heatmaps paint until the frame's budget is spent and say whether they are done.
    [
      'snapshot',
      () => true,
      (deadline) => drawSnapshot(root, state().history, state().scrubIndex, t(), state().heatmapPage, deadline),
    ],
    [
      'answer',
      () => state().lastAnswer,
      (deadline) => drawAnswer(root, state().lastAnswer, t(), state().heatmapPage, deadline),
    ],
    ['heads', () => scoresHeads(state().task), () => drawHeadScores(root, state().history, t())],
    ['curves', () => true, () => drawCurves(root, state().history, t(), state().playing)],
    ['experiment', () => true, () => experiment().draw()],
  ];
}

// One formatter per language: the status is rewritten with every progress message.
const formats = new Map();
function numberFormat(lang) {
  if (!formats.has(lang))
    formats.set(lang, new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en-US', { maximumFractionDigits: 0 }));
  return formats.get(lang);
}

export function createPageView({ root, $, store, t, threads, chrome, lines, panels, redraw }) {
  const state = store.get;
  const isText = () => state().task === TEXT_MODE;

  function fillSelect(role, values, label = String) {
    $(role).replaceChildren(...values.map((v) => new Option(label(v), String(v))));
  }
  /** Shows `value` in a select of `values`, adding it as an option where it is not one. */
  function showValue(role, values, value) {
    const all = values.includes(value) ? values : [...values, value].sort((a, b) => a - b);
    const options = [...$(role).options].map((o) => o.value);
    if (options.join() !== all.map(String).join()) fillSelect(role, all);
    $(role).value = String(value);
  }

  function applyTexts() {
    const s = t();
    const { lang, task } = state();
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    document.title = s.title;
    root.querySelectorAll('[data-i18n]').forEach((node) => {
      node.textContent = s[node.dataset.i18n];
    });
    root
      .querySelectorAll('[data-lang]')
      .forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.lang === lang)));
    fillSelect('task', MODES, (name) => s[`task.${name}`]);
    $('task-help').textContent = s.taskHelp[task];
    // What the head scores' curves show, beside them.
    $('curves-note').hidden = !scoresHeads(state().task);
    $('curves-note').textContent = scoresHeads(state().task) ? s.inductionCurves : '';
    $('example').placeholder = isText() ? '' : presetOf(task).placeholder;
    // "Your text" shows its text and sample panels instead of the typed example.
    $('text-panel').hidden = !isText();
    $('try-panel').hidden = isText() || chrome.try === false;
    panels().ownText.redraw();
    panels().experiment.applyTexts();
    showPlaying();
    showControls();
    showStatus();
    lines.redraw();
    redraw('curves', 'snapshot', 'heads', 'experiment', 'answer');
  }

  function showControls() {
    const shown = { ...state(), ...state().loadedKnobs };
    $('task').value = shown.task;
    for (const { field, values, control } of KNOB_CONTROLS) {
      if (values) showValue(field, values, shown[field]);
      else if (control === 'check') $(field).checked = shown[field];
      else $(field).value = String(shown[field]);
    }
    $('example').value = state().example;
    $('heads-panel').hidden = !scoresHeads(state().task);
  }

  function showPlaying() {
    const { playing, info } = state();
    const button = $('play');
    button.textContent = playing ? t().pause : t().play;
    button.setAttribute('aria-pressed', String(playing));
    const trainable = Boolean(info?.trainable);
    button.disabled = !trainable;
    $('step').disabled = !trainable;
  }

  /** The step counter, speed, the engine's threads and the model's size. */
  function showStatus() {
    const s = t();
    const format = numberFormat(state().lang);
    const { status, info } = state();
    const { rate } = status;
    setText(
      $('status'),
      [
        s.stepCount(format.format(status.step)),
        rate && s.speed(format.format(rate.stepsPerSecond), format.format(rate.tokensPerSecond)),
        s.threads(threads.count, threads.reason),
        info && s.parameters(format.format(info.parameterCount)),
      ]
        .filter(Boolean)
        .join(' · '),
    );
    // The engine's threads, for tests and the console: "2" and "" or "1" and why.
    $('status').dataset.threads = String(threads.count);
    $('status').dataset.threadsReason = threads.reason ?? '';
  }

  function clearModel() {
    lines.fail(null);
    $('answer').hidden = true;
    $('answer-grid').replaceChildren();
    // The grid remakes its figures when its shape key changes: emptied with the key.
    $('heatmap-grid').replaceChildren();
    delete $('heatmap-grid').dataset.shape;
    setText($('sequence'), '');
    setText($('held-out'), '');
    $('memorising').hidden = true;
    redraw('curves');
  }

  function showExampleError(error) {
    $('example-error').hidden = !error;
    $('example').setAttribute('aria-invalid', String(Boolean(error)));
    if (!error) return;
    $('example-error').textContent = t()[error.key](...error.args);
    $('answer').hidden = true;
  }

  for (const { field, values } of KNOB_CONTROLS) if (values) fillSelect(field, values);
  store.subscribe((next, changed) => {
    if (changed.has('playing') || changed.has('info')) showPlaying();
    if (changed.has('status') || changed.has('info')) showStatus();
    if (changed.has('loadedKnobs')) showControls();
  });

  return {
    applyTexts,
    showControls,
    showPlaying,
    showStatus,
    clearModel,
    showExampleError,
    format: (n) => numberFormat(state().lang).format(n),
  };
}
