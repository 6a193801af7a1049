// KaTeX into an element, again only when its TeX changed, and without a new render when only
// digits changed: typing a token turns the shapes line's [32 × 8] into [33 × 8], and KaTeX's DOM
// for the two is the same but for those digits (its digits are all as wide and as tall), so they
// are written into the text nodes that show them. A render builds ~60 nodes that the browser
// styles and lays out again; a digit is one text node's data.
import katex from 'katex';
import { nodeLocal } from '../node-local.js';

// An element's rendered digits, { nodes, order } (node-local.js): a TeX of the same skeleton
// rewrites only them; null when KaTeX's digits did not come out in the TeX's order.
const digitsOf = nodeLocal();

const OPTIONS = {
  throwOnError: false,
  strict: false,
  output: 'html',
  // Only \htmlClass is trusted: it marks the terms that each step highlights.
  trust: (context) => context.command === '\\htmlClass',
};

const DIGITS = /\d/g;
const skeleton = (tex) => tex.replace(DIGITS, '#');

/**
 * Where KaTeX draws the TeX's digits: DOM digit k is TeX digit order[k] (a fraction draws its
 * denominator first). Found by rendering to markup, only read, never parsed, a probe whose
 * k-th digit is k as two digits; null when that does not come out as one pair per digit.
 */
function digitOrder(tex, displayMode) {
  let count = 0;
  const probe = tex.replace(DIGITS, () => String(count++).padStart(2, '0'));
  if (count > 100) return null;
  const text = katex.renderToString(probe, { ...OPTIONS, displayMode }).replace(/<[^>]*>/g, '');
  const pairs = (text.match(DIGITS) ?? []).join('').match(/\d\d/g) ?? [];
  const order = pairs.map(Number);
  const seen = new Set(order);
  return order.length === count && seen.size === count && order.every((k) => k < count) ? order : null;
}

/** The text nodes under `element` that hold digits, in document order. */
function digitNodes(element) {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const nodes = [];
  while (walker.nextNode()) if (/\d/.test(walker.currentNode.data)) nodes.push(walker.currentNode);
  return nodes;
}

/** Writes TeX digits `digits` into the nodes, in `order`. */
function writeDigits({ nodes, order }, digits) {
  let k = 0;
  for (const node of nodes) {
    const data = node.data.replace(DIGITS, () => digits[order[k++]]);
    if (node.data !== data) node.data = data;
  }
}

/** Renders `tex` into `element` unless it shows it already; true when KaTeX rendered. */
export function renderTex(element, tex, displayMode) {
  const shown = element.dataset.tex;
  if (shown === tex) return false;
  const digits = tex.match(DIGITS) ?? [];
  if (digitsOf.get(element) && shown !== undefined && skeleton(shown) === skeleton(tex)) {
    writeDigits(digitsOf.get(element), digits);
    element.dataset.tex = tex;
    return false;
  }
  katex.render(tex, element, { ...OPTIONS, displayMode });
  element.dataset.tex = tex;
  // Kept only when the rendered digits are the TeX's in the order found.
  const order = digits.length ? digitOrder(tex, displayMode) : null;
  const nodes = order ? digitNodes(element) : [];
  const drawn = nodes.map((node) => node.data.match(DIGITS).join('')).join('');
  digitsOf.set(element, order && drawn === order.map((k) => digits[k]).join('') ? { nodes, order } : null);
  return true;
}
