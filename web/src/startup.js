// Starting a page (index.html, embed.html): whatever goes wrong before the explorer is drawn
// (the engine's .wasm not loading, a bug) replaces "Loading the engine…" with what happened,
// in both languages, instead of leaving it on screen forever.
import { bilingual } from './i18n.js';

/** Runs `start()`; hides #loading when it resolves, shows the error there if it throws. */
export async function startPage(start) {
  const loading = document.getElementById('loading');
  try {
    await start();
    loading.hidden = true;
  } catch (error) {
    loading.hidden = false;
    loading.setAttribute('role', 'alert');
    loading.classList.add('startup-error');
    loading.textContent = bilingual('startupError', error?.message ?? String(error));
    console.error(error); // the stack, for whoever opens the console
  }
}
