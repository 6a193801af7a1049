// A drawing's parts, made once and then kept: a keystroke redraw finds the same nodes and writes
// only what changed into them (dom.js put/setText), where a d3 join would rewrite every
// attribute and text and so make the browser restyle, lay out and repaint all of them.

import { nodeLocal } from '../node-local.js';

// Each parent's parts, Map of 'tag.cls' → node (a part is itself a parent of parts).
const partsOf = nodeLocal();
const SVG = 'http://www.w3.org/2000/svg';
const make = (parent, tag) => parent.ownerDocument.createElementNS(tag === 'svg' ? SVG : parent.namespaceURI, tag);

/** The one child `tag.cls` of `parent`, made the first time (made(node) sets it up then). */
export function part(parent, tag, cls, made) {
  const parts = partsOf.get(parent) ?? partsOf.set(parent, new Map());
  const key = `${tag}.${cls}`;
  let node = parts.get(key);
  if (node?.parentNode !== parent) {
    node = make(parent, tag);
    node.setAttribute('class', cls);
    made?.(node);
    parent.append(node);
    parts.set(key, node);
  }
  return node;
}

/** Removes the part `tag.cls` of `parent`, if there is one. */
export function dropPart(parent, tag, cls) {
  const key = `${tag}.${cls}`;
  partsOf.get(parent)?.get(key)?.remove();
  partsOf.get(parent)?.delete(key);
}

/**
 * The first `count` element children of `parent` (a layer that holds nothing else), all `tag`:
 * new ones appended (made(node, k) sets each up), extra ones removed from the end. Returns the
 * live `parent.children`: children stay in place, so node k shows item k from draw to draw.
 */
export function layer(parent, tag, count, made) {
  const kids = parent.children;
  while (kids.length > count) parent.lastElementChild.remove();
  for (let k = kids.length; k < count; k++) {
    const node = make(parent, tag);
    made?.(node, k);
    parent.append(node);
  }
  return kids;
}
