// The model panel's drawing, from the store's state: the selector's texts, what the model is and
// what it was trained on, then the worker's modelView of the sentence drawn as the grid of heads
// (grid.js), the next token (next.js) and the whole block (block.js). Only the newest state is
// drawn: an older draw still waiting for the worker stops where it is.
//
//   const view = createPanelView({ root, $, store, engine, opener, measure, continuer, exportButton, say, notice })
//   view.draw(state)   draws `state` (the one before, if still running, stops)
//   view.idle()        resolves once the newest draw is done
//   view.last          the last modelView drawn (tests and exports read it), or null
import { formatCount } from '../format.js';
import { modelStrings } from './i18n.js';
import { drawGrid } from './grid.js';
import { storedRoles } from './roles.js';
import { drawBlock } from './block.js';
import { drawNext } from './next.js';
import { modelBounds } from './bounds.js';

/** What the model is and what it was trained on, in state.lang; `file`: the opened file's { name, origin }. */
function aboutModel(state, summary, file) {
  const s = modelStrings(state.lang);
  if (state.model === 'random') return s.aboutRandom;
  const c = summary.config;
  // A GPT-2 checkpoint (models/gpt2.js): trained elsewhere; which tokenizer reads the text.
  if (state.model === 'file' && c.source === 'gpt2 checkpoint') {
    return s.aboutCheckpoint(
      file.name,
      { ...c, ...summary },
      formatCount(summary.parameterCount, state.lang),
      c.tokenizer === 'vocab.json',
    );
  }
  // Where it was trained: a shipped model in this repository, a handed-over one in this
  // browser (the playground), an opened file somewhere this page cannot know.
  const where = state.model === 'file' ? file.origin : 'repo';
  const title =
    state.model !== 'file'
      ? (state.lang === 'zh' && c.titleZh) || c.title || s[`model.${state.model}`]
      : where === 'browser'
        ? file.name
        : s.aboutFile(file.name);
  // A shipped model's corpus in the page's language where the strings have it (zh), else the file's words.
  const corpus =
    (Object.hasOwn(s, `corpus.${state.model}`) ? s[`corpus.${state.model}`] : null) ??
    s.corpusName(c.corpus) ??
    (c.task ? s.task(c.task) : s.unknownCorpus);
  // The file's own metrics (heldOutLoss, unigramLoss: nats per token) beside the model's shape.
  return s.about(title, corpus, { ...c, ...summary }, formatCount(summary.parameterCount, state.lang), where);
}

/** What the notice says of the text the model read: a started, cut or partly unknown text. */
function readingNotice(view, s) {
  const unknown = view.unknown.filter(Boolean).length;
  const said = [
    view.start ? s.started : '',
    view.cut ? s.cut(view.total, view.tokens.length) : '',
    unknown ? s.unknown(unknown) : '',
  ];
  return said.filter(Boolean).join(' ') || null;
}

/**
 * @param o { root: the explorer's root, $: its elements by data-role, store, engine (the
 *            RemoteEngine), opener (panel-open.js), measure (panel-roles.js), continuer
 *            (panel-continue.js), exportButton (export-button.js), say(role, text), notice(text) }
 */
export function createPanelView({ root, $, store, engine, opener, measure, continuer, exportButton, say, notice }) {
  let run = 0;
  let drawn = Promise.resolve();
  let last = null;
  const later = () => new Promise((resolve) => setTimeout(resolve, 0));

  /** The model's summary once loaded, its texts drawn and its shape in the store; else null. */
  async function showModel(state, s, mine) {
    opener.fillSelector(state);
    if (root.dataset.model !== state.model) root.dataset.model = state.model;
    $('models').hidden = state.model === 'random';
    // Every button has its label in the page's language, shown or not (the panel is hidden for
    // random weights; the measure row for a model with a sidecar).
    say('model-roles-measure', s.rolesMeasure);
    say('model-roles-stop', s.rolesStop);
    exportButton.update(state, null);
    if (state.model === 'random') {
      say('model-about', s.aboutRandom);
      notice(null);
      return null;
    }
    let summary;
    try {
      if (!opener.isLoaded(state.model)) $('model-about').textContent = s.loading(s[`model.${state.model}`]);
      summary = await opener.ready(state.model);
    } catch (error) {
      if (mine === run) $('model-about').textContent = s.loadFailed(error.message);
      return null;
    }
    if (mine !== run) return null;
    $('model-about').textContent = aboutModel(state, summary, opener.file());
    exportButton.update(state, summary);
    // The model's shape bounds the layer and head (state.js leaves them to the model).
    const { layer, head } = modelBounds(state, summary);
    if (layer !== state.layer || head !== state.head || state.heads !== summary.heads) {
      store.set({ layer, head, heads: summary.heads });
      return null; // the store's change renders again
    }
    return summary;
  }

  /** The grid of heads and the next token for the worker's `view` of the sentence. */
  function drawView(state, summary, view, s) {
    notice(readingNotice(view, s));
    $('model-view-title').textContent = s.modelView;
    // A shipped model's head roles (measured on held-out text), stored with it; a checkpoint's
    // once measured here (panel-roles.js); none for another file.
    const checkpoint = state.model === 'file' && summary.config.source === 'gpt2 checkpoint';
    const measured = measure.measured();
    const ours = checkpoint && measured?.revision === state.modelRevision ? measured : null;
    const stored = state.model === 'file' ? (ours?.roles ?? null) : storedRoles(state.model);
    measure.show(checkpoint, s);
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
    const { added, loop } = continuer.marks(state);
    drawNext($('model-next'), view, {
      strings: s,
      state,
      set: (patch) => store.set(patch),
      onContinue: continuer.run,
      added,
      loop,
    });
  }

  async function render(state) {
    const mine = ++run;
    const s = modelStrings(state.lang);
    const summary = await showModel(state, s, mine);
    if (!summary) return;
    if (!state.sentence.trim()) {
      for (const role of ['model-grid', 'model-block', 'model-next']) $(role).replaceChildren();
      notice(null);
      return;
    }
    // Asked a task later, after the explorer's trace of the same keystroke (opened in this task's
    // microtasks): the worker answers in order, and the step being typed into is drawn first.
    await later();
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
    drawView(state, summary, view, s);
    // The block (8 heatmaps of tokens × up to 4·d_model) in a task of its own: the grid and the
    // prediction are painted first, and no single task holds the page for both.
    await later();
    if (mine === run) drawBlock($('model-block'), view, { strings: s });
  }

  return {
    draw(state) {
      drawn = render(state);
    },
    async idle() {
      let seen;
      do {
        seen = drawn;
        await seen;
      } while (seen !== drawn);
    },
    get last() {
      return last;
    },
  };
}
