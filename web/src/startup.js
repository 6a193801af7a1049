// Starting a page (index.html, embed.html): whatever goes wrong before the explorer is drawn
// (the engine's .wasm not loading, a module that throws as it loads, a bug) replaces
// "Loading the engine…" with what happened, in both languages, instead of leaving it forever.
// Import this module first, so that its listeners exist before any other module runs.
import { bilingual } from './i18n.js';

function showStartupError(error) {
  const loading = document.getElementById('loading');
  if (!loading) return;
  loading.hidden = false;
  loading.setAttribute('role', 'alert');
  loading.classList.add('startup-error');
  loading.textContent = bilingual('startupError', error?.message ?? String(error));
}

// A module that throws while loading (e.g. `new Intl.Segmenter` in a browser without it)
// stops the bundle before startPage() is reached: the browser reports it as an error event.
const early = (event) => showStartupError(event.error ?? event.reason ?? event.message);
addEventListener('error', early);
addEventListener('unhandledrejection', early);

/** Runs `start()`; hides #loading when it resolves, shows the error there if it throws. */
export async function startPage(start) {
  try {
    await start();
    document.getElementById('loading').hidden = true;
  } catch (error) {
    showStartupError(error);
    console.error(error); // the stack, for whoever opens the console
  } finally {
    removeEventListener('error', early);
    removeEventListener('unhandledrejection', early);
  }
}
