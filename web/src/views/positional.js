// Positional encoding's picture: one strip per dimension c of PE [n × d_model], the wave
// sin(p / 10000^(2i/d)) (even c = 2i) or cos(…) (odd c = 2i+1) drawn over positions p, and
// the engine's PE[p, c] as dots on it. Read down a column of dots and you read row p of PE.
//
// A keystroke redraws it (a token more stretches every wave along x), so it writes only what
// changed (dom.js), builds each wave as a few cubic curves rather than hundreds of points, draws
// a strip's dots as one path, and listens for hover once on the picture instead of on every dot.
import * as d3 from 'd3';
import { formatValue } from '../format.js';
import { hideTooltip, showTooltip } from '../tooltip.js';
import { put, putAttrs, setTexts } from '../dom.js';
import { typing } from '../motion.js';
import { drawNowOrLater } from '../frames.js';
import { nodeLocal } from '../node-local.js';

// What the waves' listeners (made once) read: the last draw's { strings, tokens, xScale }.
const drawnWith = nodeLocal();
const listening = nodeLocal();

const STRIP = 30;
const TOP = 34;
const LEFT = 92;
const AMPLITUDE = STRIP / 2 - 3; // px from a strip's axis to ±1
const SIN = '#0072B2';
const COS = '#D55E00';
// At most this many strips: the fastest waves and the slowest, with a gap marked between.
const MAX_STRIPS = 8;
const MAX_DOTS = 32;

/** The dimensions drawn: all up to MAX_STRIPS, else the first and last MAX_STRIPS / 2. */
export function peDimensions(dModel) {
  if (dModel <= MAX_STRIPS) return d3.range(dModel);
  const half = MAX_STRIPS / 2;
  return [...d3.range(half), ...d3.range(dModel - half, dModel)];
}

/** The angular frequency of dimension c: PE[p, c] is sin(ω p) or cos(ω p). */
const frequency = (c, dModel) => 1 / 10000 ** ((2 * Math.floor(c / 2)) / dModel);

const round = (v) => Math.round(v * 100) / 100;

/**
 * The wave of dimension c over positions 0 … last, `xScale` px a position, as an SVG path: cubic
 * Bézier segments of at most π/4 radians with the wave's exact slope at their ends (Hermite), at
 * most 0.012 px from the true curve at a 12 px amplitude (error ≤ h⁴/384 · max|f⁗|). A polyline
 * as smooth needed ~12 points a position: 384 for 32 tokens against at most 26 curves here.
 */
export function wavePath(c, dModel, last, xScale, amplitude = AMPLITUDE) {
  const omega = frequency(c, dModel);
  const sine = c % 2 === 0;
  // value and slope (per position) of the wave at p
  const f = (p) => (sine ? Math.sin(omega * p) : Math.cos(omega * p));
  const df = (p) => (sine ? omega * Math.cos(omega * p) : -omega * Math.sin(omega * p));
  const segments = Math.max(1, Math.ceil((omega * last) / (Math.PI / 4)));
  const h = last / segments;
  // y grows downwards: +1 is `amplitude` px above the axis.
  const px = (p, v) => `${round(p * xScale)},${round(-v * amplitude)}`;
  let d = `M${px(0, f(0))}`;
  for (let k = 0; k < segments; k++) {
    const p0 = k * h;
    const p1 = k === segments - 1 ? last : (k + 1) * h;
    const [f0, f1] = [f(p0), f(p1)];
    d += `C${px(p0 + h / 3, f0 + (df(p0) * h) / 3)} ${px(p1 - h / 3, f1 - (df(p1) * h) / 3)} ${px(p1, f1)}`;
  }
  return d;
}

