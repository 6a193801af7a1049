// The model panel's way in: the model selector, and the files that open a model (picker, folder
// picker, a drop on the explorer, bytes the playground handed over). Owns which models are loaded
// in the worker (models/service.js modelLoad) and the opened file's name and origin; a refused
// file changes nothing and says why, naming the file, key or tensor.
//
//   const opener = createModelOpener({ root, $, store, engine, say, measure })
//     measure: { stop() (the worker replaces the model 'file'), fileLoading(flag) }
//   opener.ready(key)          → Promise of the model's summary once loaded in the worker
//   opener.isLoaded(key)       whether `key` is loaded or loading
//   opener.file()              → { name, origin: 'file' | 'browser' } of the opened file
//   opener.fillSelector(state) the selector's models and label, in state.lang
//   opener.openBytes(bytes, name, origin), opener.openFiles(files)
import { options } from '../controls.js';
import { defaultState } from '../state.js';
import { MODELS, SHIPPED_MODELS } from '../model-catalog.js';
import { modelStrings } from './i18n.js';
import { hasShippedModel, shippedModelBytes } from './load.js';
import { gpt2TokenizerFiles, hasGpt2TokenizerFiles } from './gpt2-files.js';
import { CheckpointRefusal, droppedFiles, readCheckpoint, sortOpened } from './checkpoint-files.js';

/** What refused a checkpoint, in the page's language: the page's own reason, or the engine's (its field names the key or tensor). */
function refusalText(s, name, error) {
  if (error instanceof CheckpointRefusal) return s.checkpointRefused(name, error.reason, error.files, error.detail);
  const where = error.field && !String(error.message).startsWith(error.field) ? `${error.field}: ` : '';
  return s.badFile(name, `${where}${error.message}`);
}

/**
 * @param o { root: the explorer's root, $: its elements by data-role, store, engine (the
 *            RemoteEngine), say(role, text): a text written only where it differs, measure:
 *            the roles measurement (panel-roles.js) }
 */
export function createModelOpener({ root, $, store, engine, say, measure }) {
  const loaded = new Map(); // model key → Promise of its summary (modelLoad's answer)
  let fileName = '';
  let fileOrigin = 'file'; // 'browser': handed over by the playground, which trained it
  // Random weights' heads while a model (which sets its own) is shown: they come back with them.
  let randomHeads = store.get().model === 'random' ? store.get().heads : defaultState().heads;

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

  /**
   * The loaded file is the model 'file' now: the revision after `state`'s (the panel and the
   * explorer read it again).
   */
  function opened(summary, name, origin, state) {
    fileName = name;
    fileOrigin = origin === 'browser' ? 'browser' : 'file';
    loaded.set('file', Promise.resolve(summary));
    store.set({ model: 'file', modelRevision: state.modelRevision + 1 });
  }

  function refused(text) {
    $('model-about').textContent = text;
    $('model-about').classList.add('model-error');
    setTimeout(() => $('model-about').classList.remove('model-error'), 4000);
  }

  /**
   * A model file (its bytes and name: one the user chose, or one the playground handed over):
   * loaded beside the others; a bad one changes nothing.
   */
  async function openBytes(bytes, name, origin) {
    const state = store.get();
    const s = modelStrings(state.lang);
    measure.stop(); // the worker replaces the model 'file'
    try {
      opened(await engine.ask('modelLoad', { name: 'file', bytes }), name, origin, state);
    } catch (error) {
      refused(s.badFile(name, error.message));
    }
  }
  const openFile = async (file) => openBytes(new Uint8Array(await file.arrayBuffer()), file.name);

  /**
   * Files the learner opened (picker, folder picker or a drop): a model file, or a GPT-2
   * checkpoint (checkpoint-files.js) loaded in the worker with its tokenizer.
   */
  async function openFiles(files) {
    const sorted = sortOpened(files);
    if (!sorted) return;
    if (sorted.model) return openFile(sorted.model);
    const s = () => modelStrings(store.get().lang);
    if (sorted.missing) return refused(s().checkpointRefused('', 'missing', sorted.missing, {}));
    const { name } = sorted.checkpoint;
    $('model-about').textContent = s().loading(name);
    // The worker replaces the model 'file': a measurement of the one before ends here.
    measure.stop();
    measure.fileLoading(true);
    try {
      const checkpoint = await readCheckpoint(sorted.checkpoint, {
        maxBytes: engine.limits.maxModelFileBytes,
        gpt2Files: hasGpt2TokenizerFiles() ? gpt2TokenizerFiles : null,
      });
      const summary = await engine.ask('modelLoad', { name: 'file', checkpoint });
      opened(summary, name, 'file', store.get());
    } catch (error) {
      refused(refusalText(s(), name, error));
    } finally {
      measure.fileLoading(false);
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

  return {
    ready,
    isLoaded: (key) => loaded.has(key),
    file: () => ({ name: fileName, origin: fileOrigin }),
    fillSelector,
    openBytes,
    openFiles,
  };
}
