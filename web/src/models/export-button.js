// The model panel's "Export for transformers" button (../hf-export.js): the shown model as a
// GPT-2 folder in one .zip, made in the engine's worker where the model lives (models/service.js,
// modelExport). Off, with the reason as its title and beside it, for a model GPT-2 cannot express
// and for a GPT-2 checkpoint opened here.
//   const button = createExportButton($, engine, store, fileNameOf)
//   button.update(state, summary)   the button and its note for the model shown, in state.lang
import { download } from '../download.js';
import { exportRefusal, hfZipName } from '../hf-export.js';
import { refusalText } from '../i18n-hf-export.js';
import { setText } from '../dom.js';
import { modelStrings } from './i18n.js';

/**
 * @param $ the explorer's byRole
 * @param engine the RemoteEngine (modelExport reaches models/service.js)
 * @param store the explorer's store
 * @param fileNameOf (model key) → the model file's name (tang.model, or the opened file's)
 */
export function createExportButton($, engine, store, fileNameOf) {
  const button = $('model-export');
  let busy = false;
  let note = null; // { model, revision, text: (strings) => text }: the last export's outcome
  let shown = null; // [state, summary] last drawn

  function update(state, summary) {
    shown = [state, summary];
    const s = modelStrings(state.lang);
    // No summary: the model is still loading (off, and nothing to say yet).
    const reason = summary ? exportRefusal(summary.config) : null;
    setText(button, busy ? s.exportHfBusy : s.exportHf);
    button.disabled = busy || !summary || reason !== null;
    button.title = reason ? refusalText(s, reason) : s.exportHfTitle;
    // The last export's outcome, while the same model is shown.
    const mine = summary && note && note.model === state.model && note.revision === state.modelRevision;
    setText($('model-export-note'), reason ? refusalText(s, reason) : mine ? note.text(s) : '');
  }

  button.addEventListener('click', async () => {
    const { model, modelRevision } = store.get();
    const fileName = fileNameOf(model);
    busy = true;
    update(...shown);
    let text;
    try {
      const { bytes } = await engine.ask('modelExport', { name: model, fileName });
      const zip = hfZipName(fileName);
      download(zip, bytes, 'application/zip');
      const megabytes = (bytes.length / 1e6).toFixed(1);
      text = (s) => s.exportHfDone(zip, megabytes);
    } catch (error) {
      text = (s) => s.exportHfFailed(error.message);
    }
    busy = false;
    note = { model, revision: modelRevision, text };
    update(store.get(), shown[1]);
  });

  return { update };
}
