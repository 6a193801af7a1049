// The sentence box, presets, tokenization mode and model controls: each change goes to the
// store at once. Typing has no debounce: the explorer draws only the newest state and past
// explorer/compute.js CHEAP_CELLS computes only the newest, so a debounce would only add its delay
// to the same work (docs/benchmarks.md, "Typing: from a keystroke to the painted frame").
import {
  ATTENTION_KINDS,
  D_MODELS,
  GLOBAL_TOKENS,
  INITS,
  MASKS,
  PRESETS,
  SPARSE,
  TEMPERATURE,
  TUTORIAL,
  TUTORIAL_SENTENCE,
  defaultState,
  parseField,
  takesSetting,
} from './state.js';
import { SEED } from './url-fields.js';
import { TOKENIZATION_MODES } from './tokenize.js';
import { byRole, setProperty } from './dom.js';

/** Fills a select with `values`; leaves it alone when they and their labels are the same. */
export function options(select, values, label) {
  const key = JSON.stringify(values.map((value) => [value, label(value)]));
  if (select.dataset.options === key) return;
  select.dataset.options = key;
  select.replaceChildren(
    ...values.map((value) => {
      const option = document.createElement('option');
      option.value = String(value);
      option.textContent = label(value);
      return option;
    }),
  );
}

export function buildControls(root, store) {
  const $ = byRole(root);
  $('sentence').addEventListener('input', (event) => store.set({ sentence: event.target.value }));
  // Cross-attention's sentence (keys and values), typed like the first.
  $('kv').addEventListener('input', (event) => store.set({ kv: event.target.value }));
  $('preset').addEventListener('change', (event) => {
    if (event.target.value) store.set({ sentence: event.target.value });
  });
  const bind = (id, field, parse) =>
    $(id).addEventListener('change', (event) => {
      const value = parse(event.target);
      if (value !== undefined) store.set({ [field]: value });
    });
  bind('tokenization', 'tokenization', (el) => el.value);
  bind('dModel', 'dModel', (el) => Number(el.value));
  bind('heads', 'heads', (el) => Number(el.value));
  bind('mask', 'mask', (el) => el.value);
  bind('attention', 'attention', (el) => el.value);
  bind('init', 'init', (el) => el.value);
  bind('scale', 'scale', (el) => el.checked);
  bind('positionalEncoding', 'positionalEncoding', (el) => el.checked);
  // A pattern mask's causal version (shown with the pattern masks only).
  bind('maskCausal', 'maskCausal', (el) => el.checked);
  // On: the tutorial's sentence and numbers (the store pins TUTORIAL's fields). Off: those
  // fields go back to the page's defaults rather than keeping the tutorial's values unnoticed.
  $('tutorial').addEventListener('change', (event) => {
    if (event.target.checked) store.set({ tutorial: true, sentence: TUTORIAL_SENTENCE });
    else {
      const defaults = defaultState();
      store.set({ tutorial: false, ...Object.fromEntries(Object.keys(TUTORIAL).map((k) => [k, defaults[k]])) });
    }
  });
  bind('head', 'head', (el) => (el.value === 'all' ? 'all' : Number(el.value)));
  // The same parser as a link's, so that the box refuses exactly what a link would.
  const field = (key) => (el) => {
    const v = parseField(key, el.value);
    el.setAttribute('aria-invalid', String(v === undefined));
    return v;
  };
  bind('seed', 'seed', field('seed'));
  bind('window', 'window', field('w'));
  bind('temperature', 'temperature', field('t'));
  // The sparse patterns' settings (state.js SPARSE): the same bounds as a link's.
  bind('dilation', 'dilation', field('dil'));
  bind('block', 'block', field('blk'));
  bind('random', 'random', field('rnd'));
  bind('maskSeed', 'maskSeed', field('mseed'));
  for (const [role, bounds] of [...Object.entries(SPARSE), ['maskSeed', SEED]]) {
    $(role).min = String(bounds.min);
    $(role).max = String(bounds.max);
  }
  // Global tokens typed as '0, 5' (spaces allowed), read by the link's parser.
  bind('global', 'global', (el) => {
    const v = parseField('g', el.value.replace(/\s+/g, ''));
    el.setAttribute('aria-invalid', String(v === undefined));
    return v;
  });
  $('global').placeholder = '0, 5';
  // Or by clicking a token's chip: it becomes global, or stops being global.
  $('tokens').addEventListener('click', (event) => {
    const chip = event.target.closest('li');
    const state = store.get();
    if (!chip || !takesSetting(state.mask, 'global') || state.model !== 'random') return;
    const index = [...chip.parentNode.children].indexOf(chip);
    if (index > GLOBAL_TOKENS.max) return;
    const global = state.global.includes(index)
      ? state.global.filter((g) => g !== index)
      : [...state.global, index].sort((a, b) => a - b);
    if (global.length <= GLOBAL_TOKENS.count) store.set({ global });
  });
  $('temperature').min = String(TEMPERATURE.min);
  $('temperature').max = String(TEMPERATURE.max);
}

/**
 * Linear attention: the controls the engine refuses with it (a sliding window, ÷√d_k off, a
 * temperature) are off, each saying why on hover and in the note under the controls. A value a
 * link set that linear cannot take stays changeable, so that the learner can put it back (the
 * engine's message names it meanwhile).
 */
