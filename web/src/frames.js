// Work that a keystroke's frame need not wait for: it runs in a task after that frame has
// been drawn. A keystroke first shows what it changed (a new token's row, every cell's colour),
// and the rest (the numbers printed in the cells) follows one frame later, instead of every
// part of it waiting for all of it (docs/benchmarks.md, "Typing").

/**
 * Calls run() once, in a task that `later` posts once the next frame has been drawn, or after
 * 100 ms where no frame comes (a hidden tab draws none), so that nothing waits forever.
 */
function whenDrawn(run, later = (task) => setTimeout(task, 0)) {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    clearTimeout(fallback);
    run();
  };
  const fallback = setTimeout(once, 100);
  requestAnimationFrame(() => later(once));
}

/** Resolves in a task after the next frame has been drawn (whenDrawn). */
export const nextFrame = () => new Promise((resolve) => whenDrawn(resolve));

// Tasks after a frame for work that may wait: input and messages already queued go first.
// Not idle time: after some keystrokes Chromium gave none for 100 ms.
const background = globalThis.scheduler?.postTask
  ? (task) => globalThis.scheduler.postTask(task, { priority: 'background' })
  : (task) => setTimeout(task, 0);

const jobs = new Map(); // owner → its latest job
let settled = null; // { promise, resolve } while jobs wait

/**
 * Runs `job` after the next frame; a newer job of the same `owner` (e.g. a grid's node)
 * replaces one that has not run yet. A job must read what it writes from the page as it is
 * then, not from the draw that queued it.
 */
export function afterFrame(owner, job) {
  jobs.set(owner, job);
  if (settled) return;
  let resolve;
  const waiting = { promise: new Promise((r) => (resolve = r)), resolve };
  settled = waiting;
  // (Unless runJobs() ran them in the meantime.)
  whenDrawn(() => settled === waiting && runJobs(), background);
}

/**
 * Draws `owner` now, or with `later` after the next frame (afterFrame), if it is still in the
 * page then: the latest draw wins. A draw made now drops a job of its owner still waiting, which
 * would draw what this one replaced.
 */
export function drawNowOrLater(owner, draw, later) {
  if (later) {
    afterFrame(owner, () => owner.isConnected && draw());
    return;
  }
  jobs.delete(owner);
  draw();
}

/** Runs every waiting job now (an export must hold what the page shows once they have run). */
export function runJobs() {
  while (jobs.size) {
    const waiting = [...jobs.values()];
    jobs.clear();
    for (const job of waiting) job();
  }
  settled?.resolve();
  settled = null;
}

/** Resolves once no job waits (for idle(): tests and benchmarks read the page after it). */
export const jobsDone = () => settled?.promise ?? Promise.resolve();
