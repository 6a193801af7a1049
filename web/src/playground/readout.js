// Reading one heatmap (heatmaps.js): the example's tokens beside its rows (queries) and above its
// columns (keys), and the weight of one cell under it. The cell is the one under the pointer, or
// the keyboard's: once the canvas has focus, the arrow keys move a cursor over the cells (Home
// and End go to the row's first and last key). The figure's markup, made by heatmaps.js:
//   figure > .pg-map > (span, .pg-cols, .pg-rows, .pg-plot > (canvas, .pg-cursor)), output.pg-readout
// The readout says "query → key: weight" with the weight of the snapshot drawn last, so it follows
// training live; it is emptied when the pointer leaves (or the focus, for the keyboard's cell).

import { visibleToken } from '../visible-token.js';

/** The cell each figure points at: { q, k, by: 'pointer' | 'keyboard' } (absent: none). */
const points = new WeakMap();

const visible = visibleToken;

/** The figure's cell, or undefined. */
export const pointAt = (figure) => points.get(figure);

/** Writes `tokens` (or none: a long sequence) as the row and column labels, `cell` px apart. */
export function labelAxes(figure, tokens, cell) {
  const cols = figure.querySelector('.pg-cols');
  const rows = figure.querySelector('.pg-rows');
  const key = tokens ? `${cell}:${tokens.join('\u0000')}` : '';
  if (cols.dataset.key === key) return;
  cols.dataset.key = key;
  const spans = () =>
    (tokens ?? []).map((token) => {
      const span = document.createElement('span');
      span.textContent = visible(token);
      // One symbol (a character-level token) stands upright above its column, as it reads in its row.
      if (Array.from(span.textContent).length === 1) span.className = 'pg-one';
      return span;
    });
  cols.replaceChildren(...spans());
  rows.replaceChildren(...spans());
  figure.style.setProperty('--cell', `${cell}px`);
  figure.classList.toggle('pg-labelled', Boolean(tokens));
}

/**
 * Shows cell `point` ({ q, k } or undefined) of the figure's head in `drawn` ({ snap, cell,
 * offset }): the readout's text, the cursor's box and the two labels marked.
 */
export function showCell(figure, point, { snap, cell, offset }) {
  const readout = figure.querySelector('.pg-readout');
  const cursor = figure.querySelector('.pg-cursor');
  const T = snap.length;
  const inside = point && point.q < T && point.k < T;
  figure.querySelectorAll('.pg-on').forEach((n) => n.classList.remove('pg-on'));
  cursor.hidden = !inside;
  if (!inside) {
    if (readout.textContent) readout.textContent = '';
    delete readout.dataset.weight;
    return;
  }
  const { q, k } = point;
  const weight = snap.weights[offset + q * T + k];
  const text = `${visible(snap.tokens[q])} → ${visible(snap.tokens[k])}: ${weight.toFixed(3)}`;
  if (readout.textContent !== text) readout.textContent = text;
  // The exact weight and its cell, for tests and the console.
  readout.dataset.weight = String(weight);
  readout.dataset.cell = `${q} ${k}`;
  Object.assign(cursor.style, { left: `${k * cell}px`, top: `${q * cell}px`, width: `${cell}px`, height: `${cell}px` });
  figure.querySelector('.pg-rows').children[q]?.classList.add('pg-on');
  figure.querySelector('.pg-cols').children[k]?.classList.add('pg-on');
}

/** Pointer and keyboard over the figure's canvas; `drawn()` gives { snap, cell, offset }. */
export function wireCells(figure, drawn) {
  const canvas = figure.querySelector('canvas');
  const point = (p) => {
    if (p) points.set(figure, p);
    else points.delete(figure);
    showCell(figure, p, drawn());
  };
  canvas.addEventListener('mousemove', (event) => {
    const { snap, cell } = drawn();
    const k = Math.floor(event.offsetX / cell);
    const q = Math.floor(event.offsetY / cell);
    if (q >= 0 && k >= 0 && q < snap.length && k < snap.length) point({ q, k, by: 'pointer' });
  });
  canvas.addEventListener('mouseleave', () => {
    if (points.get(figure)?.by === 'pointer') point(null);
  });
  canvas.addEventListener('focus', () => {
    if (!points.has(figure)) point({ q: 0, k: 0, by: 'keyboard' });
  });
  canvas.addEventListener('blur', () => {
    if (points.get(figure)?.by === 'keyboard') point(null);
  });
  const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  canvas.addEventListener('keydown', (event) => {
    const T = drawn().snap.length;
    const now = points.get(figure) ?? { q: 0, k: 0 };
    let { q, k } = now;
    if (MOVES[event.key]) {
      q += MOVES[event.key][0];
      k += MOVES[event.key][1];
    } else if (event.key === 'Home') k = 0;
    else if (event.key === 'End') k = T - 1;
    else return;
    event.preventDefault();
    point({ q: Math.max(0, Math.min(T - 1, q)), k: Math.max(0, Math.min(T - 1, k)), by: 'keyboard' });
  });
}
