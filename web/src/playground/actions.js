// The page's controls and keys: each sets the state (the link's fields: a changed knob makes a
// new model) or asks the session (play, step, reset, answer, save, load), or moves the view
// (the heatmaps' page, the snapshot slider). Reads nothing back from the page but its inputs.
//
//   wireActions({ root, $, store, setState(patch, { reconfigure }), session, schedule, lines }) → nothing
import { isWholeIn, SEED } from '../url-fields.js';
import { wirePager } from './pager.js';
import { KNOB_CONTROLS, taskDefaults } from './state.js';

export function wireActions({ root, $, store, setState, session, schedule, lines }) {
  const state = store.get;
  const remake = (patch) => setState(patch, { reconfigure: true });

  // ---- the model's knobs: each makes a new model ----
  $('task').addEventListener('change', (e) => remake(taskDefaults(e.target.value, state())));
  for (const { field, values, control } of KNOB_CONTROLS) {
    $(field).addEventListener('change', (e) => {
      if (values) remake({ [field]: Number(e.target.value) });
      else if (control === 'check') remake({ [field]: e.target.checked });
      else if (isWholeIn(SEED, Number(e.target.value))) remake({ [field]: Number(e.target.value) });
      else e.target.value = String(state()[field]); // not a seed: the box shows the state's again
    });
  }
  $('preset').addEventListener('click', () => remake(taskDefaults(state().task, state())));

  // ---- training ----
  $('play').addEventListener('click', session.togglePlay);
  // Beside the "reached 95%" mark: stop where the task is learned.
  $('stop').addEventListener('click', session.pause);
  $('step').addEventListener('click', session.step);
  $('reset').addEventListener('click', () => session.configure());
  // Space plays or pauses, "s" takes one step, wherever focus is not in a control of its own.
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest?.('input, select, textarea, button, a')) return;
    const trainable = state().info?.trainable;
    if (e.key === ' ') {
      e.preventDefault();
      if (trainable) session.togglePlay();
    } else if (e.key === 's' && trainable) session.step();
  });

  // ---- what is shown: the heatmaps' page (when a model has more heads than one page holds), the snapshot ----
  wirePager(root, {
    snapshot: () => state().history.snapshots.at(-1)?.snapshot,
    page: () => state().heatmapPage,
    show: (i) => {
      store.set({ heatmapPage: i });
      schedule.redraw('snapshot', 'answer');
    },
  });
  $('scrub').addEventListener('input', (e) => {
    const i = Number(e.target.value);
    store.set({ scrubIndex: i >= state().history.snapshots.length - 1 ? null : i });
    schedule.redraw('snapshot');
  });
  $('try-form').addEventListener('submit', (e) => {
    e.preventDefault();
    setState({ example: $('example').value.trim() });
    session.askAnswer();
  });

  // ---- the model in and out, the language, the link ----
  $('download').addEventListener('click', () => session.save('download'));
  $('open-explorer').addEventListener('click', () => session.save('explorer'));
  $('load').addEventListener('change', (e) => {
    const file = e.target.files[0];
    if (!file) return;
    e.target.value = '';
    session.load(file);
  });
  root
    .querySelectorAll('[data-lang]')
    .forEach((b) => b.addEventListener('click', () => setState({ lang: b.dataset.lang })));
  $('copy-link').addEventListener('click', async () => {
    schedule.writeLinkNow();
    await navigator.clipboard?.writeText(location.href).catch(() => {});
    lines.notice((s) => s.linkCopied);
  });
}
