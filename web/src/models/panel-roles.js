// The model panel's measure-roles row: an opened GPT-2 checkpoint has no sidecar of head roles,
// so the page measures them in the worker (models/service.js modelRolesStart …), one batch per
// request: the bar moves between them, and Stop asks for no more. The grid then shows them as a
// shipped model's. Another model (or another file) ends a measurement of the one before.
//
//   const measure = createRoleMeasurer({ $, store, engine, say, redraw })
//   measure.measured()           → { revision (the file's modelRevision), roles (as storedRoles'),
//                                  windows, window, layers, inductionQueries } or null
//   measure.show(checkpoint, s)  the row: shown for a checkpoint, its button and status
//   measure.stop()               ends the running measurement (→ whether one ran)
//   measure.fileLoading(flag)    a checkpoint is being read: no measurement starts meanwhile
import { modelStrings } from './i18n.js';
import { measuredRoles } from './measured-roles.js';
import rolesSample from 'virtual:roles-sample';

/**
 * @param o { $: the explorer's elements by data-role, store, engine (the RemoteEngine), say(role,
 *            text), redraw(): the panel drawn again (the grid shows the roles measured) }
 */
export function createRoleMeasurer({ $, store, engine, say, redraw }) {
  // The roles measured on the page for the opened checkpoint, or null; the measurement running
  // (its number: a stop or another model makes it stale); a checkpoint being read.
  let measured = null;
  let measuring = 0;
  let running = false;
  let loadingFile = false;
  const status = (text) => say('model-roles-status', text);
  const s = () => modelStrings(store.get().lang);

  /** The measure-roles row: shown for a checkpoint; its button, bar and status as the measurement stands. */
  function show(checkpoint, strings) {
    $('model-roles').hidden = !checkpoint;
    if (!checkpoint) return;
    $('model-roles-measure').disabled = running || loadingFile;
    if (!running && !$('model-roles-status').textContent) say('model-roles-status', strings.rolesOffer);
  }

  /** The button, bar and Stop once no measurement runs. */
  function idle() {
    running = false;
    $('model-roles-progress').hidden = true;
    $('model-roles-stop').hidden = true;
    $('model-roles-measure').disabled = loadingFile;
  }

  /** Ends the running measurement (a stop, another model): the worker drops it, nothing is shown. */
  function stop() {
    if (!running) return false;
    measuring++;
    idle();
    engine.ask('modelRolesStop', { name: 'file' }).catch(() => {});
    return true;
  }

  function fileLoading(flag) {
    loadingFile = flag;
    $('model-roles-measure').disabled = flag || running;
  }

  /** What was measured, in the page's language (中文 sentences follow each other without a space). */
  function measuredText(strings) {
    const sequences = Math.round(measured.inductionQueries / Math.floor(measured.window / 2));
    const gap = store.get().lang === 'zh' ? '' : ' ';
    return [
      strings.rolesMeasured(measured.windows, measured.window, sequences),
      measured.layers < 2 ? strings.rolesOneLayer : '',
    ]
      .filter(Boolean)
      .join(gap);
  }

  async function measureRoles() {
    if (running) return;
    if (loadingFile) return status(s().rolesWait);
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
      const { steps, window, layers } = await engine.ask('modelRolesStart', { name: 'file', text: rolesSample });
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
      redraw();
    } catch (error) {
      if (job === measuring) status(s().rolesFailed(error.message));
    } finally {
      if (job === measuring) idle();
    }
  }

  $('model-roles-measure').addEventListener('click', () => measureRoles());
  $('model-roles-stop').addEventListener('click', () => {
    if (stop()) status(s().rolesStopped);
  });
  // Another model (or another file) ends a measurement of the one before; the language its text.
  store.subscribe((state, changed) => {
    if (changed.has('model') || changed.has('modelRevision')) {
      stop();
      if (!measured || measured.revision !== state.modelRevision) status('');
    } else if (changed.has('lang') && measured && !running) {
      status(measuredText(modelStrings(state.lang)));
    } else if (changed.has('lang') && !running) {
      status('');
    }
  });

  return { measured: () => measured, show, stop, fileLoading };
}
