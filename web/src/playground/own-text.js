// The page's side of "Your text": the text panel (a ready text, a pasted one or a
// .txt file; the level proposed for it; the vocabulary's progress bar; what the model will
// train) and the sample panel. The worker builds and trains (worker-text.js); this module only
// reads the controls, sends the text and draws what comes back.
import { setText } from './text.js';
import { MAX_URL_TEXT, proposeLevel, READY_NAMES, READY_TEXTS } from './texts.js';
import { SOURCES, TEXT_MODE } from './state.js';
import { looksLikeText, PREFIX_BYTES, SHOWN_BYTES, typedTextFault, utf8Length } from './text-checks.js';
import { previewText } from './text-preview.js';

const $ = (root, role) => root.querySelector(`[data-role="${role}"]`);
/**
 * Wires the text panel. `page`: { t() strings, state() the page's state, setState(patch,
 * options), send(type, payload, transfer), limits (the engine's corpusLimits), fail(failure),
 * format(number) }. Returns { build(), showInfo(info), showSample(sample), redraw() }.
 */
export function wireOwnText(root, page) {
  // A file's bytes, or a long paste's, while they are the text (the engine checks a file as UTF-8,
  // naming offsets); typing in the box makes the box the text again. `shown`: the box holds it.
  let file = null; // { name, bytes, shown, pasted, sample: its first characters, for the proposal }
  let info = null; // the configured text model's info.text
  let sample = null;
  let building = false;
  let progressSeen = []; // the fractions of the last build, for tests and the console

  const box = $(root, 'text');
  const state = () => page.state();
  // Opened from a link whose own text was too long to keep: the box is empty and says why.
  let linkLostText = state().source === 'own' && !state().text;
  const textNow = () => (state().source === 'own' ? box.value : READY_TEXTS[state().source]);
  const proposal = () => proposeLevel(file && !file.shown && state().source === 'own' ? file.sample : textNow());
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

  /** The box shows the state's text: a ready text, or the learner's (from the link, when short). */
  function showSource() {
    if (state().source !== 'own') {
      file = null;
      box.value = READY_TEXTS[state().source];
    } else if (!file && box.value !== state().text && state().text) {
      box.value = state().text;
    }
  }

  function redraw() {
    const s = page.t();
    const { limits } = page;
    // A text kept aside is named where it would be shown.
    box.placeholder =
      file && !file.shown && state().source === 'own'
        ? s.textHeld(file.pasted ? s.pastedName : file.name, (file.bytes.length / 1e6).toFixed(1))
        : s.textPlaceholder;
    fillSelects();
    setText($(root, 'proposal'), state().level === 'auto' ? s.proposal[proposal().reason] : '');
    setText($(root, 'text-url-note'), s.urlNote(MAX_URL_TEXT));
    setText($(root, 'text-limits'), limits ? s.textLimits(limits.maxTextBytes / 2 ** 20, limits.maxVocabulary) : '');
    const missing = linkLostText && state().source === 'own' && !box.value && !file;
    setText($(root, 'text-building'), missing && !building ? s.textMissing : $(root, 'text-building').textContent);
    if (info) {
      const f = page.format;
      const { summary, estimate, contextLength } = info;
      setText(
        $(root, 'text-summary'),
        s.textSummary(f(summary.tokens), f(summary.vocabSize), f(page.parameters()), f(Math.max(1, estimate / 1000))),
      );
      setText(
        $(root, 'text-split'),
        `${s.textSplit(f(summary.trainTokens), f(summary.heldOutTokens), contextLength)}${summary.unknown ? ` ${s.textUnknown(f(summary.unknown))}` : ''}`,
      );
    } else if (!building) {
      // The text in the box now, counted here: the last trained text's numbers would be wrong.
      const p = preview();
      const f = page.format;
      setText($(root, 'text-summary'), p ? s.textPreview(f(p.tokens), f(p.vocabSize), f(p.parameters), p.exact) : '');
      setText($(root, 'text-split'), '');
    }
    drawSample();
  }

  // The box's text counted for the summary line, once per text, level and knobs (a redraw per keystroke).
  let previewed = { text: null, key: null, value: null };
  function preview() {
    const text = file && !file.shown && state().source === 'own' ? null : textNow();
    if (!text || !text.trim()) return null;
    const { layers, heads, dModel, attentionOnly } = state();
    const knobs = { layers, heads, dModel, attentionOnly };
    const key = JSON.stringify([levelNow(), knobs, page.limits?.maxVocabulary ?? null]);
    if (previewed.text !== text || previewed.key !== key) {
      previewed = { text, key, value: previewText(text, levelNow(), knobs, page.limits?.maxVocabulary) };
    }
    return previewed.value;
  }

  /** The text changed: the trained text's summary no longer describes it. */
  function textChanged() {
    info = null;
    redraw();
  }

  function drawSample() {
    const panel = $(root, 'sample-panel');
    panel.hidden = state().task !== TEXT_MODE || !sample;
    if (!sample) return;
    setText($(root, 'sample-step'), page.t().sampleAt(page.format(sample.step)));
    setText($(root, 'sample'), sample.text);
  }

  /**
   * Sends the text to the worker to build its vocabulary and a model of the page's knobs. An empty
   * box is sent only when the learner asked (`asked`: the engine says what is wrong); a link
   * whose text was too long to keep just leaves the box empty, saying so.
   */
  function build(asked = false) {
    info = null;
    sample = null;
    setText($(root, 'text-summary'), '');
    setText($(root, 'text-split'), '');
    drawSample();
    const text = file && state().source === 'own' ? file.bytes.slice() : textNow();
    if (!file && !text && !asked) {
      redraw();
      return false;
    }
    // Typed text's faults are said in characters, where they are (the engine would count bytes).
    const fault = typeof text === 'string' ? typedTextFault(text) : null;
    if (fault) {
      page.fail(fault);
      redraw();
      return false;
    }
    building = true;
    progressSeen = [];
    showProgress(0);
    const { layers, heads, dModel, scale, attentionOnly, learningRate, batchSize, seed } = state();
    const knobs = { layers, heads, dModel, scale, attentionOnly, learningRate, batchSize, seed };
    const name = file?.name ?? (state().source === 'own' ? 'your text' : state().source);
    page.send('text', { text, level: levelNow(), knobs, name }, typeof text === 'string' ? [] : [text.buffer]);
    return true;
  }

  function showProgress(fraction) {
    const bar = $(root, 'text-progress');
    bar.hidden = !building;
    bar.value = fraction;
    setText($(root, 'text-building'), building ? page.t().building(Math.round(fraction * 100)) : '');
  }

  // ---- events ----
  $(root, 'source').addEventListener('change', (e) => {
    file = null;
    page.setState({ source: e.target.value });
    showSource();
    textChanged();
  });
  $(root, 'level').addEventListener('change', (e) => {
    page.setState({ level: e.target.value });
    textChanged();
  });
  // A paste is weighed before it reaches the box: past the limit it is refused, unpasted; past
  // SHOWN_BYTES it is kept aside as bytes, as a long file is (the box would freeze the page).
  box.addEventListener('paste', (e) => {
    const pasted = e.clipboardData?.getData('text/plain');
    if (!pasted || pasted.length <= SHOWN_BYTES / 3) return;
    const { limits } = page;
    const most = limits?.maxTextBytes ?? Infinity;
    const bytes = utf8Length(pasted, most);
    if (bytes <= SHOWN_BYTES) return;
    e.preventDefault();
    if (bytes > most) {
      page.fail({
        kind: 'textRefused',
        args: ['pasteTooLarge', [(utf8Length(pasted) / 1e6).toFixed(1), most / 2 ** 20, most]],
      });
      return;
    }
    const fault = typedTextFault(pasted);
    if (fault) {
      page.fail(fault);
      return;
    }
    linkLostText = false;
    const sample = pasted.slice(0, 20000);
    file = { name: '', bytes: new TextEncoder().encode(pasted), shown: false, pasted: true, sample };
    box.value = '';
    page.fail(null);
    page.setState({ source: 'own', text: '' });
    textChanged();
  });
  box.addEventListener('input', () => {
    file = null;
    linkLostText = false;
    // The link keeps a short text (state.js); a longer one stays here.
    page.setState({ source: 'own', text: box.value.length <= MAX_URL_TEXT ? box.value : '' });
    textChanged();
  });
  $(root, 'train-text').addEventListener('click', () => page.train());
  $(root, 'open-text').addEventListener('change', async (e) => {
    const picked = e.target.files[0];
    if (!picked) return;
    e.target.value = '';
    linkLostText = false;
    const { limits } = page;
    // A file past the limit is refused by its size, unread (a 200 MB file never reaches memory).
    if (limits && picked.size > limits.maxTextBytes) {
      page.fail({
        kind: 'fileTooLarge',
        args: [picked.name, (picked.size / 1e6).toFixed(1), limits.maxTextBytes / 2 ** 20, limits.maxTextBytes],
      });
      return;
    }
    try {
      // A short file whose start reads as text is shown; any other is sent as it is and the
      // engine (in the worker) names what is wrong, by byte offset.
      const prefix = new Uint8Array(await picked.slice(0, PREFIX_BYTES).arrayBuffer());
      const shown = picked.size <= SHOWN_BYTES && looksLikeText(prefix);
      const bytes = new Uint8Array(await picked.arrayBuffer());
      const sample = new TextDecoder().decode(prefix, { stream: true }).slice(0, 20000);
      file = { name: picked.name, bytes, shown, pasted: false, sample };
      box.value = shown ? new TextDecoder().decode(bytes) : '';
      page.setState({ source: 'own', text: box.value.length <= MAX_URL_TEXT ? box.value : '' });
      page.train();
    } catch (error) {
      page.fail({ kind: 'file', message: error.message });
    }
  });

  showSource();
  return {
    build,
    redraw,
    showSource,
    /** The building finished (info.text of the configured model) or failed (null). */
    showInfo(next) {
      building = false;
      showProgress(0);
      info = next;
      redraw();
    },
    showProgress(fraction) {
      progressSeen.push(fraction);
      showProgress(fraction);
    },
    get progressSeen() {
      return progressSeen.slice();
    },
    showSample(next) {
      sample = next;
      drawSample();
    },
    get excerpt() {
      return info?.excerpt;
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
