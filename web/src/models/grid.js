// The model view (as BertViz's): a layers × heads grid of small heatmaps of the
// attention weights for the typed text. Under each head of a shipped model, its role measured
// on held-out text (docs/models.md, "Head roles": the role, × chance, and its score on the typed
// text; hovering or focusing the head outlines, for each token, the key its role predicts); under a
// head of any other model, the label measured on the typed text. A click opens that layer and head
// in the ten-step explorer.
import { el, matrixImage, weightColor } from './paint.js';

const SVG = 'http://www.w3.org/2000/svg';

/** Per query, the union of several roles' keys (ascending). */
const mergeKeys = (lists) => lists[0].map((_, i) => [...new Set(lists.flatMap((k) => k[i]))].sort((a, b) => a - b));

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

/**
 * The texts of a head with stored roles: { name, ratio, here } under it, and `matched` (the
 * position-matched figures) for its title. Two roles within 10% of each other are both named.
 * `typed` is the head's score on the typed text per role (null: no keys there).
 */
export function roleTexts(s, stored, typed, prose) {
  const roles = stored.roles;
  if (!roles.length) return { name: s.noRole, ratio: '', here: '', matched: '' };
  const name = roles.map((r) => s.roleName(r, prose)).join(' / ');
  if (roles[0] === 'broad') return { name, ratio: s.entropy(stored.scores.broad.score), here: '', matched: '' };
  const at = roles.map((r) => stored.scores[r]);
  const ratio = s.timesChance(at.map((a) => a.ratio));
  const matched = roles
    .map((r, k) =>
      stored.positional.includes(r)
        ? s.positional(s.roleName(r, prose))
        : at[k].matchedRatio === undefined
          ? ''
          : s.timesMatched(at[k].matchedRatio),
    )
    .filter(Boolean)
    .join(s.separator);
  // undefined: a role the typed text cannot show (part of speech needs tags); null: no keys there.
  const parts = roles.map((r) => {
    const here = typed?.[r];
    return here ? here.score : here === null ? s.noKeys(r, prose) : s.noTags;
  });
  const here = s.onText(parts);
  return { name, ratio, here, matched };
}

/**
 * @param box the grid's element (emptied)
 * @param view modelView's answer: { tokens, weights: [layer][head] Float32Array T×T, labels, roles }
 * @param o { strings, layer, head, stored (storedRoles of the model, or null), prose (a model of
 *   prose: lines are sentences), onPick(layer, head) }
 */
export function drawGrid(box, view, { strings: s, layer, head, stored = null, prose = false, onPick }) {
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
      // One verdict per head: the stored role where the model has one, else the label measured
      // on the typed text (data-label only then).
      if (!role) button.dataset.label = label?.label ?? '';
      // The values painted, for a reader that checks them (tests compare them to the engine).
      button.weights = weights;
      const picked = l === layer && (head === 'all' || head === h);
      button.setAttribute('aria-pressed', String(picked));
      const map = el('span', 'model-cell-map');
      map.append(matrixImage(weights, t, t, weightColor, cell, cell, images.shift()));
      button.append(map, el('span', 'model-cell-caption', `${h + 1}`));
      if (role) {
        button.dataset.headRole = role.roles.join(' ');
        const texts = roleTexts(s, role, view.roles?.scores[l]?.[h], prose);
        button.dataset.matched = texts.matched;
        button.title = `${s.layerHead(l, h)}: ${[texts.name, texts.ratio, texts.matched, texts.here].filter(Boolean).join(s.separator)}`;
        button.append(el('span', 'model-cell-label', texts.name));
        if (texts.ratio) button.append(el('span', 'model-cell-ratio', texts.ratio));
        if (texts.here) button.append(el('span', 'model-cell-here', texts.here));
        // Every shown role's keys outlined (two roles within the margin: both).
        const keys = role.roles.map((r) => view.roles?.keys[r]).filter(Boolean);
        if (keys.length) map.append(keyOutlines(keys.length === 1 ? keys[0] : mergeKeys(keys), t));
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
