/** Sets a text only when it changes: ten redraws a second must not re-lay out the same words. */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}
