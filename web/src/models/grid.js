// The model view (issue 12 §3, as BertViz's): a layers × heads grid of small heatmaps of the
// attention weights for the typed text. Under each head of a shipped model, its role measured
// on held-out text (issue 25 §4: the role, × chance, and its score on the typed text; hovering
// or focusing the head outlines, for each token, the key its role predicts); under a head of
// any other model, the label measured on the typed text. A click opens that layer and head in
// the ten-step explorer.
import { el, matrixImage, weightColor } from './paint.js';

const SVG = 'http://www.w3.org/2000/svg';

/** An SVG over a T × T heatmap outlining cell (i, j) for every key j of every query i. */
function keyOutlines(keys, t) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'model-cell-keys');
  svg.setAttribute('viewBox', `0 0 ${t} ${t}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('aria-hidden', 'true');
  keys.forEach((k, i) =>
    k.forEach((j) => {
      const rect = document.createElementNS(SVG, 'rect');
      for (const [name, value] of [
        ['x', j],
        ['y', i],
        ['width', 1],
        ['height', 1],
      ])
        rect.setAttribute(name, value);
      svg.append(rect);
    }),
  );
  return svg;
}

/** The texts under a head with a stored role: [name, how it compares with chance, on your text]. */
function roleTexts(s, stored, typed) {
  const role = stored.role;
  // The bundle checks the sidecars (build-scripts/role-sidecar.mjs); a role without words or
  // scores here is still shown as none rather than as a prototype's property or a throw.
  if (!role || !Object.hasOwn(s.role, role) || !stored.scores?.[role]) return [s.noRole, '', ''];
  const at = stored.scores[role];
  const ratio = role === 'broad' ? s.entropy(at.score) : s.timesChance(at.ratio);
  // undefined: a role the typed text cannot show (broad is no weight; part of speech needs tags).
  const here = typed?.[role];
  const onText = here ? s.onText(here.score) : here === null ? s.notOnText : role === 'broad' ? '' : s.noTags;
  return [s.role[role], ratio, onText];
}

/**
 * @param box the grid's element (emptied)
 * @param view modelView's answer: { tokens, weights: [layer][head] Float32Array T×T, labels, roles }
 * @param o { strings, layer, head, stored (storedRoles of the model, or null), onPick(layer, head) }
 */
export function drawGrid(box, view, { strings: s, layer, head, stored = null, onPick }) {
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
      const role = stored?.get(`${l}:${h}`);
      const button = el('button', 'model-cell');
      button.type = 'button';
      button.dataset.layer = String(l);
      button.dataset.head = String(h);
      button.dataset.label = label?.label ?? '';
      // The values painted, for a reader that checks them (tests compare them to the engine).
      button.weights = weights;
      const picked = l === layer && (head === 'all' || head === h);
      button.setAttribute('aria-pressed', String(picked));
      const map = el('span', 'model-cell-map');
      map.append(matrixImage(weights, t, t, weightColor, cell, cell, images.shift()));
      button.append(map, el('span', 'model-cell-caption', `${h + 1}`));
      if (role) {
        button.dataset.headRole = role.role ?? '';
        const [name, ratio, here] = roleTexts(s, role, view.roles?.scores[l]?.[h]);
        button.title = `${s.layerHead(l, h)}: ${[name, ratio, here].filter(Boolean).join(s.separator)}`;
        button.append(el('span', 'model-cell-label', name));
        if (ratio) button.append(el('span', 'model-cell-ratio', ratio));
        if (here) button.append(el('span', 'model-cell-here', here));
        const keys = role.role && view.roles?.keys[role.role];
        if (keys) map.append(keyOutlines(keys, t));
      } else {
        const name = label?.label ? s.label[label.label] : s.noLabel;
        const score = label?.label ? ` ${label.score.toFixed(2)}` : '';
        button.title = `${s.layerHead(l, h)}: ${name}${score}`;
        button.append(el('span', 'model-cell-label', `${name}${score}`));
      }
      button.setAttribute('aria-label', button.title);
      button.addEventListener('click', () => onPick(l, h));
      box.append(button);
    });
  });
}
