// The training playground (playground.html): pick a task and a model, train it in a Web Worker,
// watch loss, accuracy and every head's attention; try your own example; run the √d_k
// experiment; download, load or hand the model to the explorer. The state is in the URL.
// First: its error listeners must exist before any other module runs.
import { startPage } from '../startup.js';
import '../app.css';
import './playground.css';
import { defaultLanguage } from '../i18n.js';
import { handOverModel, modelLink } from '../model-handoff.js';
import { pageKind, pageLinks } from '../page-kind.js';
import { startTrainingWorker } from './client.js';
import { taskOf } from './session.js';
import { emptyHistory, record } from './history.js';
import { strings } from './i18n.js';
import { parseExample, PRESETS, trainerConfig } from './presets.js';
import { wirePager } from './pager.js';
import { wireExperiment } from './dk-panel.js';
import { drawAnswer, drawCurves, drawHeadScores, drawSnapshot, setText } from './render.js';
import { BATCHES, D_MODELS, defaultState, MODES, queryOf, stateFromURL, taskDefaults, TEXT_MODE } from './state.js';
import { createStore } from '../store.js';
import { createFrameParts } from './frame-parts.js';
import { textRefusal, wireOwnText } from './own-text.js';
import { MARKUP } from './template.js';
import { messageLines } from './messages.js';

const RATES = [0.0003, 0.001, 0.003, 0.01, 0.02, 0.03];
const LAYERS = [1, 2, 3, 4];
const HEADS = [1, 2, 3, 4];
/** While training, the typed example is answered again at most this often. */
const ANSWER_MS = 1000;
const CURVES_MS = 250;
/** Drawing in one frame stops after this long; the rest waits for the next frame. */
const FRAME_BUDGET_MS = 4;

