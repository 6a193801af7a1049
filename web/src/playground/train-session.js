// The conversation with the training worker (worker.js, through client.js): a new model from the
// state (configure), play, pause and step, the progress it reports, the typed example's answers,
// a text model's build, and a model's way out (download, or handed to the explorer) and in (a
// loaded file). Every answer lands in the store (page-store.js); the store's listeners and the
// schedule draw it.
//
//   createTrainSession({ worker, store, view, schedule, lines, ownText: () => the text panel }) → {
//     configure()     a new model from the state (a text model: its text built first)
//     trainText()     builds the text, then trains at once ("Train on this text")
//     togglePlay(), step(), askAnswer(), save(purpose: 'download' | 'explorer'), load(file)
//   }
import { download } from '../download.js';
import { handOverModel, modelLink } from '../model-handoff.js';
import { pageLinks } from '../page-kind.js';
import { record } from './history.js';
import { textRefusal } from './own-text.js';
import { newModel } from './page-store.js';
import { parseExample, trainerConfig } from './presets.js';
import { taskOf } from './session.js';
import { modelFileName, TEXT_MODE } from './state.js';

/** While training, the typed example is answered again at most this often. */
const ANSWER_MS = 1000;

export function createTrainSession({ worker, store, view, schedule, lines, ownText }) {
  const state = store.get;
  const isText = () => state().task === TEXT_MODE;
  // The worker's side of the talk: which answer is the newest asked, when it was asked, and
  // whether a text being built trains once it is.
  let answerId = 0;
  let lastAnswerAt = 0;
  let playWhenBuilt = false;

  function configure() {
    store.set(newModel());
    view.clearModel();
    if (isText()) ownText().build(playWhenBuilt);
    else worker.send('configure', { config: trainerConfig(state().task, state()) });
  }

  function askAnswer() {
    const { example, info } = state();
    if (!example || !info || isText()) return;
    const parsed = parseExample(taskOf({ config: info.config }), example, info.contextLength);
    view.showExampleError(parsed.error ?? null);
    if (parsed.error) {
      store.set({ lastAnswer: null });
      return;
    }
    lastAnswerAt = performance.now();
    worker.send('example', { input: parsed.input, id: ++answerId });
  }

  worker.on('configured', (message) => {
    const { info } = message;
    const { history } = state();
    const patch = { info, heatmapPage: 0, status: { step: info.steps, rate: null } };
    if (!info.trainable) {
      // A loaded model file: its task decides the page's task; the controls show its shape.
      const { task, layers, heads, dModel, scale, attentionOnly } = info.config;
      Object.assign(patch, { task, loadedKnobs: { layers, heads, dModel, scale, attentionOnly } });
      lines.notice((s) => s.loaded(info.name));
    }
    if (info.text) history.baselines = info.text.baselines;
    record(history, { rows: [], snapshot: message.snapshot, step: info.steps, evaluation: message.evaluation });
    store.set(patch);
    if (info.text) {
      ownText().showInfo(info.text);
      ownText().showSample(message.sample);
    }
    view.applyTexts();
    askAnswer();
    if (playWhenBuilt && info.trainable) worker.send('play');
    playWhenBuilt = false;
  });
  worker.on('textProgress', (message) => ownText().showProgress(message.fraction));
  worker.on('progress', (message) => {
    const start = performance.now();
    record(state().history, message);
    const { status } = state();
    store.set({ status: { step: message.step ?? status.step, rate: message.rate ?? status.rate } });
    performance.measure('playground:progress', { start });
    schedule.redraw('snapshot', 'heads');
    schedule.curvesSoon();
    if (message.sample) ownText().showSample(message.sample);
    if (state().example && performance.now() - lastAnswerAt > ANSWER_MS) askAnswer();
  });
  worker.on('playing', (message) => store.set({ playing: message.playing }));
  worker.on('answer', (message) => {
    if (message.id === answerId) store.set({ lastAnswer: message });
  });
  worker.on('saved', (message) => {
    const name = modelFileName(state());
    if (message.purpose === 'explorer') return openInExplorer(message.bytes, name);
    download(name, message.bytes, 'application/octet-stream');
  });
  worker.on('error', (message) => {
    store.set({ playing: false });
    if (message.request === 'text') {
      // A refused text: said in the page's language; the page stays as it was, ready for another.
      ownText().showInfo(null);
      playWhenBuilt = false;
      lines.fail(textRefusal(message.error.message));
      return;
    }
    lines.fail({ kind: message.request ?? 'other', message: message.error.message });
  });

  /** Hands the model to the explorer in a new tab; a failure is said on the page. */
  async function openInExplorer(bytes, name) {
    const { lang, history } = state();
    // The explorer opens on the task's fixed example, the sequence the heatmaps here follow; a
    // text model reads text: on the excerpt the heatmaps follow.
    const example = history.snapshots.at(-1)?.snapshot.tokens;
    const sentence = isText() ? ownText().excerpt : example?.join(' ');
    const params = sentence ? { lang, s: sentence } : { lang };
    try {
      const id = await handOverModel(bytes, { name, origin: 'browser' });
      if (!window.open(modelLink(pageLinks().explorer, id, params), '_blank')) lines.fail({ kind: 'popupBlocked' });
      else if (['handoffFailed', 'popupBlocked'].includes(lines.failure?.kind)) lines.fail(null);
    } catch (error) {
      lines.fail({ kind: 'handoffFailed', message: error.message });
    }
  }

  /** A model file picked by the learner, sent to the worker to load. */
  async function load(file) {
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      worker.send('load', { bytes, name: file.name }, [bytes.buffer]);
    } catch (error) {
      // The file went away or cannot be read (moved, permissions) after it was picked.
      lines.fail({ kind: 'load', message: error.message });
    }
  }

  return {
    configure,
    trainText() {
      playWhenBuilt = true;
      configure();
    },
    togglePlay: () => worker.send(state().playing ? 'pause' : 'play'),
    pause: () => worker.send('pause'),
    step: () => worker.send('step', { count: 1 }),
    askAnswer,
    save: (purpose) => worker.send('save', { purpose }),
    load,
  };
}
