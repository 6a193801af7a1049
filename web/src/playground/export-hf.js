// The playground's "Export for transformers" (../hf-export.js): the model being trained (or a
// loaded one) as a GPT-2 folder in one .zip, made by the training worker where the model lives
// (worker.js, exportHf), at the step it has reached. Off, with the reason as its title and under
// it, for a model GPT-2 cannot express (attention only, not divided by √d_k: the page's own
// switches) and while a new model is being made.
//   const exportHf = wireExportHf({ $, store, t, worker, lines })   binds the button; draws itself
import { download } from '../download.js';
import { exportRefusal } from '../hf-export.js';
import { refusalText } from '../i18n-hf-export.js';
import { setText } from './render.js';
import { modelFileName } from './state.js';

export function wireExportHf({ $, store, t, worker, lines }) {
  const state = store.get;
  const button = $('export-hf');
  let busy = false;
  let done = null; // { info, text: (strings) => text }: the last download, while its model is shown

  /** The model file's name, as "Download the model" names it (a loaded file: its own name). */
  const fileName = () => state().info?.name ?? modelFileName(state());

  function show() {
    const s = t();
    const { info } = state();
    const reason = info ? exportRefusal(info.config) : 'none';
    setText(button, busy ? s.exportHfBusy : s.exportHf);
    button.disabled = busy || reason !== null;
    button.title = reason ? refusalText(s, reason) : s.exportHfTitle;
    const note = reason && info ? refusalText(s, reason) : done && done.info === info ? done.text(s) : '';
    setText($('export-hf-note'), note);
    $('export-hf-note').hidden = !note;
  }

  button.addEventListener('click', () => {
    busy = true;
    show();
    worker.send('exportHf', { name: fileName() });
  });
  worker.on('exportedHf', (message) => {
    busy = false;
    if (message.error) {
      lines.fail({ kind: 'exportHf', message: message.error.message });
    } else {
      download(message.name, message.bytes, 'application/zip');
      const megabytes = (message.bytes.length / 1e6).toFixed(1);
      done = { info: state().info, text: (s) => s.exportHfDone(message.name, megabytes) };
      if (lines.failure?.kind === 'exportHf') lines.fail(null);
    }
    show();
  });
  store.subscribe((next, changed) => {
    if (changed.has('info') || changed.has('lang') || changed.has('task')) show();
  });
  show();
  return { show };
}