/** The dots of one strip: a circle of radius r at each (p, PE[p, c]), as one path. */
function dotsPath(dots, xScale, r) {
  let d = '';
  for (const { p, v } of dots)
    d += `M${round(p * xScale - r)},${round(-v * AMPLITUDE)}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;
  return d;
}

/**
 * Hover on a strip's dots (one listener on the picture): the dot nearest the pointer names its
 * position, token and value. The dots are one path a strip, so the nearest one is found from
 * the pointer's x (a layout read, but in the event, never during a draw).
 */
function listen(g) {
  const show = (event) => {
    const path = event.target.closest?.('path.dots');
    if (!path) return;
    const { strings, tokens, xScale } = drawnWith.get(g.node());
    const [x] = d3.pointer(event, path);
    const dots = d3.select(path).datum().dots;
    const dot = d3.least(dots, (d) => Math.abs(d.p * xScale - x));
    if (!dot) return;
    showTooltip(event, [
      `PE[${dot.p}, ${dot.c}] = ${formatValue(dot.v)}`,
      `${strings.pePosition} ${dot.p}: ${tokens[dot.p]}`,
    ]);
  };
  g.on('pointerover', show)
    .on('pointermove', show)
    .on('pointerout', (event) => {
      if (event.target.closest?.('path.dots')) hideTooltip();
    });
}

/**
 * Draws into the <g> `g`; returns the height used. A keystroke's redraw draws after its frame
 * (frames.js): the frame that shows the new token shows its row in the matrices first, and the
 * waves, stretched to one position more, follow a frame later, as the cells' numbers do. (Their
 * 8 waves, 8 paths of dots and the engine's values as data-* took ~1 ms a keystroke at 32 tokens.)
 * @param pe the trace's 'pe' step { rows: n, cols: d_model, data }
 * @param o { width, strings, tokens }
 */
export function drawPositional(g, pe, o) {
  const height = TOP + peDimensions(pe.cols).length * STRIP + 24;
  drawNowOrLater(g.node(), () => drawWaves(g, pe, o, height), typing());
  return height;
}

function drawWaves(g, pe, { width, strings, tokens }, height) {
  const n = pe.rows;
  const dModel = pe.cols;
  const dims = peDimensions(dModel);
  const plotWidth = Math.max(120, width - LEFT - 10);
  // Positions spread over the strip; one position still gets a little room.
  const last = Math.max(1, n - 1);
  const xScale = plotWidth / last;
  drawnWith.set(g.classed('pe-waves', true).node(), { strings, tokens, xScale });
  if (!listening.get(g.node())) {
    listening.set(g.node(), true);
    listen(g);
  }
  setTexts(
    g
      .selectAll('text.chart-title')
      .data([strings.peTitle])
      .join((enter) => enter.append('text').attr('class', 'chart-title').attr('y', 12)),
    (d) => d,
  );
  // At most MAX_DOTS dots a strip (every k-th position): 2,048 × 8 circles would be 16,384 nodes.
  // Every position up to 32 tokens.
  const every = Math.ceil(n / MAX_DOTS);
  const strips = g
    .selectAll('g.pe-strip')
    .data(dims, (c) => c)
    .join((enter) => {
      const s = enter.append('g').attr('class', 'pe-strip');
      s.append('line').attr('class', 'axis-line').attr('y1', 0).attr('y2', 0);
      s.append('text').attr('class', 'pe-label').attr('x', -8).attr('y', 4).attr('text-anchor', 'end');
      s.append('path').attr('class', 'wave').attr('fill', 'none');
      return s;
    });
  putAttrs(strips, {
    'data-dim': (c) => c,
    transform: (_, k) =>
      `translate(${LEFT},${TOP + k * STRIP + STRIP / 2 + (dims.length < dModel && k >= dims.length / 2 ? 6 : 0)})`,
  });
  putAttrs(strips.select('line.axis-line'), { x1: 0, x2: plotWidth });
  setTexts(strips.select('text.pe-label'), (c) => `${strings.peDimension(c)} ${c % 2 === 0 ? 'sin' : 'cos'}`);
  putAttrs(strips.select('path.wave'), {
    stroke: (c) => (c % 2 === 0 ? SIN : COS),
    d: (c) => wavePath(c, dModel, last, xScale),
  });
  // The engine's numbers on the waves (hover: listen above): one path of dots a strip, 8 nodes
  // where circles were 256 (each one laid out and painted again when a token moves them all).
  // Past MAX_SIDE tokens the page loads PE as block means (explorer/reduce.js, pe.pooled): no
  // position's own number to put on the wave, so no dots.
  const r = n > 64 ? 1.5 : 3;
  const positions = pe.pooled ? [] : d3.range(0, n, every);
  const dots = strips
    .selectAll('path.dots')
    .data((c) => [{ c, dots: positions.map((p) => ({ p, c, v: pe.data[p * dModel + c] })) }])
    .join('path');
  putAttrs(dots, {
    class: 'dots',
    fill: (d) => (d.c % 2 === 0 ? SIN : COS),
    d: (d) => dotsPath(d.dots, xScale, r),
    // For tests and tools: the positions drawn and the engine's values there, in order.
    'data-p': (d) => d.dots.map((dot) => dot.p).join(' '),
    'data-values': (d) => d.dots.map((dot) => dot.v).join(' '),
  });
  setTexts(
    g
      .selectAll('text.pe-axis')
      .data([`${strings.pePosition} 0 … ${n - 1}`])
      .join((enter) => enter.append('text').attr('class', 'pe-axis')),
    (d) => d,
  );
  put(g.select('text.pe-axis').node(), 'x', LEFT);
  put(g.select('text.pe-axis').node(), 'y', height - 6);
}
