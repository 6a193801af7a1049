// Every layer's and head's attention weights of one sequence, as a grid of small heatmaps: one
// <canvas> per head (T × T cells; canvas, not SVG, because they redraw ten times a second
// while training), rows = layers. Each canvas carries an aria-label with the head's strongest
// link per query; hovering a cell shows its weight in `title`.
//   drawHeatmaps(container, snapshot, label)   snapshot: { tokens, layers, heads, length: T,
//                                                          weights: Float32Array [L × H × T × T] }
import { weightScale } from '../scales.js';

const CELL_MAX = 18;
const SIZE = 148;
const color = weightScale();
// The colour of each weight in 1/256 steps, computed once: 10 redraws/s of thousands of cells.
const LUT = Array.from({ length: 257 }, (_, i) => color(i / 256));

/** The snapshot each container shows, for its hover texts. */
const shown = new WeakMap();

/** Per query: the key of its largest weight (for text alternatives and tests). */
export function strongestKeys(weights, offset, T) {
  return Array.from({ length: T }, (_, q) => {
    let best = 0;
    for (let k = 1; k < T; k++) if (weights[offset + q * T + k] > weights[offset + q * T + best]) best = k;
    return best;
  });
}

export function drawHeatmaps(container, snap, label) {
  const { layers, heads, length: T, weights, tokens } = snap;
  const key = `${layers}x${heads}x${T}`;
  if (container.dataset.shape !== key) {
    container.dataset.shape = key;
    container.replaceChildren();
    container.style.setProperty('--heads', heads);
    for (let l = 0; l < layers; l++) {
      for (let h = 0; h < heads; h++) {
        const figure = document.createElement('figure');
        const canvas = document.createElement('canvas');
        canvas.setAttribute('role', 'img');
        canvas.dataset.layer = l;
        canvas.dataset.head = h;
        // Hovering a cell names its query, key and weight (read from the newest snapshot drawn).
        canvas.addEventListener('mousemove', (event) => {
          const { snap: current, cell: size } = shown.get(container);
          const T2 = current.length;
          const k = Math.floor(event.offsetX / size);
          const q = Math.floor(event.offsetY / size);
          if (q < 0 || k < 0 || q >= T2 || k >= T2) return;
          const w = current.weights[((l * current.heads + h) * T2 + q) * T2 + k];
          canvas.title = `${current.tokens[q]} → ${current.tokens[k]}: ${w.toFixed(3)}`;
        });
        const caption = document.createElement('figcaption');
        figure.append(canvas, caption);
        container.append(figure);
      }
    }
  }
  const cell = Math.max(2, Math.min(CELL_MAX, Math.floor(SIZE / T)));
  shown.set(container, { snap, cell });
  const ratio = globalThis.devicePixelRatio || 1;
  container.querySelectorAll('figure').forEach((figure) => {
    const canvas = figure.firstChild;
    const l = Number(canvas.dataset.layer);
    const h = Number(canvas.dataset.head);
    const offset = (l * heads + h) * T * T;
    const px = cell * T;
    if (canvas.width !== Math.round(px * ratio)) {
      canvas.width = Math.round(px * ratio);
      canvas.height = Math.round(px * ratio);
      canvas.style.width = `${px}px`;
      canvas.style.height = `${px}px`;
    }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    for (let q = 0; q < T; q++) {
      for (let k = 0; k < T; k++) {
        const w = weights[offset + q * T + k];
        ctx.fillStyle = LUT[Math.max(0, Math.min(256, Math.round(w * 256)))];
        ctx.fillRect(k * cell, q * cell, cell, cell);
      }
    }
    const strongest = strongestKeys(weights, offset, T);
    const title = label(l, h);
    if (figure.lastChild.textContent !== title) figure.lastChild.textContent = title;
    canvas.dataset.strongest = strongest.join(' ');
    const text = `${title}: ${tokens.map((t, q) => `${t}→${tokens[strongest[q]]}`).join(', ')}`;
    if (canvas.getAttribute('aria-label') !== text) canvas.setAttribute('aria-label', text);
  });
}
