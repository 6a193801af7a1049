// Scheduling: what is drawn, and when the link is written. The page's parts are drawn at most
// once per frame within a budget (frame-parts.js), the live heatmaps first; a store change
// redraws the parts that read the fields it changed, and a change of a link field writes the
// link (at most every LINK_MS). Knows nothing of the worker: the session changes the store.
//
//   createSchedule({ store, parts: [[name, when(), draw(deadline) → false: not done], …], writeLink() }) → {
//     redraw(...names)  those parts in the next frame
//     curvesSoon()      the curves at most every CURVES_MS, the last change always drawn
//     writeLinkSoon()   the link after LINK_MS (as a change of a link field does)
//     writeLinkNow()    the link now (before it is copied)
//   }
import { createFrameParts } from './frame-parts.js';
import { touchesLink } from './page-store.js';

/** Drawing in one frame stops after this long; the rest waits for the next frame. */
const FRAME_BUDGET_MS = 4;
/** The curves (D3 axes and paths, the costliest redraw) at most this often while training. */
const CURVES_MS = 250;
const LINK_MS = 150;

// A store field → the parts drawn from it.
const READERS = {
  scrubIndex: ['snapshot'],
  heatmapPage: ['snapshot', 'answer'],
  lastAnswer: ['answer'],
  playing: ['curves'], // the offer to stop is shown only while training runs
};

export function createSchedule({ store, parts, writeLink }) {
  const frames = createFrameParts(parts, FRAME_BUDGET_MS);
  let linkTimer = 0;

  function writeLinkSoon() {
    clearTimeout(linkTimer);
    linkTimer = setTimeout(writeLink, LINK_MS);
  }

  store.subscribe((state, changed) => {
    const names = [...changed].flatMap((field) => READERS[field] ?? []);
    if (names.length) frames.redraw(...names);
    if (touchesLink(changed)) writeLinkSoon();
  });

  return {
    redraw: frames.redraw,
    curvesSoon: () => frames.soon('curves', CURVES_MS),
    writeLinkSoon,
    writeLinkNow() {
      clearTimeout(linkTimer);
      writeLink();
    },
  };
}
