// Step buttons 1–10, previous / play / next, a scrubber, and the keys ← → and space.
import { STEPS, STEP_COUNT } from '../steps.js';
import { stepTexts, stepTitle } from '../step-texts.js';
import { put, setText } from '../dom.js';

/** keyTarget: where ← → and space are heard (the explorer, or the whole document for the page). */
export function buildStepper(root, store, keyTarget = root) {
  let timer = null;
  const stop = () => {
    clearInterval(timer);
    timer = null;
    store.set({ playing: false });
  };
  const togglePlay = () => {
    if (timer) {
      stop();
      return;
    }
    if (store.get().step === STEP_COUNT) store.set({ step: 1 });
    timer = setInterval(() => {
      if (store.get().step >= STEP_COUNT) stop();
      else go(store, +1);
    }, 2600);
    store.set({ playing: true });
  };
  const list = root.querySelector('.step-list');
  const buttons = STEPS.map((_, k) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'step-button';
    button.dataset.step = String(k + 1);
    button.addEventListener('click', () => store.set({ step: k + 1 }));
    const li = document.createElement('li');
    li.append(button);
    list.append(li);
    return button;
  });
  const scrubber = root.querySelector('.scrubber');
  scrubber.max = String(STEP_COUNT);
  scrubber.addEventListener('input', () => store.set({ step: Number(scrubber.value) }));
  root.querySelector('.previous').addEventListener('click', () => go(store, -1));
  root.querySelector('.next').addEventListener('click', () => go(store, +1));
  root.querySelector('.play').addEventListener('click', togglePlay);

  keyTarget.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = event.target?.tagName;
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(tag) && event.target.type !== 'range') return;
    if (event.target?.type === 'range' && event.target !== scrubber) return;
    if (event.key === 'ArrowRight') go(store, +1);
    else if (event.key === 'ArrowLeft') go(store, -1);
    else if (event.key === ' ' && tag !== 'BUTTON') togglePlay();
    else return;
    event.preventDefault();
  });
  return { buttons, scrubber, stop: () => timer && stop() };
}

function go(store, delta) {
  const step = Math.min(STEP_COUNT, Math.max(1, store.get().step + delta));
  store.set({ step });
}

export function updateStepper(root, ui, state, strings) {
  ui.buttons.forEach((button, k) => {
    const current = k + 1 === state.step;
    const text = stepTexts(STEPS[k].key, state, strings);
    setText(button, `${k + 1} ${text.short}`);
    put(button, 'aria-current', current ? 'step' : 'false');
    put(button, 'title', text.title);
  });
  if (ui.scrubber.value !== String(state.step)) ui.scrubber.value = String(state.step);
  put(ui.scrubber, 'aria-valuetext', `${strings.stepOf(state.step, STEP_COUNT)}: ${stepTitle(state, strings)}`);
  put(ui.scrubber, 'aria-label', strings.stepper);
  const play = root.querySelector('.play');
  setText(play, state.playing ? '⏸' : '▶');
  put(play, 'aria-label', state.playing ? strings.pause : strings.play);
  put(play, 'aria-pressed', String(Boolean(state.playing)));
  put(root.querySelector('.previous'), 'aria-label', strings.previous);
  put(root.querySelector('.next'), 'aria-label', strings.next);
  setText(root.querySelector('.step-counter'), strings.stepOf(state.step, STEP_COUNT));
}
