// Pictures drawn on a canvas inside an SVG: a <foreignObject class="pixels"> holding the
// <canvas> itself. No PNG is encoded (toBlob and createObjectURL held the main thread for
// hundreds of milliseconds at 2,048 tokens), and each canvas is painted in a task of its own
// (sixteen 512 × 512 heatmaps in one task held it as long). Exports turn each into an
// <image> with a data: URL (export.js), since a figure leaving the page has no canvas.
import { nodeLocal } from '../node-local.js';

// A canvas's part that shows the picture ({ width, height } from its top left), where a painter
// gave it a canvas larger than the picture (room to spare: views/matrix-image.js).
const shownParts = nodeLocal();
/** Says that only `part` ({ width, height }) of `canvas` is the picture. */
export const setShownPart = (canvas, part) => shownParts.set(canvas, part);

// What a holder was last asked to paint (node-local.js): { source, token }; a job whose token is no
// longer the holder's was overtaken by a newer draw.
const painted = nodeLocal();

const jobs = [];
// Made on first use: a port listening from import on would keep node (which imports the
// view registry through state.js, e.g. build-scripts/serve.mjs) from ever exiting.
let channel = null;
function nextTask() {
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => {
      const job = jobs.shift();
      if (jobs.length) nextTask();
      job?.();
    };
  }
  channel.port2.postMessage(0);
}

/**
 * A <foreignObject class="pixels"> in the d3 selection `parent` (one per parent), showing in a
 * later task the canvas that `paint(canvas)` returns (`canvas` the one shown so far, or null: a
 * painter may draw into it again); a newer call replaces a pending one. `source` (the data
 * drawn) skips the painting when the picture shows it already: re-rendering a view for another
 * step must not rasterize 3,000 links again. `now` paints at once, for a small picture that
 * must show in the same frame as the rest of a keystroke. Returns the foreignObject's
 * selection (set x, width, height and listeners on it).
 */
export function pixels(parent, paint, source, { now = false } = {}) {
  const holder = parent
    .selectAll('foreignObject.pixels')
    .data([0])
    .join((enter) => enter.append('foreignObject').attr('class', 'pixels'));
  const node = holder.node();
  if (source && painted.get(node)?.source === source) return holder;
  const token = {};
  painted.set(node, { source, token });
  const show = () => {
    const shown = node.firstChild;
    const canvas = paint(shown?.tagName === 'CANVAS' ? shown : null);
    if (canvas !== shown) node.replaceChildren(canvas);
  };
  if (now) {
    show();
    return holder;
  }
  jobs.push(() => {
    if (painted.get(node).token !== token || !node.isConnected) return; // redrawn or removed since
    show();
  });
  if (jobs.length === 1) nextTask();
  return holder;
}

/**
 * The picture of a foreignObject made by pixels() as a data: URL (for a figure), or null: only
 * the canvas's `shown` part ({ width, height } from its top left) where a painter set one.
 */
export function pixelsDataURL(node) {
  const canvas = node.querySelector('canvas');
  if (!canvas) return null;
  const { width, height } = shownParts.get(canvas) ?? canvas;
  if (width === canvas.width && height === canvas.height) return canvas.toDataURL();
  const part = document.createElement('canvas');
  part.width = width;
  part.height = height;
  part.getContext('2d').drawImage(canvas, 0, 0);
  return part.toDataURL();
}
