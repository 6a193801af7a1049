// The playground's √d_k experiment panel: the committed run's spread over the seeds
// (dk-runs.json, drawn at once), a live run of one seed in a worker of its own, and sentences
// worded from the numbers (dk-experiment.js findings), never written ahead of them.
import { isWholeIn, SEED } from '../url-fields.js';
import { drawLines } from './curves.js';
import {
  bands,
  DK_ARMS,
  DK_SEEDS,
  DK_SETTING_NAMES,
  DK_SETTINGS,
  DK_STEPS,
  experimentTable,
  findings,
  storedRuns,
  summarize,
} from './dk-experiment.js';
import DK_RUNS from './dk-runs.json';

const COLORS = { scaled: '#0072B2', unscaled: '#D55E00', control: '#009E73' };
const DASHES = { scaled: null, unscaled: '6 3', control: '2 2' };
const METRICS = [
  ['dk-loss', 'loss', true],
  ['dk-entropy', 'entropy', false],
  ['dk-gradient', 'gradient', true],
];
const $ = (root, role) => root.querySelector(`[data-role="${role}"]`);

const cache = new Map();
/** A setting's committed runs: their per-step bands and their summary (computed once). */
export function committed(setting) {
  if (!cache.has(setting)) {
    const runs = storedRuns(DK_RUNS.settings[setting]);
    const spread = Object.fromEntries(DK_ARMS.map((arm) => [arm, bands(runs[arm])]));
    const summary = summarize(runs);
    cache.set(setting, { runs, spread, summary, findings: findings(summary) });
  }
  return cache.get(setting);
}

/**
 * Draws the panel for `view` = { setting, seed, rows, exactMatch, running }: the committed
 * seeds' range as a band per arm, and a line, the live run's where there is one, else the
 * committed median; the exact-match table; the sentences.
 */
export function drawExperimentPanel(root, view, t) {
  const { spread, summary, findings: found } = committed(view.setting);
  const live = view.rows.length > 0;
  for (const [role, metric, log] of METRICS) {
    drawLines($(root, role), {
      title: t[metric === 'loss' ? 'loss' : metric],
      log,
      series: DK_ARMS.map((arm) => ({
        label: t.dkArm[arm],
        color: COLORS[arm],
        dash: DASHES[arm],
        points: live
          ? view.rows.map((r) => [r.step, r[arm][metric]])
          : spread[arm].map((b) => [b.step, b[metric].median]),
        band: spread[arm].map((b) => [b.step, b[metric].min, b[metric].max]),
      })),
    });
  }
  $(root, 'dk-lines').textContent = live ? t.dkLinesLive(view.seed, view.rows.at(-1).step, DK_STEPS) : t.dkLinesMedian;
  $(root, 'dk-bands').textContent = t.dkBands(DK_SEEDS);
  $(root, 'dk-setting-help').textContent = t.dkSettingHelp(DK_SETTINGS[view.setting], DK_STEPS);
  // Held-out exact match: the committed seeds, and this run's once it has ended.
  const table = $(root, 'dk-table');
  table.querySelector('thead').innerHTML = '';
  const head = table.querySelector('thead').insertRow();
  for (const text of ['', t.dkCommitted(DK_SEEDS), t.dkYourRun(view.seed)]) {
    const th = document.createElement('th');
    th.textContent = text;
    head.append(th);
  }
  const body = table.querySelector('tbody');
  body.innerHTML = '';
  for (const [name, seeds, yours] of experimentTable(view, summary, t)) {
    const row = body.insertRow();
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = name;
    row.append(th);
    row.insertCell().textContent = seeds;
    row.insertCell().textContent = yours;
  }
  $(root, 'dk-says').replaceChildren(
    ...t.dkSays(found, summary).map((text) => Object.assign(document.createElement('p'), { textContent: text })),
  );
}

/**
 * The panel's controls and its worker: `state()` gives dkSetting and dkSeed, `setState` keeps
 * them (and `experiment`, whether a run is on) in the link.
 */
export function wireExperiment(root, { t, state, setState, startWorker, fail, redraw }) {
  let worker = null;
  let view = { setting: state().dkSetting, seed: state().dkSeed, rows: [], exactMatch: null };
  const select = $(root, 'dk-setting');
  const seed = $(root, 'dk-seed');
  const button = $(root, 'experiment');

  function stop() {
    worker?.terminate(); // frees the three trainers' memory at once
    worker = null;
  }
  async function run() {
    stop();
    view = { setting: state().dkSetting, seed: state().dkSeed, rows: [], exactMatch: null };
    const started = await startWorker();
    worker = started;
    started.on('experiment', (message) => {
      view.rows.push(...message.rows);
      if (message.exactMatch) {
        view.exactMatch = message.exactMatch;
        stop();
        setState({ experiment: false });
      }
      redraw('experiment');
    });
    started.on('error', (message) => fail({ kind: message.request ?? 'experiment', message: message.error.message }));
    started.send('experiment', { setting: view.setting, seed: view.seed });
    setState({ experiment: true });
  }
  button.addEventListener('click', () => {
    if (worker) {
      stop();
      setState({ experiment: false });
    } else run();
  });
  select.addEventListener('change', () => {
    stop();
    setState({ dkSetting: select.value, experiment: false });
    view = { setting: select.value, seed: state().dkSeed, rows: [], exactMatch: null };
    redraw('experiment');
  });
  seed.addEventListener('change', () => {
    const value = Number(seed.value);
    if (!isWholeIn(SEED, value)) {
      seed.value = String(state().dkSeed);
      return;
    }
    stop();
    setState({ dkSeed: value, experiment: false });
    view = { setting: state().dkSetting, seed: value, rows: [], exactMatch: null };
    redraw('experiment');
  });
  addEventListener('pagehide', stop);

  return {
    /** The controls' texts and values in the page's language. */
    applyTexts() {
      const s = t();
      button.textContent = worker ? s.experimentStop : s.experimentRun;
      button.setAttribute('aria-pressed', String(Boolean(worker)));
      select.replaceChildren(
        ...DK_SETTING_NAMES.map((name) =>
          Object.assign(document.createElement('option'), { value: name, textContent: s.dkSettingName[name] }),
        ),
      );
      select.value = state().dkSetting;
      seed.value = String(state().dkSeed);
    },
    draw: () => drawExperimentPanel(root, view, t()),
    run,
    get view() {
      return view;
    },
  };
}
