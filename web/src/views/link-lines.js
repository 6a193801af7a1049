// The links view's lines on one <canvas> under the token labels, in a
// <foreignObject class="link-lines"> of the view's <svg> (so it scales and scrolls with it).
// A keystroke changes every line's weight (softmax renormalizes each row): 2,048 lines at
// 32 tokens × 2 heads. As SVG <line>s, writing their attributes took ~15 ms of script a
// keystroke and their layout and paint ~10 ms more (Chromium traces, main-thread CPU); on a
// canvas they are a loop of strokes (~1 ms), painted in the keystroke's own task, with no
// element per line to restyle or lay out. What is left is rasterizing them: without a GPU
// Chromium does it on the main thread as the frame is made, ~6 ms at 32 tokens and ~18 ms
// at 64 (3,000 lines, twice as tall) on this machine, about the length of line drawn.
// Off screen, the canvas is painted in a task after the frame (see offScreen below).
// What the canvas shows is kept per holder (a nodeLocal, not properties on the element): its
// lines in paint order for hover (lineAt), for a figure (figures.js: the same lines as SVG, which
// explorer/export.js puts in place of the canvas) and for the tests, which compare them with the
// engine's numbers through linkLinesOf (also globalThis.attentionLinkLines, for the page's own
// context: the e2e tests and the console).

import { putAttrs } from '../dom.js';
import { roomFor } from './fit.js';
import { afterFrame } from '../frames.js';
import { nodeLocal } from '../node-local.js';
import { setFigure } from './figures.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
// Round caps reach past a line's ends by half its width (≤ 5.5 px): the canvas is this much
// wider on each side.
const PAD = 8;
// A pointer this close (px) to a hairline still hits it.
const MIN_HIT = 2;

// Per holder: { lines, left, right } as last drawn, `painted` (the lines on the canvas now: the
// same array once painted, a tween's in between), `deferred` (a paint waiting for the canvas to
// come on screen), `room` (the canvas's height with room to spare), `watched`, `offScreen`.
const kept = nodeLocal();
const keptOf = (node) => kept.get(node) ?? kept.set(node, { lines: [], painted: null, deferred: null });

/** What the link-lines holder `node` shows: { lines, left, right, painted, deferred }, or null. */
export const linkLinesOf = (node) => kept.get(node) ?? null;
globalThis.attentionLinkLines = linkLinesOf;

/**
 * Paints `lines` on the link-lines canvas of the d3 selection `svg` (made on first use, before
 * its `text.token` labels, so that they stay on top for the pointer), and keeps them.
 * lines: [{ h, i, j, weight, y1, y2, width, opacity, color, pair }] in paint order, y in the
 * svg's px; every line runs from x = left to x = right. `sharpness`: canvas pixels a px (default:
 * the screen's, at most 2). Returns the holder's selection.
 */
export function paintLines(svg, lines, { left, right, height, duration = 0, sharpness = null }) {
  const holder = svg
    .selectAll('foreignObject.link-lines')
    .data([0])
    .join((enter) => enter.insert('foreignObject', 'text.token').attr('class', 'link-lines'));
  const node = holder.node();
  const state = keptOf(node);
  const width = right - left + 2 * PAD;
  // A canvas of a new size is a new resource for the compositor (~1 ms a frame): it keeps room
  // to spare in height (fit.js roomFor). The svg shows only the drawing; below it the canvas is empty.
  const room = (state.room = roomFor(height, state.room));
  putAttrs(holder, { x: left - PAD, y: 0, width, height: room });
  const canvas = node.firstChild ?? node.appendChild(makeCanvas());
  // Crisp on high-density screens (and, by `sharpness` canvas pixels a px, in a figure that its
  // frame scales up); setting a canvas's size clears it, so only when it changes.
  const scale = sharpness ?? Math.min(2, globalThis.devicePixelRatio || 1);
  const [w, h] = [Math.round(width * scale), Math.round(room * scale)];
  if (canvas.width !== w || canvas.height !== h) [canvas.width, canvas.height] = [w, h];
  const from = state.painted ?? [];
  Object.assign(state, { lines, left, right });
  setFigure(node, () => figure(state));
  const paint = (shown) => {
    state.painted = shown;
    const context = canvas.getContext('2d');
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, w, h);
    context.setTransform(scale, 0, 0, scale, PAD * scale, 0);
    strokeLines(context, shown, right - left);
  };
  holder.interrupt();
  state.deferred = null;
  if (duration > 0)
    holder
      .transition()
      .duration(duration)
      .tween('lines', () => between(from, lines, paint));
  else if (offScreen(node)) defer(node, state, () => paint(lines));
  else paint(lines);
  return holder;
}

// A canvas off screen is painted after the frame (frames.js), not inside the keystroke: at
// 1280 × 900 the views lie below the stage, and without a GPU a canvas is rasterized on the thread
// that draws it (~7 ms at 32 tokens, ~18 ms at 64), for nobody to see. On screen, or as it
// nears the screen, it is painted at once. (A transition paints every frame, on screen or not.)
const NEAR = '300px';
let watcher = null;

/** Whether `node` was last seen off screen (not yet seen counts as on screen). */
function offScreen(node) {
  if (typeof IntersectionObserver === 'undefined') return false;
  const state = keptOf(node);
  if (!state.watched) {
    state.watched = true;
    watcher ??= new IntersectionObserver(
      (entries) => {
        for (const { target, isIntersecting } of entries) {
          const seen = keptOf(target);
          seen.offScreen = !isIntersecting;
          if (isIntersecting) paintDeferred(seen);
        }
      },
      { rootMargin: NEAR },
    );
    watcher.observe(node);
  }
  return state.offScreen === true;
}

