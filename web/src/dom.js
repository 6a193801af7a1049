// Writing only what changed. A keystroke redraws every view (4,500 cells in the matrices view,
// 2,000 links at 32 tokens), and most of what it writes is what is there already: writing an
// attribute's same value still costs the browser style work, and setting textContent always
// makes a new text node to lay out. What was written is remembered on the node.
import { nodeLocal } from './node-local.js';

// What put() wrote on each node, { attribute: value }.
const writtenOn = nodeLocal();

/** node.setAttribute(name, value) unless this function last wrote that value there. */
export function put(node, name, value) {
  const written = writtenOn.get(node) ?? writtenOn.set(node, {});
  if (written[name] === value) return;
  written[name] = value;
  node.setAttribute(name, value);
}

/** Remembers that `node`'s attribute `name` holds what put() would write (a transition wrote it). */
export function remember(node, name) {
  (writtenOn.get(node) ?? writtenOn.set(node, {}))[name] = node.getAttribute(name);
}

/** Forgets what put() wrote for `name` on `node` (a transition or a handler writes it itself). */
export function forgetOne(node, name) {
  delete writtenOn.get(node)?.[name];
}

/** Forgets what put() wrote for `names` (a transition is about to write them itself). */
export function forget(selection, names) {
  return selection.each(function drop() {
    for (const name of names) delete writtenOn.get(this)?.[name];
  });
}

/** selection.attr() for each { name: value or (d, i) → value }, through put(). */
export function putAttrs(selection, attrs) {
  const entries = Object.entries(attrs);
  return selection.each(function write(d, i) {
    for (const [name, value] of entries) put(this, name, typeof value === 'function' ? value(d, i) : value);
  });
}

/**
 * selection.classed(name, on(d, i)), touching only elements whose class must change: classList.add
 * of a class the element has still rewrites its class attribute (a mutation, a style recalc).
 */
export function putClass(selection, name, on) {
  return selection.each(function toggle(d, i) {
    const want = Boolean(on(d, i));
    if (this.classList.contains(name) !== want) this.classList.toggle(name, want);
  });
}

/** node.textContent = text unless it is that already (a new text node is laid out anew). */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** selection.text(), writing only texts that differ. */
export function setTexts(selection, text) {
  return selection.each(function set(d, i) {
    const value = String(text(d, i));
    if (this.textContent !== value) this.textContent = value;
  });
}

const finders = new WeakMap(); // root → Map(role → element)

/**
 * `$(role)`: the element of `root` with data-role="role", remembered while it stays in the
 * document. A keystroke looks up some forty roles, and each querySelector walks the page's
 * ~2,500 elements (about 1 ms a keystroke in all).
 */
export function byRole(root) {
  if (!finders.has(root)) finders.set(root, new Map());
  const found = finders.get(root);
  return (role) => {
    let element = found.get(role);
    if (!element?.isConnected) {
      element = root.querySelector(`[data-role="${role}"]`);
      if (element) found.set(role, element);
    }
    return element;
  };
}

/** element[property] = value unless it is that already (a select's same value is still selected anew). */
export function setProperty(element, property, value) {
  if (element[property] !== value) element[property] = value;
}

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/**
 * The grid step [di, dj] of an arrow key's keydown, taken by the grid (the stepper's arrow keys
 * must not also change the step), or null for any other key.
 */
export function arrowStep(event) {
  const step = ARROWS[event.key];
  if (!step) return null;
  event.preventDefault();
  event.stopPropagation();
  return step;
}
