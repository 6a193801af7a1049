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
    // A shipped model's head roles (measured on held-out text), stored with it; none for a file.
    const stored = state.model === 'file' ? null : storedRoles(state.model);
    // The 对仗 and rhyme sentences are about poems: the prose model's page does not carry them.
    const hint = [s.modelViewHint, stored && s.rolesHint, stored && state.model !== 'brown' && s.rolesHintPoems];
    $('model-view-hint').textContent = hint.filter(Boolean).join(' ');
    $('model-block-title').textContent = s.block(view.layer);
    $('model-block-hint').textContent = s.blockHint;
    $('model-next-title').textContent = s.next;
    drawGrid($('model-grid'), view, {
      strings: s,
      layer: state.layer,
      head: state.head,
      stored,
      prose: state.model === 'brown',
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
