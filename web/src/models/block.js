// The whole block of one layer, step by step: ln1, attention, residual add, ln2,
// the feed-forward network (hidden, GELU, output), residual add, each drawn with its real
// numbers (tokens × dimensions) and a sentence on what it is for. Each picture has its axes
// (tokens down, dimensions across) and its colour legend; the section ends with what to notice,
// the standing-out dimension measured on the numbers shown.
import * as d3 from 'd3';
import { signedScale, maxAbs } from '../scales.js';
import { BLOCK_STEPS } from './steps.js';
import { el, matrixImage, visible } from './paint.js';

const SHOWN_VALUES = 8; // the last token's first values, written out

const fmt = d3.format('.3~f');

/**
 * @param box the block's element (emptied)
 * @param view modelView's answer: { tokens, layer, block: { name: { rows, cols, data } } }
 */
export function drawBlock(box, view, { strings: s }) {
  const images = [...box.querySelectorAll('img')]; // drawn into again (paint.js)
  box.replaceChildren();
  const last = view.tokens.length - 1;
  for (const name of BLOCK_STEPS) {
    const step = view.block[name];
    if (!step) continue; // attention-only models have no feed-forward steps
    const [title, text] = s.blockSteps[name];
    const m = maxAbs(step.data);
    const figure = el('figure', 'block-step');
    figure.dataset.step = name;
    const caption = el('figcaption');
    caption.append(el('strong', null, title), el('code', 'block-shape', ` ${step.rows} × ${step.cols}`));
    const cell = Math.max(2, Math.min(6, Math.floor(192 / Math.max(step.cols, 1))));
    // Rows (tokens) at least as tall as a column is wide, and readable at a few tokens.
    const height = Math.max(cell, Math.min(8, Math.floor(96 / Math.max(step.rows, 1))));
    const color = signedScale(m);
    const image = matrixImage(step.data, step.rows, step.cols, color, cell, height, images.shift());
    const row = step.data.subarray(last * step.cols, last * step.cols + Math.min(SHOWN_VALUES, step.cols));
    const values = el('p', 'block-values');
    values.append(
      el('span', null, `${s.lastToken(visible(view.tokens[last]))}: `),
      el('code', null, `[${Array.from(row, fmt).join(', ')}${step.cols > SHOWN_VALUES ? ', …' : ''}]`),
      el('span', 'block-range', ` · ${s.range(fmt(d3.min(step.data)), fmt(d3.max(step.data)))}`),
    );
    figure.append(
      caption,
      plot(image, view.tokens, step.cols, s),
      legend(color, m),
      el('p', 'block-text', text),
      values,
    );
    box.append(figure);
  }
  box.append(takeaway(view, s));
}

// The picture between its axes: the first and last token down the left, dimensions 1 … d below.
function plot(image, tokens, cols, s) {
  const wrap = el('div', 'block-plot');
  const rows = el('div', 'block-axis-y');
  rows.append(el('span', null, visible(tokens[0])), el('span', null, '↓'), el('span', null, visible(tokens.at(-1))));
  rows.title = s.blockRows;
  const columns = el('div', 'block-axis-x');
  columns.append(el('span', null, '1'), el('span', null, `${s.blockColumns} →`), el('span', null, String(cols)));
  wrap.append(rows, image, el('span'), columns);
  return wrap;
}

// The signed colour scale: −m, 0, +m and the colours between (the picture's own m).
function legend(color, m) {
  const bar = el('div', 'block-legend');
  const stops = [-1, -0.5, 0, 0.5, 1].map((t) => color(t * m)).join(', ');
  const ramp = el('span', 'block-legend-ramp');
  ramp.style.background = `linear-gradient(to right, ${stops})`;
  bar.append(el('span', null, fmt(-m)), ramp, el('span', null, fmt(m)));
  return bar;
}

// What to notice, with the dimension that stands out in the last residual stream: the column
// with the largest |value|, named when it is at least STRIPE× the median column's largest.
const STRIPE = 4;
function takeaway(view, s) {
  const p = el('p', 'block-takeaway');
  const stream = view.block.residual2 ?? view.block.residual1;
  let stripe = null;
  if (stream) {
    const peaks = d3
      .range(stream.cols)
      .map((c) => d3.max(d3.range(stream.rows), (r) => Math.abs(stream.data[r * stream.cols + c])));
    const top = d3.maxIndex(peaks);
    if (peaks[top] >= STRIPE * d3.median(peaks)) stripe = { dimension: top + 1, value: fmt(peaks[top]) };
  }
  p.append(el('strong', null, `${s.blockNoticeTitle} `), el('span', null, s.blockNotice(stripe)));
  return p;
}