await startPage(async () => {
  const base = defaultState(defaultLanguage());
  const parsed = stateFromURL(location.search, base);
  // The page's state (the link's fields) in a store; a change writes the link and the texts.
  const store = createStore(parsed.state);
  const state = store.get;
  const chrome = parsed.chrome;
  const root = document.getElementById('app');
  root.innerHTML = MARKUP; // static markup, no user data
  const $ = (role) => root.querySelector(`[data-role="${role}"]`);
  const t = () => strings(state().lang);

  const worker = await startTrainingWorker();
  let info = null;
  let history = emptyHistory();
  let scrubIndex = null; // null: follow the newest snapshot
  let heatmapPage = 0; // the page of heatmaps shown (render.js heatmapPage), both grids
  // A loaded model file's knobs (layers, heads, …), shown in the controls while it is the model;
  // the state (and the link) keeps the page's own, which a changed control trains from.
  let loadedKnobs = null;
  let playing = false;
  let lastAnswerAt = 0;
  let answerId = 0;
  let frame = 0;
  let status = { step: 0, rate: null }; // the last figures shown, redrawn in a new language
  let lastAnswer = null;
  const lines = messageLines(root, t);
  const showError = lines.fail;
  const showNotice = lines.notice;
  const isText = () => state().task === TEXT_MODE;
  let playWhenBuilt = false; // "Train on this text" builds, then trains at once

  // ---- drawing, at most once per frame (frame-parts.js), the live heatmaps first ----
  const frames = createFrameParts(
    [
      // The heatmaps paint until the frame's budget is spent and say whether they are done.
      ['snapshot', () => true, (deadline) => drawSnapshot(root, history, scrubIndex, t(), heatmapPage, deadline)],
      ['answer', () => lastAnswer, (deadline) => drawAnswer(root, lastAnswer, t(), heatmapPage, deadline)],
      ['heads', () => state().task === 'induction', () => drawHeadScores(root, history, t())],
      ['curves', () => true, () => drawCurves(root, history, t(), playing)],
      ['experiment', () => true, () => experiment.draw()],
    ],
    FRAME_BUDGET_MS,
  );
  const redraw = frames.redraw;
  // The curves (D3 axes and paths, the costliest redraw) at most every CURVES_MS, the last
  // change always drawn; the heatmaps follow every snapshot.
  const curvesSoon = () => frames.soon('curves', CURVES_MS);

  // ---- texts and controls ----
  function fillSelect(role, values, label = String) {
    const select = $(role);
    select.replaceChildren(...values.map((v) => new Option(label(v), String(v))));
  }
  /** Shows `value` in a select of `values`, adding it as an option where it is not one. */
  function showValue(role, values, value) {
    const all = values.includes(value) ? values : [...values, value].sort((a, b) => a - b);
    if ($(role).options.length !== all.length) fillSelect(role, all);
    $(role).value = String(value);
  }

  function applyTexts() {
    const s = t();
    document.documentElement.lang = state().lang === 'zh' ? 'zh-CN' : 'en';
    document.title = s.title;
    root.querySelectorAll('[data-i18n]').forEach((node) => {
      node.textContent = s[node.dataset.i18n];
    });
    root
      .querySelectorAll('[data-lang]')
      .forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.lang === state().lang)));
    fillSelect('task', MODES, (name) => s[`task.${name}`]);
    $('task-help').textContent = s.taskHelp[state().task];
    // What the induction task's curves show, beside them.
    $('curves-note').hidden = state().task !== 'induction';
    $('curves-note').textContent = state().task === 'induction' ? s.inductionCurves : '';
    $('example').placeholder = PRESETS[state().task]?.placeholder ?? '';
    // "Your text" shows its text and sample panels instead of the typed example.
    $('text-panel').hidden = !isText();
    $('try-panel').hidden = isText() || chrome.try === false;
    ownText.redraw();
    experiment.applyTexts();
    showPlaying();
    showControls();
    showStatus();
    lines.redraw();
    redraw('curves', 'snapshot', 'heads', 'experiment', 'answer');
  }

  function showControls() {
    const shown = { ...state(), ...loadedKnobs };
    $('task').value = shown.task;
    showValue('layers', LAYERS, shown.layers);
    showValue('heads', HEADS, shown.heads);
    showValue('dModel', D_MODELS, shown.dModel);
    const rates = RATES.includes(shown.learningRate) ? RATES : [...RATES, shown.learningRate].sort((a, b) => a - b);
    fillSelect('learningRate', rates);
    $('learningRate').value = String(shown.learningRate);
    $('batchSize').value = String(shown.batchSize);
    $('seed').value = String(shown.seed);
    $('scale').checked = shown.scale;
    $('attentionOnly').checked = shown.attentionOnly;
    $('example').value = state().example;
    $('heads-panel').hidden = state().task !== 'induction';
  }

  function showPlaying() {
    const button = $('play');
    button.textContent = playing ? t().pause : t().play;
    button.setAttribute('aria-pressed', String(playing));
    const trainable = Boolean(info?.trainable);
    button.disabled = !trainable;
    $('step').disabled = !trainable;
  }

  // One formatter per language: the status is rewritten with every progress message.
  const formats = new Map();
  const numberFormat = (lang) => {
    if (!formats.has(lang))
      formats.set(lang, new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en-US', { maximumFractionDigits: 0 }));
    return formats.get(lang);
  };

  /** The step counter, speed and size; `next` updates the figures, none: redraws them. */
  function showStatus(next = {}) {
    status = { step: next.step ?? status.step, rate: next.rate ?? status.rate };
    const s = t();
    const format = numberFormat(state().lang);
    const { rate } = status;
    setText(
      $('status'),
      [
        s.stepCount(format.format(status.step)),
        rate && s.speed(format.format(rate.stepsPerSecond), format.format(rate.tokensPerSecond)),
        s.threads(worker.threads.count, worker.threads.reason),
        info && s.parameters(format.format(info.parameterCount)),
      ]
        .filter(Boolean)
        .join(' · '),
    );
    // The engine's threads, for tests and the console: "2" and "" or "1" and why.
    $('status').dataset.threads = String(worker.threads.count);
    $('status').dataset.threadsReason = worker.threads.reason ?? '';
  }

  let urlTimer;
  function writeURL() {
    clearTimeout(urlTimer);
    urlTimer = setTimeout(() => history_replace(), 150);
  }
  const history_replace = () => {
    const chromeQuery = Object.entries(chrome)
      .map(([k, v]) => `&${k}=${v ? 1 : 0}`)
      .join('');
    // The single file is both pages: its playground keeps ?page=playground (single.js).
    const page = pageKind.singleFile ? 'page=playground&' : '';
    window.history.replaceState(null, '', `?${page}${queryOf(state())}${chromeQuery}${location.hash}`);
  };

  // ---- the model ----
  function configure() {
    info = null;
    playing = false;
    history = emptyHistory();
    scrubIndex = null;
    heatmapPage = 0;
    loadedKnobs = null;
    showPlaying();
    showError(null);
    $('answer').hidden = true;
    $('answer-grid').replaceChildren();
    lastAnswer = null;
    // Nothing of the last model stays on the page while the next one is made (or refused).
    status = { step: 0, rate: null };
    showStatus();
    // The grid remakes its figures when its shape key changes: emptied with the key.
    $('heatmap-grid').replaceChildren();
    delete $('heatmap-grid').dataset.shape;
    setText($('sequence'), '');
    setText($('held-out'), '');
    $('memorising').hidden = true;
    redraw('curves');
    if (isText()) ownText.build(playWhenBuilt);
    else worker.send('configure', { config: trainerConfig(state().task, state()) });
  }

  store.subscribe(writeURL);
  /** Sets fields of the state (the store's listener writes the link); with `reconfigure`, a new
   * model from it too; then the texts. */
  function setState(patch, { reconfigure = false } = {}) {
    store.set(patch);
    if (reconfigure) configure();
    applyTexts();
  }

  function askAnswer() {
    if (!state().example || !info || isText()) return;
    const parsedExample = parseExample(taskOf({ config: info.config }), state().example, info.contextLength);
    const error = $('example-error');
    error.hidden = !parsedExample.error;
    $('example').setAttribute('aria-invalid', String(Boolean(parsedExample.error)));
    if (parsedExample.error) {
      error.textContent = t()[parsedExample.error.key](...parsedExample.error.args);
      $('answer').hidden = true;
      lastAnswer = null;
      return;
    }
    lastAnswerAt = performance.now();
    worker.send('example', { input: parsedExample.input, id: ++answerId });
  }

  worker.on('configured', (message) => {
    info = message.info;
    heatmapPage = 0;
    if (!info.trainable) {
      // A loaded model file: its task decides the page's task; the controls show its shape.
      store.set({ task: info.config.task });
      const { layers, heads, dModel, scale, attentionOnly } = info.config;
      loadedKnobs = { layers, heads, dModel, scale, attentionOnly };
      showNotice((s) => s.loaded(info.name));
    }
    if (info.text) history.baselines = info.text.baselines;
    record(history, { rows: [], snapshot: message.snapshot, step: info.steps, evaluation: message.evaluation });
    status = { step: info.steps, rate: null };
    if (info.text) {
      ownText.showInfo(info.text);
      ownText.showSample(message.sample);
    }
    applyTexts();
    askAnswer();
    if (playWhenBuilt && info.trainable) worker.send('play');
    playWhenBuilt = false;
  });
  worker.on('textProgress', (message) => ownText.showProgress(message.fraction));
  worker.on('progress', (message) => {
    const start = performance.now();
    record(history, message);
    showStatus({ step: message.step, rate: message.rate });
    performance.measure('playground:progress', { start });
    redraw('snapshot', 'heads');
    curvesSoon();
    if (message.sample) ownText.showSample(message.sample);
    if (state().example && performance.now() - lastAnswerAt > ANSWER_MS) askAnswer();
  });
  worker.on('playing', (message) => {
    playing = message.playing;
    showPlaying();
    redraw('curves'); // the offer to stop is shown only while training runs
  });
  worker.on('answer', (message) => {
    if (message.id !== answerId) return;
    lastAnswer = message;
    redraw('answer');
  });
  /** Hands the model to the explorer in a new tab; a failure is said on the page. */
  async function openInExplorer(bytes, name) {
    // The explorer opens on the task's fixed example, the sequence the heatmaps here follow.
    const example = history.snapshots.at(-1)?.snapshot.tokens;
    // A text model reads text: the explorer opens on the excerpt the heatmaps follow.
    const sentence = isText() ? ownText.excerpt : example?.join(' ');
    const params = sentence ? { lang: state().lang, s: sentence } : { lang: state().lang };
    try {
      const id = await handOverModel(bytes, { name, origin: 'browser' });
      if (!window.open(modelLink(pageLinks().explorer, id, params), '_blank')) showError({ kind: 'popupBlocked' });
      else if (['handoffFailed', 'popupBlocked'].includes(lines.failure?.kind)) showError(null);
    } catch (error) {
      showError({ kind: 'handoffFailed', message: error.message });
    }
  }
  worker.on('saved', (message) => {
    const name = isText() ? 'your-text.model' : `${state().task}.model`;
    if (message.purpose === 'explorer') return openInExplorer(message.bytes, name);
    const url = URL.createObjectURL(new Blob([message.bytes], { type: 'application/octet-stream' }));
    const a = Object.assign(document.createElement('a'), { href: url, download: name });
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  worker.on('error', (message) => {
    playing = false;
    showPlaying();
    if (message.request === 'text') {
      // A refused text: said in the page's language; the page stays as it was, ready for another.
      ownText.showInfo(null);
      playWhenBuilt = false;
      showError(textRefusal(message.error.message));
      return;
    }
    showError({ kind: message.request ?? 'other', message: message.error.message });
  });

  // ---- the √d_k experiment, in a worker of its own (the training above keeps its state) ----
  const experiment = wireExperiment(root, {
    t,
    state,
    setState,
    startWorker: startTrainingWorker,
    fail: showError,
    redraw,
  });

  const ownText = wireOwnText(root, {
    t,
    state,
    setState,
    send: worker.send,
    limits: worker.corpusLimits,
    fail: showError,
    format: (n) => numberFormat(state().lang).format(n),
    parameters: () => info?.parameterCount ?? 0,
    train: () => {
      playWhenBuilt = true;
      configure();
    },
  });

  // ---- events ----
  fillSelect('layers', LAYERS);
  fillSelect('heads', HEADS);
  fillSelect('dModel', D_MODELS);
  fillSelect('batchSize', BATCHES);
  $('task').addEventListener('change', (e) => setState(taskDefaults(e.target.value, state()), { reconfigure: true }));
  for (const role of ['layers', 'heads', 'dModel', 'batchSize']) {
    $(role).addEventListener('change', (e) => setState({ [role]: Number(e.target.value) }, { reconfigure: true }));
  }
  $('learningRate').addEventListener('change', (e) =>
    setState({ learningRate: Number(e.target.value) }, { reconfigure: true }),
  );
  $('seed').addEventListener('change', (e) => {
    const v = Number(e.target.value);
    if (Number.isInteger(v) && v >= 0 && v <= 4294967295) setState({ seed: v }, { reconfigure: true });
    else e.target.value = String(state().seed);
  });
  for (const role of ['scale', 'attentionOnly']) {
    $(role).addEventListener('change', (e) => setState({ [role]: e.target.checked }, { reconfigure: true }));
  }
  $('preset').addEventListener('click', () => setState(taskDefaults(state().task, state()), { reconfigure: true }));
  const togglePlay = () => worker.send(playing ? 'pause' : 'play');
  $('play').addEventListener('click', togglePlay);
  // Beside the "reached 95%" mark: stop where the task is learned.
  $('stop').addEventListener('click', () => worker.send('pause'));
  $('step').addEventListener('click', () => worker.send('step', { count: 1 }));
  $('reset').addEventListener('click', () => configure());
  // The heatmaps' pager (shown when a model has more heads than one page holds).
  wirePager(root, {
    snapshot: () => history.snapshots.at(-1)?.snapshot,
    page: () => heatmapPage,
    show: (i) => {
      heatmapPage = i;
      redraw('snapshot', 'answer');
    },
  });
  $('scrub').addEventListener('input', (e) => {
    const i = Number(e.target.value);
    scrubIndex = i >= history.snapshots.length - 1 ? null : i;
    redraw('snapshot');
  });
  $('try-form').addEventListener('submit', (e) => {
    e.preventDefault();
    setState({ example: $('example').value.trim() });
    askAnswer();
  });
  $('download').addEventListener('click', () => worker.send('save', { purpose: 'download' }));
  $('open-explorer').addEventListener('click', () => worker.send('save', { purpose: 'explorer' }));
  $('load').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    e.target.value = '';
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      worker.send('load', { bytes, name: file.name }, [bytes.buffer]);
    } catch (error) {
      // The file went away or cannot be read (moved, permissions) after it was picked.
      showError({ kind: 'load', message: error.message });
    }
  });
  root
    .querySelectorAll('[data-lang]')
    .forEach((b) => b.addEventListener('click', () => setState({ lang: b.dataset.lang })));
  $('copy-link').addEventListener('click', async () => {
    history_replace();
    await navigator.clipboard?.writeText(location.href).catch(() => {});
    showNotice((s) => s.linkCopied);
  });
  // Space plays or pauses, "s" takes one step, wherever focus is not in a control of its own.
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest?.('input, select, textarea, button, a')) return;
    if (e.key === ' ') {
      e.preventDefault();
      if (info?.trainable) togglePlay();
    } else if (e.key === 's' && info?.trainable) worker.send('step', { count: 1 });
  });
  // Leaving the page frees the workers (and their WASM memory) at once.
  addEventListener('pagehide', () => {
    worker.terminate();
  });

  // ---- embedding: flags hide parts; the height goes to the parent page ----
  if (chrome.embed) root.querySelectorAll('[data-chrome="header"]').forEach((n) => (n.hidden = true));
  for (const part of ['controls', 'curves', 'heatmaps', 'try']) {
    if (chrome[part] === false) root.querySelectorAll(`[data-chrome="${part}"]`).forEach((n) => (n.hidden = true));
  }
  if (window.parent !== window) {
    new ResizeObserver(() => {
      const height = Math.ceil(document.body.getBoundingClientRect().height);
      window.parent.postMessage({ type: 'attention-playground:height', height }, '*');
    }).observe(document.body);
  }

  if (parsed.notices.length || parsed.repeated.length) {
    showNotice((s) =>
      [
        parsed.notices.length && s.ignoredURL(parsed.notices.join(', ')),
        parsed.repeated.length && s.repeatedURL(parsed.repeated.join(', ')),
      ]
        .filter(Boolean)
        .join(' '),
    );
  }
  applyTexts();
  writeURL(); // the link as this page writes it: preset values left out, bad ones dropped
  configure();
  if (state().experiment) experiment.run();
  window.attentionPlayground = {
    get state() {
      return state();
    },
    get history() {
      return history;
    },
    /** The √d_k panel's run: { setting, seed, rows, exactMatch }. */
    get experiment() {
      return experiment.view;
    },
    /** The vocabulary's progress of the last text built: the fractions the bar showed. */
    get textProgress() {
      return ownText.progressSeen;
    },
  }; // for tests and the console
});