function refuseForLinear($, state, strings) {
  const linear = state.attention === 'linear' && state.model === 'random';
  const refuse = (el, off, reason) => {
    el.disabled = off;
    if (off) el.title = reason;
    else el.removeAttribute('title');
    el.dataset.refused = off ? reason : '';
  };
  refuse($('scale'), linear && state.scale, strings.linearNoScale);
  refuse($('temperature'), linear && state.temperature === 1, strings.linearNoTemperature);
  const window = $('mask').querySelector('option[value="window"]');
  if (window) refuse(window, linear && state.mask !== 'window', strings.linearNoWindow);
  for (const mask of ['dilated', 'longformer', 'bigbird']) {
    const option = $('mask').querySelector(`option[value="${mask}"]`);
    if (option) refuse(option, linear && state.mask !== mask, strings.linearNoSparse);
  }
  $('linear-note').hidden = !linear;
}

/**
 * With longformer or bigbird, the token chips say which tokens are global (class "global") and
 * that a click changes it. Chips added after this call (a long sentence's later chunks) are
 * marked once they are in (explorer/render.js).
 */
export function markGlobalChips(list, state, strings) {
  const on = takesSetting(state.mask, 'global') && state.model === 'random';
  list.classList.toggle('pickable', on);
  for (const [i, chip] of [...list.children].entries()) {
    const global = on && state.global.includes(i);
    chip.classList.toggle('global', global);
    if (on) chip.title = `#${i} · ${global ? strings.chipGlobal : strings.chipMakeGlobal}`;
  }
}

/** Writes the state into the controls (after a URL load, a preset, or a language switch). */
export function updateControls(root, state, strings) {
  const $ = byRole(root);
  const sentence = $('sentence');
  if (sentence.value !== state.sentence && document.activeElement !== sentence) sentence.value = state.sentence;
  const kv = $('kv');
  if (kv.value !== state.kv && document.activeElement !== kv) kv.value = state.kv;
  kv.disabled = state.tutorial;
  // A trained model reads the sentence by its own vocabulary and has no cross-attention: the
  // random explorer's second sentence and tokenization are not its inputs.
  const trained = state.model !== 'random';
  kv.closest('label').hidden = trained;
  $('kv-tokens').hidden = trained;
  $('tokenization').closest('label').hidden = trained;
  options($('preset'), ['', ...PRESETS], (p) => (p === '' ? '—' : p));
  setProperty($('preset'), 'value', PRESETS.includes(state.sentence) ? state.sentence : '');
  options($('tokenization'), TOKENIZATION_MODES, (m) => strings[`tokenization.${m}`]);
  setProperty($('tokenization'), 'value', state.tokenization);
  options($('dModel'), D_MODELS, String);
  setProperty($('dModel'), 'value', String(state.dModel));
  options(
    $('heads'),
    [1, 2, 4, 8, 16].filter((h) => state.dModel % h === 0 && h <= state.dModel),
    String,
  );
  setProperty($('heads'), 'value', String(state.heads));
  options($('mask'), MASKS, (m) => strings[`mask.${m}`]);
  setProperty($('mask'), 'value', state.mask);
  for (const setting of ['window', 'dilation', 'global', 'block', 'random', 'maskSeed', 'maskCausal'])
    $(`${setting}-control`).hidden = !takesSetting(state.mask, setting);
  $('global-hint').hidden = !takesSetting(state.mask, 'global') || trained;
  // none and causal have no pattern to make causal: the switch is hidden and off for them.
  $('maskCausal').disabled = !takesSetting(state.mask, 'maskCausal');
  $('maskCausal').checked = state.maskCausal;
  $('maskCausal-hint').hidden = !takesSetting(state.mask, 'maskCausal') || trained;
  markGlobalChips($('tokens'), state, strings);
  options($('attention'), ATTENTION_KINDS, (k) => strings[`attention.${k}`]);
  setProperty($('attention'), 'value', state.attention);
  // A trained model's layers are softmax attention: not a choice there.
  $('attention-control').hidden = trained;
  options($('init'), INITS, (i) => strings[`init.${i}`]);
  setProperty($('init'), 'value', state.init);
  $('scale').checked = state.scale;
  $('positionalEncoding').checked = state.positionalEncoding;
  if (document.activeElement !== $('seed')) setProperty($('seed'), 'value', String(state.seed));
  if (document.activeElement !== $('window')) setProperty($('window'), 'value', String(state.window));
  for (const role of ['dilation', 'block', 'random', 'maskSeed'])
    if (document.activeElement !== $(role)) setProperty($(role), 'value', String(state[role]));
  if (document.activeElement !== $('global')) setProperty($('global'), 'value', state.global.join(', '));
  if (document.activeElement !== $('temperature')) setProperty($('temperature'), 'value', String(state.temperature));
  refuseForLinear($, state, strings);
  $('tutorial').checked = state.tutorial;
  $('tutorial-note').hidden = !state.tutorial;
  // Pinned in tutorial mode: shown with the tutorial's values, not changeable.
  for (const field of Object.keys(TUTORIAL)) $(field).disabled = state.tutorial;
  options($('head'), ['all', ...Array.from({ length: state.heads }, (_, h) => h)], (h) =>
    h === 'all' ? strings.allHeads : strings.headN(h),
  );
  setProperty($('head'), 'value', String(state.head));
}
