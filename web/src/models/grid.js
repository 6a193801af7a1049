// The model view (issue 12 §3, as BertViz's): a layers × heads grid of small heatmaps of the
// attention weights for the typed text, each with its head's measured label and score. A click
// opens that layer and head in the ten-step explorer.
import { el, matrixImage, weightColor } from './paint.js';

/**
 * @param box the grid's element (emptied)
 * @param view modelView's answer: { tokens, weights: [layer][head] Float32Array T×T, labels }
 * @param o { strings, layer, head, onPick(layer, head) }
 */
export function drawGrid(box, view, { strings: s, layer, head, onPick }) {
  const t = view.tokens.length;
  const heads = view.weights[0]?.length ?? 0;
  const cell = Math.max(2, Math.min(8, Math.floor(96 / Math.max(1, t))));
  const labelOf = new Map(view.labels.map((l) => [`${l.layer}:${l.head}`, l]));
  const images = [...box.querySelectorAll('img')]; // drawn into again (paint.js)
  box.replaceChildren();
  box.style.setProperty('--heads', heads);
  view.weights.forEach((layerWeights, l) => {
    box.append(el('span', 'model-grid-layer', s.layerN(l)));
    layerWeights.forEach((weights, h) => {
      const label = labelOf.get(`${l}:${h}`);
      const button = el('button', 'model-cell');
      button.type = 'button';
      button.dataset.layer = String(l);
      button.dataset.head = String(h);
      button.dataset.label = label?.label ?? '';
      // The values painted, for a reader that checks them (tests compare them to the engine).
      button.weights = weights;
      const picked = l === layer && (head === 'all' || head === h);
      button.setAttribute('aria-pressed', String(picked));
      const name = label?.label ? s.label[label.label] : s.noLabel;
      const score = label?.label ? ` ${label.score.toFixed(2)}` : '';
      button.title = `${s.layerHead(l, h)}: ${name}${score}`;
      button.setAttribute('aria-label', button.title);
      button.append(matrixImage(weights, t, t, weightColor, cell, cell, images.shift()));
      button.append(el('span', 'model-cell-caption', `${h + 1}`), el('span', 'model-cell-label', `${name}${score}`));
      button.addEventListener('click', () => onPick(l, h));
      box.append(button);
    });
  });
}
