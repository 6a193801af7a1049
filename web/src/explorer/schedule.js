// Scheduling: which state is computed and drawn, and when. Each store change is queued; the
// queue runs one prepare at a time, and only the newest state is drawn. Small traces are
// computed for every state, as typed (the engine sees the same sequence); past the computer's
// cheap size a prepare that a newer change overtook is skipped, so fast typing does not queue
// seconds of work. Knows nothing of the DOM: the computer computes, the renderer draws.
//
//   createScheduler({ computer, renderer, onError(error) }) → {
//     render(state, changed)  the renderer's synchronous part now; compute, load and draw queued
//     idle()                  resolves once every queued render has drawn, with its later work
//     stop(last)              no more draws; `last` runs after any prepare still running
//   }
import { jobsDone } from '../frames.js';

export function createScheduler({ computer, renderer, onError }) {
  let generation = 0; // the newest render's number: an older prepare draws nothing
  let queue = Promise.resolve();

  function render(state, changed) {
    const modelChanged = computer.reads(changed);
    renderer.changed(state, changed);
    const gen = ++generation;
    queue = queue.then(() => prepare(gen, state, modelChanged)).catch(onError);
  }

  /** Computes (when the model changed) and loads what `state` needs, then draws if newest. */
  async function prepare(gen, state, modelChanged) {
    const superseded = gen !== generation;
    // A newer state follows at once: its prepare waits, not this one.
    if (computer.update(state, { modelChanged, superseded }) && superseded) return;
    if (gen !== generation) return;
    await computer.opened; // the newest trace, also when an overtaken prepare opened it
    if (gen !== generation) return;
    await computer.load(state);
    if (gen !== generation) return;
    renderer.draw(state);
  }

  /** Resolves once every queued render has drawn (for tests and benchmarks). */
  async function idle() {
    let seen;
    do {
      seen = queue;
      await seen;
      await renderer.chipsDone;
      // What a keystroke's draw left to after its frame (the cells' numbers, frames.js).
      await jobsDone();
    } while (seen !== queue);
  }

  function stop(last) {
    generation++;
    queue = queue.then(last);
  }

  return { render, idle, stop };
}
