// An <svg> whose drawing changes height on every keystroke (each matrix gains a row), without
// what that change costs. Chromium lays out every <text> of an svg again whenever the svg's own
// size or viewBox changes (an SVG text counts as relative to its viewport, whatever its units):
// 8–16 ms for the 800 numbers of the matrices view at 8 tokens, measured with a forced layout.
// So the svg keeps a size with room to spare, changed only when the drawing outgrows it or
// shrinks under a quarter of it, inside a <div class="svg-fit"> whose aspect ratio is the drawing's
// own: the div shows exactly the drawing, as the svg alone did (both are as wide as their panel),
// and its change of height costs no SVG layout. The drawing's own box is the svg's
// data-view-box, which figures are exported with (explorer/export.js).

import { nodeLocal } from '../node-local.js';

// What fitSvg last wrote (node-local.js): a box's aspect ratio, an svg's { width, height } of room.
const boxRatio = nodeLocal();
const svgRoom = nodeLocal();

// Room to spare when the svg is resized: a quarter more than the drawing.
const SPARE = 1.25;
// An svg's empty room costs nothing (it is clipped, and nothing is drawn there), so it is kept
// down to a quarter: the heatmap's four heads of a trained model wrap to a second row at 8
// tokens and back at 7, twice the height, and with room for half of it a keystroke there resized
// the svg each time, 6–9 ms of its 400 texts' layout (docs/benchmarks.md, "What changed up to
// e713c1e").
const SVG_LEAST = 1 / 4;

/**
 * The room (px, cells…) to give a drawing of `size` that has `room` now: `room` while the drawing
 * fits in it and uses at least `least` of it (half: a canvas's empty pixels are memory), else a
 * quarter more than `size`. Shared by whatever keeps its size while a keystroke grows what it
 * shows: this svg, a matrix picture's canvas (matrix-image.js), the links' canvas (link-lines.js).
 */
export function roomFor(size, room, least = 1 / 2) {
  return room && size <= room && size >= room * least ? room : Math.ceil(size * SPARE);
}

/**
 * Shows `width` × `height` of the svg element `svgNode` (drawn at scale 1, as wide as its panel,
 * or as its box's class `boxClass` makes it: the links view's is at most 620 px, centred).
 */
export function fitSvg(svgNode, width, height, { boxClass = '' } = {}) {
  let box = svgNode.parentNode;
  if (!box.classList.contains('svg-fit')) {
    box = document.createElement('div');
    box.className = `svg-fit ${boxClass}`.trim();
    // Clipped below only: the stage's labels may reach past its sides (its svg shows overflow).
    // A clip, unlike `hidden`, leaves the box's least height its content's: min-height 0 lets
    // the aspect ratio alone decide it.
    box.style.overflowY = 'clip';
    box.style.minHeight = '0';
    svgNode.before(box);
    box.append(svgNode);
  }
  const ratio = `${width} / ${height}`;
  if (boxRatio.get(box) !== ratio) box.style.aspectRatio = boxRatio.set(box, ratio);
  const room = svgRoom.get(svgNode);
  const spare = roomFor(height, room?.width === width ? room.height : 0, SVG_LEAST);
  if (spare !== room?.height || width !== room.width) {
    svgRoom.set(svgNode, { width, height: spare });
    svgNode.setAttribute('viewBox', `0 0 ${width} ${spare}`);
    svgNode.setAttribute('height', spare);
  }
  svgNode.dataset.viewBox = `0 0 ${width} ${height}`;
}
