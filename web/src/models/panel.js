// The page's trained models: the model selector, what is shown and what it was
// trained on, and the model panel (grid of heads, the whole block, next token). Models load and
// run in the engine's worker (models/service.js); the explorer opens the chosen layer's
// attention through ready(). State (model, layer, head, sentence) lives in the store.
import { options } from '../controls.js';
import { formatCount } from '../format.js';
import { byRole, setText } from '../dom.js';
import { defaultState } from '../state.js';
import { MODELS, SHIPPED_MODELS } from '../model-catalog.js';
import { modelStrings } from './i18n.js';
import { hasShippedModel, shippedModelBytes } from './load.js';
import { gpt2TokenizerFiles, hasGpt2TokenizerFiles } from './gpt2-files.js';
import { CheckpointRefusal, droppedFiles, readCheckpoint, sortOpened } from './checkpoint-files.js';
import { drawGrid } from './grid.js';
import { storedRoles } from './roles.js';
import { measuredRoles } from './measured-roles.js';
import rolesSample from 'virtual:roles-sample';
import { drawBlock } from './block.js';
import { drawNext, repeatedTail } from './next.js';
import { createExportButton } from './export-button.js';

// The fields the panel draws from; a change of any re-runs the model.
const PANEL_FIELDS = [
  'model',
  'modelRevision',
  'sentence',
  'layer',
  'head',
  'heads',
  'sampleTemperature',
  'topK',
  'lang',
];

/**
 * @param root the explorer's root (the template holds the selector and the panel)
 * @param store the explorer's store
 * @param engine the RemoteEngine (engine.ask(type, payload) reaches models/service.js)
 */
/** `state`'s layer and head within a model of `summary`'s shape (a head it lacks: all of them). */
export function modelBounds(state, summary) {
  return {
    layer: Math.min(state.layer, summary.layers - 1),
    head: state.head !== 'all' && state.head >= summary.heads ? 'all' : state.head,
  };
}