function defer(node, state, paint) {
  state.deferred = paint;
  afterFrame(node, () => paintDeferred(state));
}

/** Paints what was deferred for a holder (its kept state), if anything (the latest drawing only). */
function paintDeferred(state) {
  const paint = state.deferred;
  state.deferred = null;
  paint?.();
}

function makeCanvas() {
  const canvas = document.createElement('canvas');
  Object.assign(canvas.style, { display: 'block', width: '100%', height: '100%' });
  return canvas;
}

/**
 * Strokes `lines` ({ y1, y2, width, opacity, color }, in paint order) on `context`, each from
 * (0, y1) to (span, y2) in its current transform. Shared with the long sentence's image (links.js).
 *
 * Hairlines that follow one another with one style are stroked as one path. A stroke at most 1
 * device px wide is drawn by Chromium (Skia) as a hairline, each segment blended on its own, so
 * one path of them paints the pixels as many strokes do (compared in the e2e tests), while each
 * stroke() costs its own setup. At 32 tokens 1,400 of the 1,800 lines are the faintest hairline
 * (weight ≤ 0.05): the 1,766 lines of the benchmark's sentence are 565 strokes, and their raster
 * took 4.9–5.1 ms instead of 5.8–7.0 (timed in the page). Wider lines stay one stroke each: one
 * path of them is filled once where they overlap. And in paint order only: blending the same
 * lines in another order rounds otherwise, up to 9 levels in 255 where many overlap.
 */
export function strokeLines(context, lines, span) {
  context.lineCap = 'round';
  const { a, b, c, d } = context.getTransform();
  const hairline = 1 / Math.max(Math.hypot(a, b), Math.hypot(c, d));
  let color = null;
  for (let start = 0, end = 0; start < lines.length; start = end) {
    const first = lines[start];
    end = start + 1;
    // The lines after it of its colour and style, if it is a hairline.
    if (first.width <= hairline)
      while (
        end < lines.length &&
        lines[end].color === first.color &&
        lines[end].width === first.width &&
        lines[end].opacity === first.opacity
      )
        end++;
    // Setting the same style again still parses the colour: only when it changes.
    if (first.color !== color) context.strokeStyle = color = first.color;
    context.globalAlpha = first.opacity;
    context.lineWidth = first.width;
    context.beginPath();
    for (let k = start; k < end; k++) {
      context.moveTo(0, lines[k].y1);
      context.lineTo(span, lines[k].y2);
    }
    context.stroke();
  }
}

const keyOf = (line) => `${line.h}:${line.i}:${line.j}`;
const mix = (a, b, u) => a + (b - a) * u;

/**
 * A tween from the lines painted (`from`) to `to`: a line glides in width, opacity and place,
 * a new one grows from nothing, one that is gone fades out under the rest (as the SVG lines
 * did with a d3 transition each). Calls paint(lines) with u in [0, 1].
 */
function between(from, to, paint) {
  const before = new Map(from.map((line) => [keyOf(line), line]));
  const pairs = to.map((line) => [before.get(keyOf(line)) ?? { ...line, width: 0, opacity: 0 }, line]);
  const kept = new Set(to.map(keyOf));
  const gone = from.filter((line) => !kept.has(keyOf(line))).map((line) => [line, { ...line, width: 0, opacity: 0 }]);
  const all = [...gone, ...pairs];
  return (u) =>
    paint(
      u === 1
        ? to
        : all.map(([a, b]) => ({
            ...b,
            y1: mix(a.y1, b.y1, u),
            y2: mix(a.y2, b.y2, u),
            width: mix(a.width, b.width, u),
            opacity: mix(a.opacity, b.opacity, u),
          })),
    );
}

/**
 * The topmost of `shown`'s lines ({ lines, left, right }: linkLinesOf a holder) under the svg
 * point (x, y), or null: what the pointer would have hit on an SVG <line> of that width (with
 * round caps).
 */
export function lineAt(shown, x, y) {
  const { lines = [], left, right } = shown ?? {};
  const span = right - left;
  for (let k = lines.length - 1; k >= 0; k--) {
    const line = lines[k];
    // Distance from (x, y) to the segment (left, y1)–(right, y2).
    const dy = line.y2 - line.y1;
    const t = Math.max(0, Math.min(1, ((x - left) * span + (y - line.y1) * dy) / (span * span + dy * dy)));
    const distance = Math.hypot(x - (left + t * span), y - (line.y1 + t * dy));
    if (distance <= Math.max(MIN_HIT, line.width / 2)) return line;
  }
  return null;
}

/** The kept lines as SVG <line class="link"> elements in a <g class="links">: a figure has no canvas. */
function figure(holder) {
  // holder: the kept state { lines, left, right }
  const group = document.createElementNS(SVG_NS, 'g');
  group.setAttribute('class', 'links');
  for (const line of holder.lines) {
    const element = document.createElementNS(SVG_NS, 'line');
    const attrs = {
      class: line.pair ? 'link pair' : 'link',
      'data-head': line.h,
      'data-i': line.i,
      'data-j': line.j,
      'data-weight': line.weight,
      stroke: line.color,
      'stroke-linecap': 'round',
      x1: holder.left,
      x2: holder.right,
      y1: line.y1,
      y2: line.y2,
      'stroke-width': line.width,
      'stroke-opacity': line.opacity,
    };
    for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
    group.append(element);
  }
  return group;
}
