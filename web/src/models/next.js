// Next token: the model's top-k predictions for the token after the text, with
// probabilities of softmax(logits ÷ T), a temperature slider, top-k, and continue buttons
// (greedy or sampled) that append a token and re-run everything. Above them, the text as it
// grows: the sentence box's text, its end shown, each continued token marked.
import { el, visible } from './paint.js';
import { SAMPLE_TEMPERATURE, TOP_K } from '../state.js';

/**
 * @param box the next-token element (emptied)
 * @param view modelView's answer: { tokens, next: [{ id, token, probability }] }
 * @param o { strings, state, set(patch), onContinue(greedy), added: the pieces continue appended
 *            to state.sentence, in order (its last ones; [] after the learner typed), loop: the
 *            repeated n-gram greedy continue ended in (repeatedTail), or null }
 */
export function drawNext(box, view, { strings: s, state, set, onContinue, added = [], loop = null }) {
  box.replaceChildren();
  box.append(el('p', 'hint', s.nextHint(visible(view.tokens.at(-1)))), grownText(state.sentence, added, s));
  const controls = el('div', 'next-controls');
  const temperature = el('input');
  Object.assign(temperature, {
    type: 'range',
    min: String(SAMPLE_TEMPERATURE.min),
    max: String(SAMPLE_TEMPERATURE.max),
    step: String(SAMPLE_TEMPERATURE.step),
    value: String(state.sampleTemperature),
  });
  temperature.dataset.role = 'sample-temperature';
  temperature.addEventListener('change', () => set({ sampleTemperature: Number(temperature.value) }));
  const topK = el('input');
  Object.assign(topK, {
    type: 'number',
    min: String(TOP_K.min),
    max: String(TOP_K.max),
    step: '1',
    value: String(state.topK),
  });
  topK.dataset.role = 'top-k';
  topK.addEventListener('change', () => {
    const k = Number(topK.value);
    const valid = Number.isInteger(k) && k >= TOP_K.min && k <= TOP_K.max;
    topK.setAttribute('aria-invalid', String(!valid));
    if (valid) set({ topK: k });
  });
  const label = (text, input, value) => {
    const l = el('label');
    l.append(el('span', null, `${text} `), input);
    if (value) l.append(el('output', null, ` ${state.sampleTemperature.toFixed(1)}`));
    return l;
  };
  const greedy = el('button', null, s.greedy);
  greedy.type = 'button';
  greedy.dataset.role = 'continue-greedy';
  greedy.addEventListener('click', () => onContinue(true));
  const sample = el('button', null, s.sample);
  sample.type = 'button';
  sample.dataset.role = 'continue-sample';
  sample.addEventListener('click', () => onContinue(false));
  controls.append(label(s.temperature, temperature, true), label(s.topK, topK), greedy, sample);
  // Greedy decoding is deterministic: once its text repeats itself it goes round the same loop,
  // so greedy continue stops there and says so, and the sampled one is offered instead.
  let stopped = null;
  if (loop) {
    greedy.disabled = true;
    stopped = el('p', 'next-loop', s.loop(visible(loop.join(''))));
    stopped.dataset.role = 'next-loop';
    const again = el('button', null, s.sample);
    again.type = 'button';
    again.dataset.role = 'continue-sample-loop';
    again.addEventListener('click', () => onContinue(false));
    stopped.append(' ', again);
  }
  const list = el('ol', 'next-list');
  const top = view.next[0]?.probability || 1;
  for (const p of view.next) {
    const item = el('li', 'next-item');
    item.dataset.token = p.token;
    item.dataset.probability = String(p.probability);
    const bar = el('span', 'next-bar');
    bar.style.width = `${(100 * p.probability) / top}%`;
    item.append(el('span', 'next-token', visible(p.token)), bar, el('span', 'next-p', s.probability(p.probability)));
    list.append(item);
  }
  box.append(...(stopped ? [stopped] : []), controls, list);
  // The special symbols among the predictions or the text, said in words.
  const shown = new Set([...view.next.map((p) => p.token), ...added]);
  const specials = SPECIALS.filter((t) => [...shown].some((x) => x === t || (t === '\n' && x.includes('\n'))));
  if (specials.length) box.append(el('p', 'hint next-specials', specials.map((t) => s.special[t]).join(' ')));
}

/**
 * The n-gram the end of `pieces` repeats (n ≥ 2 pieces twice running, or one piece three times),
 * as its pieces, or null: "谁知妾有意，妾有妾有" ends in 妾有 twice.
 */
export function repeatedTail(pieces) {
  for (let n = 1; 2 * n <= pieces.length; n++) {
    const last = pieces.slice(-n);
    const same = (k) => pieces.slice(-(k + 1) * n, pieces.length - k * n).every((p, i) => p === last[i]);
    if (same(1) && (n >= 2 || (pieces.length >= 3 && same(2)))) return last;
  }
  return null;
}

// Symbols that are not text: the line break (shown ↵) and the vocabulary's own.
const SPECIALS = ['\n', '<unk>', '<eos>', '<bos>', '<pad>'];

// The text the model continues: its last TAIL characters before what continue added, then each
// added piece marked, so that the growing text is beside the predictions, not only in the
// sentence box (scrolled out of view at 1280 × 800, and far above on a phone).
const TAIL = 80;
function grownText(sentence, added, s) {
  const p = el('p', 'next-text');
  p.dataset.role = 'next-text';
  const cut = added.reduce((n, piece) => n - piece.length, sentence.length);
  const before = sentence.slice(0, cut);
  p.append(el('span', 'hint', `${s.nextText} `));
  p.append(el('span', null, visible(before.length > TAIL ? `…${before.slice(-TAIL)}` : before)));
  for (const piece of added) {
    const mark = el('mark', 'next-added', visible(piece));
    mark.dataset.role = 'next-added';
    p.append(mark);
  }
  return p;
}
