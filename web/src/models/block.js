// The whole block of one layer, step by step (issue 12 §3): ln1, attention, residual add, ln2,
// the feed-forward network (hidden, GELU, output), residual add, each drawn with its real
// numbers (tokens × dimensions) and a sentence on what it is for.
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
    const image = matrixImage(step.data, step.rows, step.cols, signedScale(m), cell, height, images.shift());
    const row = step.data.subarray(last * step.cols, last * step.cols + Math.min(SHOWN_VALUES, step.cols));
    const values = el('p', 'block-values');
    values.append(
      el('span', null, `${s.lastToken(visible(view.tokens[last]))}: `),
      el('code', null, `[${Array.from(row, fmt).join(', ')}${step.cols > SHOWN_VALUES ? ', …' : ''}]`),
      el('span', 'block-range', ` · ${s.range(fmt(d3.min(step.data)), fmt(d3.max(step.data)))}`),
    );
    figure.append(caption, image, el('p', 'block-text', text), values);
    box.append(figure);
  }
}