export function createModelPanel(root, store, engine) {
  const $ = byRole(root);
  const loaded = new Map(); // model key → Promise of its summary (modelLoad's answer)
  let fileName = '';
  let fileOrigin = 'file'; // 'browser': handed over by the playground, which trained it
  let run = 0;
  let drawn = Promise.resolve();
  // The text continue last wrote, the pieces it appended (drawNext marks them), and whether the
  // last of them was greedy (a greedy loop stops greedy continue: drawNext).
  let continued = { text: null, added: [], greedy: false };
  let seed = 0; // each sampled continuation draws with the next seed: repeatable from a reload
  let last = null; // the last modelView drawn (tests and exports read it)
  // Head roles measured on the page for the opened checkpoint (it has no sidecar): { revision
  // (the file's modelRevision), roles (as storedRoles'), text (what was measured) }, or null; and
  // the measurement running (its number: a stop or another model makes it stale).
  let measured = null;
  let measuring = 0;
  let running = false;
  let fileLoading = false;
  // Random weights' heads while a model (which sets its own) is shown: they come back with them.
  let randomHeads = store.get().model === 'random' ? store.get().heads : defaultState().heads;
  // "Export for transformers": the shown model's file name names the .zip and its README.
  const exportButton = createExportButton($, engine, store, (key) => (key === 'file' ? fileName : `${key}.model`));

  /** Resolves with the model's summary once it is loaded in the worker. */
  function ready(key) {
    if (!loaded.has(key)) {
      if (key === 'file') return Promise.reject(new Error(modelStrings(store.get().lang)['model.file']));
      const loading = shippedModelBytes(key).then((bytes) => engine.ask('modelLoad', { name: key, bytes }));
      loaded.set(key, loading);
      loading.catch(() => loaded.delete(key)); // a later selection tries again
    }
    return loaded.get(key);
  }

  function notice(text) {
    $('model-notice').hidden = !text;
    $('model-notice').textContent = text ?? '';
  }

  function about(state, summary) {
    const s = modelStrings(state.lang);
    if (state.model === 'random') return s.aboutRandom;
    const c = summary.config;
    // A GPT-2 checkpoint (models/gpt2.js): trained elsewhere; which tokenizer reads the text.
    if (state.model === 'file' && c.source === 'gpt2 checkpoint') {
      return s.aboutCheckpoint(
        fileName,
        { ...c, ...summary },
        formatCount(summary.parameterCount, state.lang),
        c.tokenizer === 'vocab.json',
      );
    }
    // Where it was trained: a shipped model in this repository, a handed-over one in this
    // browser (the playground), an opened file somewhere this page cannot know.
    const where = state.model === 'file' ? fileOrigin : 'repo';
    const title =
      state.model !== 'file'
        ? (state.lang === 'zh' && c.titleZh) || c.title || s[`model.${state.model}`]
        : where === 'browser'
          ? fileName
          : s.aboutFile(fileName);
    // A shipped model's corpus in the page's language where the strings have it (zh), else the file's words.
    const corpus =
      (Object.hasOwn(s, `corpus.${state.model}`) ? s[`corpus.${state.model}`] : null) ??
      s.corpusName(c.corpus) ??
      (c.task ? s.task(c.task) : s.unknownCorpus);
    // The file's own metrics (heldOutLoss, unigramLoss: nats per token) beside the model's shape.
    return s.about(title, corpus, { ...c, ...summary }, formatCount(summary.parameterCount, state.lang), where);
  }

  // A keystroke renders the panel too (the sentence): texts are written only where they differ.
  const say = (role, text) => setText($(role), text);

  function fillSelector(state) {
    const s = modelStrings(state.lang);
    const select = $('model');
    // The small single file carries no trained model: only random weights and an opened file.
    const offered = MODELS.filter((m) => !SHIPPED_MODELS.includes(m) || hasShippedModel(m));
    // 'folder' is no model of the link's: it opens a checkpoint's folder, shown as 'file' once loaded.
    options(select, [...offered, 'folder'], (m) => (m === 'file' && fileName ? `${fileName}` : s[`model.${m}`]));
    select.value = state.model;
    say('model-label', s.model);
  }

  async function render(state) {
    const mine = ++run;
    const s = modelStrings(state.lang);
    fillSelector(state);
    if (root.dataset.model !== state.model) root.dataset.model = state.model;
    $('models').hidden = state.model === 'random';
    if (state.model === 'random') {
      say('model-about', s.aboutRandom);
      notice(null);
      return;
    }
    let summary;
    exportButton.update(state, null);
    try {
      if (!loaded.has(state.model)) $('model-about').textContent = s.loading(s[`model.${state.model}`]);
      summary = await ready(state.model);
    } catch (error) {
      if (mine === run) $('model-about').textContent = s.loadFailed(error.message);
      return;
    }
    if (mine !== run) return;
    $('model-about').textContent = about(state, summary);
    exportButton.update(state, summary);
    // The model's shape bounds the layer and head (state.js leaves them to the model).
    const { layer, head } = modelBounds(state, summary);
    if (layer !== state.layer || head !== state.head || state.heads !== summary.heads) {
      store.set({ layer, head, heads: summary.heads });
      return; // the store's change renders again
    }
    if (!state.sentence.trim()) {
      for (const role of ['model-grid', 'model-block', 'model-next']) $(role).replaceChildren();
      notice(null);
      return;
    }
    // Asked a task later, after the explorer's trace of the same keystroke (opened in this task's
    // microtasks): the worker answers in order, and the step being typed into is drawn first.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (mine !== run) return;
    let view;
    try {
      view = await engine.ask('modelView', {
        name: state.model,
        text: state.sentence,
        layer: state.layer,
        temperature: state.sampleTemperature,
        topK: state.topK,
      });
    } catch (error) {
      if (mine === run) notice(error.message);
      return;
    }
    if (mine !== run) return;
    last = view;
    const unknown = view.unknown.filter(Boolean).length;
    notice(
      [
        view.start ? s.started : '',
        view.cut ? s.cut(view.total, view.tokens.length) : '',
        unknown ? s.unknown(unknown) : '',
      ]
        .filter(Boolean)
        .join(' ') || null,
    );
    $('model-view-title').textContent = s.modelView;
    // A shipped model's head roles (measured on held-out text), stored with it; a checkpoint's
    // once measured here (measureRoles); none for another file.
    const checkpoint = state.model === 'file' && summary.config.source === 'gpt2 checkpoint';
    const ours = checkpoint && measured?.revision === state.modelRevision ? measured : null;
    const stored = state.model === 'file' ? (ours?.roles ?? null) : storedRoles(state.model);
    showMeasure(state, checkpoint, s);
    // The 对仗 and rhyme sentences are about poems: the prose model's page does not carry them.
    const poems = stored && state.model !== 'brown' && !ours;
    const hint = [s.modelViewHint, stored && s.rolesHint, poems && s.rolesHintPoems];
    $('model-view-hint').textContent = hint.filter(Boolean).join(' ');
    $('model-block-title').textContent = s.block(view.layer);
    $('model-block-hint').textContent = s.blockHint;
    $('model-next-title').textContent = s.next;
    drawGrid($('model-grid'), view, {
      strings: s,
      layer: state.layer,
      head: state.head,
      stored,
      prose: state.model === 'brown' || Boolean(ours), // a checkpoint's roles: measured on English prose
      onPick(l, h) {
        store.set({ layer: l, head: h, step: 7 });
        root.querySelector('.stepper')?.scrollIntoView({ block: 'nearest' });
      },
    });
    // What continue appended, while the sentence is still the one it wrote (typing ends it).
    if (state.sentence !== continued.text) continued = { text: null, added: [], greedy: false };
    drawNext($('model-next'), view, {
      strings: s,
      state,
      set: (patch) => store.set(patch),
      onContinue,
      added: continued.added,
      loop: continued.greedy ? repeatedTail(continued.added) : null,
    });
    // The block (8 heatmaps of tokens × up to 4·d_model) in a task of its own: the grid and the
    // prediction are painted first, and no single task holds the page for both.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (mine === run) drawBlock($('model-block'), view, { strings: s });
  }

  /** The measure-roles row: shown for a checkpoint; its button, bar and status as the measurement stands. */
  function showMeasure(state, checkpoint, s) {
    $('model-roles').hidden = !checkpoint;
    if (!checkpoint) return;
    say('model-roles-measure', s.rolesMeasure);
    say('model-roles-stop', s.rolesStop);
    $('model-roles-measure').disabled = running || fileLoading;
    if (!running && !$('model-roles-status').textContent) say('model-roles-status', s.rolesOffer);
  }

  function status(text) {
    say('model-roles-status', text);
  }

  /** Ends the running measurement (a stop, another model): the worker drops it, nothing is shown. */
  function stopMeasuring() {
    if (!running) return false;
    measuring++;
    running = false;
    $('model-roles-progress').hidden = true;
    $('model-roles-stop').hidden = true;
    $('model-roles-measure').disabled = fileLoading;
    engine.ask('modelRolesStop', { name: 'file' }).catch(() => {});
    return true;
  }

  /**
   * Measures the opened checkpoint's head roles in the worker (models/service.js
   * modelRolesStart …), one batch per request: the bar moves between them, and Stop asks for no
   * more. The grid then shows them as a shipped model's.
   */
  async function measureRoles() {
    const s = () => modelStrings(store.get().lang);
    if (running) return;
    if (fileLoading) return status(s().rolesWait);
    const job = ++measuring;
    const revision = store.get().modelRevision;
    running = true;
    measured = null;
    const bar = $('model-roles-progress');
    bar.value = 0;
    bar.hidden = false;
    $('model-roles-stop').hidden = false;
    $('model-roles-measure').disabled = true;
    try {
      const start = await engine.ask('modelRolesStart', { name: 'file', text: rolesSample });
      const { steps, window, layers } = start;
      for (let done = 0; done < steps;) {
        if (job !== measuring) return;
        status(s().rolesProgress(done, steps));
        ({ done } = await engine.ask('modelRolesStep', { name: 'file' }));
        if (job !== measuring) return;
        bar.value = done / steps;
      }
      const result = await engine.ask('modelRolesResult', { name: 'file' });
      if (job !== measuring) return;
      // Induction's queries are r = window/2 per repeated sequence: how many sequences there were.
      const inductionQueries = result.heads[0]?.scores.induction?.queries ?? 0;
      measured = { revision, roles: measuredRoles(result), windows: result.windows, window, layers, inductionQueries };
      running = false;
      status(measuredText(s()));
      drawn = render(store.get());
    } catch (error) {
      if (job === measuring) status(s().rolesFailed(error.message));
    } finally {
      if (job === measuring) {
        running = false;
        bar.hidden = true;
        $('model-roles-stop').hidden = true;
        $('model-roles-measure').disabled = fileLoading;
      }
    }
  }

  /** What was measured, in the page's language (中文 sentences follow each other without a space). */
  function measuredText(s) {
    const sequences = Math.round(measured.inductionQueries / Math.floor(measured.window / 2));
    const gap = store.get().lang === 'zh' ? '' : ' ';
    return [s.rolesMeasured(measured.windows, measured.window, sequences), measured.layers < 2 ? s.rolesOneLayer : '']
      .filter(Boolean)
      .join(gap);
  }

  $('model-roles-measure').addEventListener('click', () => measureRoles());
  $('model-roles-stop').addEventListener('click', () => {
    if (stopMeasuring()) status(modelStrings(store.get().lang).rolesStopped);
  });
  // Another model (or another file) ends a measurement of the one before; the language its text.
  store.subscribe((state, changed) => {
    if (changed.has('model') || changed.has('modelRevision')) {
      stopMeasuring();
      if (!measured || measured.revision !== state.modelRevision) status('');
    } else if (changed.has('lang') && measured && !running) {
      status(measuredText(modelStrings(state.lang)));
    } else if (changed.has('lang') && !running) {
      status('');
    }
  });

  async function onContinue(greedy) {
    const state = store.get();
    try {
      const { text } = await engine.ask('modelGenerate', {
        name: state.model,
        text: state.sentence,
        greedy,
        temperature: state.sampleTemperature,
        topK: greedy ? 0 : state.topK,
        seed: ++seed,
      });
      // The piece appended, after those of earlier continues of this same text.
      const piece = text.startsWith(state.sentence) ? text.slice(state.sentence.length) : null;
      const before = continued.text === state.sentence ? continued.added : [];
      continued = { text, added: piece === null ? [] : [...before, piece], greedy };
      store.set({ sentence: text });
    } catch (error) {
      notice(error.message);
    }
  }

  /**
   * A model file (its bytes and name: one the user chose, or one the playground handed over):
   * loaded beside the others; a bad one changes nothing.
   */
  async function openBytes(bytes, name, origin) {
    const state = store.get();
    const s = modelStrings(state.lang);
    stopMeasuring(); // the worker replaces the model 'file'
    try {
      const summary = await engine.ask('modelLoad', { name: 'file', bytes });
      fileName = name;
      fileOrigin = origin === 'browser' ? 'browser' : 'file';
      loaded.set('file', Promise.resolve(summary));
      store.set({ model: 'file', modelRevision: state.modelRevision + 1 });
    } catch (error) {
      $('model-about').textContent = s.badFile(name, error.message);
      $('model-about').classList.add('model-error');
      setTimeout(() => $('model-about').classList.remove('model-error'), 4000);
    }
  }
  const openFile = async (file) => openBytes(new Uint8Array(await file.arrayBuffer()), file.name);

  function refused(text) {
    $('model-about').textContent = text;
    $('model-about').classList.add('model-error');
    setTimeout(() => $('model-about').classList.remove('model-error'), 4000);
  }

  /** What refused a checkpoint, in the page's language: the page's own reason, or the engine's (its field names the key or tensor). */
  function refusalText(s, name, error) {
    if (error instanceof CheckpointRefusal) return s.checkpointRefused(name, error.reason, error.files, error.detail);
    const where = error.field && !String(error.message).startsWith(error.field) ? `${error.field}: ` : '';
    return s.badFile(name, `${where}${error.message}`);
  }

  /**
   * Files the learner opened (picker, folder picker or a drop): a model file, or a GPT-2
   * checkpoint (checkpoint-files.js) loaded in the worker with its tokenizer. A refused one
   * changes nothing and says why, naming the file, key or tensor.
   */
  async function openFiles(files) {
    const opened = sortOpened(files);
    if (!opened) return;
    if (opened.model) return openFile(opened.model);
    const s = () => modelStrings(store.get().lang);
    if (opened.missing) return refused(s().checkpointRefused('', 'missing', opened.missing, {}));
    const { name } = opened.checkpoint;
    $('model-about').textContent = s().loading(name);
    // The worker replaces the model 'file': a measurement of the one before ends here.
    stopMeasuring();
    fileLoading = true;
    $('model-roles-measure').disabled = true;
    try {
      const checkpoint = await readCheckpoint(opened.checkpoint, {
        maxBytes: engine.limits.maxModelFileBytes,
        gpt2Files: hasGpt2TokenizerFiles() ? gpt2TokenizerFiles : null,
      });
      const summary = await engine.ask('modelLoad', { name: 'file', checkpoint });
      fileName = name;
      fileOrigin = 'file';
      loaded.set('file', Promise.resolve(summary));
      const state = store.get();
      store.set({ model: 'file', modelRevision: state.modelRevision + 1 });
    } catch (error) {
      refused(refusalText(s(), name, error));
    } finally {
      fileLoading = false;
      $('model-roles-measure').disabled = running;
    }
  }

  $('model').addEventListener('change', (event) => {
    const value = event.target.value;
    event.target.value = store.get().model; // shown once the new model is there
    if (value === 'file') $('model-file').click();
    else if (value === 'folder') $('model-folder').click();
    else if (value === 'random') store.set({ model: value, heads: randomHeads });
    else store.set({ model: value });
  });
  store.subscribe((state, changed) => {
    if (state.model === 'random' && changed.has('heads')) randomHeads = state.heads;
  });
  for (const role of ['model-file', 'model-folder']) {
    $(role).addEventListener('change', (event) => {
      const files = Array.from(event.target.files);
      event.target.value = '';
      openFiles(files);
    });
  }
  // Files or a folder dropped anywhere on the explorer (text dropped on the sentence box stays text).
  const carriesFiles = (event) => Array.from(event.dataTransfer?.types ?? []).includes('Files');
  root.addEventListener('dragover', (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    root.classList.add('model-drop');
  });
  root.addEventListener('dragleave', (event) => {
    if (event.target === root || !root.contains(event.relatedTarget)) root.classList.remove('model-drop');
  });
  root.addEventListener('drop', async (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    root.classList.remove('model-drop');
    openFiles(await droppedFiles(event.dataTransfer));
  });
  store.subscribe((state, changed) => {
    if (PANEL_FIELDS.some((f) => changed.has(f))) drawn = render(state);
  });
  drawn = render(store.get());

  return {
    ready,
    openBytes,
    openFiles,
    /** Resolves once the panel has drawn the store's state. */
    idle: async () => {
      let seen;
      do {
        seen = drawn;
        await seen;
      } while (seen !== drawn);
    },
    get view() {
      return last;
    },
  };
}
