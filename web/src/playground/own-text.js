// The page's side of "Your text": the text panel (a ready text, a pasted one or a
// .txt file; the level proposed for it; the vocabulary's progress bar; what the model will
// train) and the sample panel. The worker builds and trains (worker-text.js); this module only
// holds the panel's own state, sends the text and takes what comes back. Its parts:
// text-panel.js draws, text-inputs.js reads the controls.
import { setText } from './text.js';
import { READY_NAMES } from './texts.js';
import { typedTextFault } from './text-checks.js';
import { createTextPanel } from './text-panel.js';
import { wireTextInputs } from './text-inputs.js';

const $ = (root, role) => root.querySelector(`[data-role="${role}"]`);
/**
 * Wires the text panel. `page`: { t() strings, state() the page's state, setState(patch,
 * options), send(type, payload, transfer), limits (the engine's corpusLimits), fail(failure),
 * format(number), parameters() the model's, train() }. Returns { build(), showInfo(info),
 * showSample(sample), showProgress(fraction), redraw(), … }.
 */
export function wireOwnText(root, page) {
  // The panel's own state, which no link carries. A file's bytes, or a long paste's, while they
  // are the text (the engine checks a file as UTF-8, naming offsets); typing in the box makes the
  // box the text again.
  const held = {
    file: null, // { name, bytes, shown: the box holds it, pasted, sample: its first characters, for the proposal }
    info: null, // the configured text model's info.text
    sample: null, // the model's last sample { step, text }
    building: false,
    progressSeen: [], // the fractions of the last build, for tests and the console
    // Opened from a link whose own text was too long to keep: the box is empty and says why.
    linkLostText: page.state().source === 'own' && !page.state().text,
  };
  const panel = createTextPanel(root, page, held);
  wireTextInputs(root, page, held, {
    showSource: panel.showSource,
    changed() {
      // The text changed: the trained text's summary no longer describes it.
      held.info = null;
      panel.redraw();
    },
  });

  /**
   * Sends the text to the worker to build its vocabulary and a model of the page's knobs. An empty
   * box is sent only when the learner asked (`asked`: the engine says what is wrong); a link
   * whose text was too long to keep just leaves the box empty, saying so.
   */
  function build(asked = false) {
    const state = page.state();
    held.info = null;
    held.sample = null;
    setText($(root, 'text-summary'), '');
    setText($(root, 'text-split'), '');
    panel.drawSample();
    const text = held.file && state.source === 'own' ? held.file.bytes.slice() : panel.textNow();
    if (!held.file && !text && !asked) {
      panel.redraw();
      return false;
    }
    // Typed text's faults are said in characters, where they are (the engine would count bytes).
    const fault = typeof text === 'string' ? typedTextFault(text) : null;
    if (fault) {
      page.fail(fault);
      panel.redraw();
      return false;
    }
    held.building = true;
    held.progressSeen = [];
    panel.showProgress(0);
    const { layers, heads, dModel, scale, attentionOnly, learningRate, batchSize, seed } = state;
    const knobs = { layers, heads, dModel, scale, attentionOnly, learningRate, batchSize, seed };
    const name = held.file?.name ?? (state.source === 'own' ? 'your text' : state.source);
    page.send('text', { text, level: panel.levelNow(), knobs, name }, typeof text === 'string' ? [] : [text.buffer]);
    return true;
  }

  panel.showSource();
  return {
    build,
    redraw: panel.redraw,
    showSource: panel.showSource,
    /** The building finished (info.text of the configured model) or failed (null). */
    showInfo(next) {
      held.building = false;
      panel.showProgress(0);
      held.info = next;
      panel.redraw();
    },
    showProgress(fraction) {
      held.progressSeen.push(fraction);
      panel.showProgress(fraction);
    },
    get progressSeen() {
      return held.progressSeen.slice();
    },
    showSample(next) {
      held.sample = next;
      panel.drawSample();
    },
    get excerpt() {
      return held.info?.excerpt;
    },
    get readyNames() {
      return READY_NAMES;
    },
  };
}

// The engine's refusals of a text, by what they say (cpp/bindings/corpus_text.cpp and
// model_corpus_handle.cpp word them): [kind, pattern, numbers of the match]. The page says
// each in its language (i18n.js textRefused); an unknown one keeps the engine's English.
const REFUSALS = [
  ['empty', /^text is empty: give at least (\d+)/, (m) => [m[1]]],
  ['nul', /NUL byte at byte offset (\d+)/, (m) => [m[1]]],
  ['utf8', /not valid UTF-8: .* at byte offset (\d+)/, (m) => [m[1]]],
  // The engine counts UTF-16 units from 0; the page says characters from 1 (the same for text
  // without pairs before it; the page's own check, typedTextFault, counts exactly).
  ['surrogate', /lone UTF-16 surrogate at index (\d+)/, (m) => [Number(m[1]) + 1]],
  ['binary', /^text has (\d+) control characters among (\d+) .*at most ([\d.]+)%/, (m) => [m[1], m[2], m[3]]],
  ['one', /^text is one (?:character|word) \("(.*)"\) repeated (\d+) times/, (m) => [m[1], m[2]]],
  ['short', /^text has (\d+) (?:characters|words); at least (\d+)/, (m) => [m[1], m[2]]],
  ['large', /^text \((\d+) bytes\) must be at most \d+ bytes \((\d+) MiB\)/, (m) => [m[1], m[2]]],
  ['vocabulary', /^the text has (\d+) distinct (characters|words) .*the limit is (\d+)/, (m) => [m[1], m[3], m[2]]],
  [
    'word',
    /^text has a word of (\d+) bytes \("(.*)…"\); a word-level symbol is at most (\d+) bytes/,
    (m) => [m[1], m[2], m[3]],
  ],
  ['context', /^the training text has (\d+) tokens; contextLength \+ 1 = (\d+)/, (m) => [m[1], m[2]]],
  ['spaces', /without a space, tab or newline/, () => []],
];

/** The failure to show for the worker's refusal of a text: { kind, args } or the engine's text. */
export function textRefusal(message) {
  for (const [kind, pattern, numbers] of REFUSALS) {
    const match = pattern.exec(message);
    if (match) return { kind: 'textRefused', args: [kind, numbers(match)], message };
  }
  return { kind: 'text', message };
}
