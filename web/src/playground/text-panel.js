// Drawing "Your text"'s panels: the source and level selects (the level proposed for the text),
// the box, the summary line (the text in the box counted here before it is trained, the engine's
// figures after), the limits, the vocabulary's progress bar, and the sample panel. Reads the
// page's state and `held`, the panel's own (own-text.js); never talks to the worker.
//
//   createTextPanel(root, page, held) → {
//     redraw()             every line of both panels again
//     showSource()         the box shows the state's text: a ready one, or the learner's from the link
//     showProgress(f)      the vocabulary's build at fraction f (hidden when not building)
//     drawSample()         the sample panel
//     textNow(), levelNow()  the text in the box (or a ready one), the level it is built at
//   }
import { setText } from './text.js';
import { MAX_URL_TEXT, proposeLevel, READY_TEXTS } from './texts.js';
import { SOURCES, TEXT_MODE } from './state.js';
import { previewText } from './text-preview.js';

const $ = (root, role) => root.querySelector(`[data-role="${role}"]`);

export function createTextPanel(root, page, held) {
  const box = $(root, 'text');
  const state = () => page.state();
  /** A file or a long paste is the text, kept aside (not in the box). */
  const heldAside = () => held.file && !held.file.shown && state().source === 'own';
  const textNow = () => (state().source === 'own' ? box.value : READY_TEXTS[state().source]);
  const proposal = () => proposeLevel(heldAside() ? held.file.sample : textNow());
  const levelNow = () => (state().level === 'auto' ? proposal().level : state().level);

  function fillSelects() {
    const s = page.t();
    const source = $(root, 'source');
    source.replaceChildren(...SOURCES.map((name) => new Option(s[`source.${name}`], name)));
    source.value = state().source;
    const proposed = s[`level.${proposal().level}`];
    const level = $(root, 'level');
    level.replaceChildren(
      new Option(s.levelAuto(proposed), 'auto'),
      new Option(s['level.character'], 'character'),
      new Option(s['level.word'], 'word'),
    );
    level.value = state().level;
  }

  function showSource() {
    if (state().source !== 'own') {
      held.file = null;
      box.value = READY_TEXTS[state().source];
    } else if (!held.file && box.value !== state().text && state().text) {
      box.value = state().text;
    }
  }

  function redraw() {
    const s = page.t();
    const { limits } = page;
    const f = page.format;
    // A text kept aside is named where it would be shown.
    const { file } = held;
    box.placeholder = heldAside()
      ? s.textHeld(file.pasted ? s.pastedName : file.name, (file.bytes.length / 1e6).toFixed(1))
      : s.textPlaceholder;
    fillSelects();
    setText($(root, 'proposal'), state().level === 'auto' ? s.proposal[proposal().reason] : '');
    setText($(root, 'text-url-note'), s.urlNote(MAX_URL_TEXT));
    setText($(root, 'text-limits'), limits ? s.textLimits(limits.maxTextBytes / 2 ** 20, limits.maxVocabulary) : '');
    const missing = held.linkLostText && state().source === 'own' && !box.value && !file;
    setText($(root, 'text-building'), missing && !held.building ? s.textMissing : $(root, 'text-building').textContent);
    if (held.info) {
      const { summary, estimate, contextLength } = held.info;
      setText(
        $(root, 'text-summary'),
        s.textSummary(f(summary.tokens), f(summary.vocabSize), f(page.parameters()), f(Math.max(1, estimate / 1000))),
      );
      setText(
        $(root, 'text-split'),
        `${s.textSplit(f(summary.trainTokens), f(summary.heldOutTokens), contextLength)}${summary.unknown ? ` ${s.textUnknown(f(summary.unknown))}` : ''}`,
      );
    } else if (!held.building) {
      // The text in the box now, counted here: the last trained text's numbers would be wrong.
      const p = preview();
      setText($(root, 'text-summary'), p ? s.textPreview(f(p.tokens), f(p.vocabSize), f(p.parameters), p.exact) : '');
      setText($(root, 'text-split'), '');
    }
    drawSample();
  }

  // The box's text counted for the summary line, once per text, level and knobs (a redraw per keystroke).
  let previewed = { text: null, key: null, value: null };
  function preview() {
    const text = heldAside() ? null : textNow();
    if (!text || !text.trim()) return null;
    const { layers, heads, dModel, attentionOnly } = state();
    const knobs = { layers, heads, dModel, attentionOnly };
    const key = JSON.stringify([levelNow(), knobs, page.limits?.maxVocabulary ?? null]);
    if (previewed.text !== text || previewed.key !== key) {
      previewed = { text, key, value: previewText(text, levelNow(), knobs, page.limits?.maxVocabulary) };
    }
    return previewed.value;
  }

  function drawSample() {
    const panel = $(root, 'sample-panel');
    const { sample } = held;
    panel.hidden = state().task !== TEXT_MODE || !sample;
    if (!sample) return;
    setText($(root, 'sample-step'), page.t().sampleAt(page.format(sample.step)));
    setText($(root, 'sample'), sample.text);
  }

  function showProgress(fraction) {
    const bar = $(root, 'text-progress');
    bar.hidden = !held.building;
    bar.value = fraction;
    setText($(root, 'text-building'), held.building ? page.t().building(Math.round(fraction * 100)) : '');
  }

  return { redraw, showSource, showProgress, drawSample, textNow, levelNow };
}
