// The note over a view (class view-note, data-role `<view>-shows`): what the view shows when
// the stage shows something else. The registry writes the note's element into each panel.
import { stepTitle } from '../step-texts.js';
import { setText } from '../dom.js';

/** The note's markup for the view `view` (hidden until there is something to say). */
export const viewNote = (view) => `<p class="hint view-note" data-role="${view}-shows" hidden></p>`;

/**
 * Says what a view shows when the stage shows something else: another step (`step`, 1-based,
 * e.g. the links' weights of step 7 while the stage is at step 2) or, under "all heads", one
 * head only (`oneHead`). `ctx` is the registry's context (views/registry.js).
 */
export function sayWhatItShows(note, { trace, state, strings }, { step = null, oneHead = false }) {
  const parts = [
    step && step !== state.step ? strings.viewShowsStep(step, stepTitle(state, strings, step), state.step) : '',
    oneHead && state.head === 'all' && trace.heads > 1 ? strings.viewShowsHead(0, strings.allHeads) : '',
  ].filter(Boolean);
  note.hidden = !parts.length;
  setText(note, parts.join(' '));
}
