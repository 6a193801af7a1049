// One tooltip for the whole page. Text only: nothing a user typed is ever parsed as HTML.

let element;

function ensure() {
  if (!element) {
    element = document.createElement('div');
    element.className = 'tooltip';
    element.setAttribute('role', 'tooltip');
    element.hidden = true;
    document.body.append(element);
  }
  return element;
}

/** Shows `lines` (strings) next to the pointer or, for keyboard focus, next to `target`. */
export function showTooltip(event, lines, target = event?.currentTarget) {
  const tip = ensure();
  tip.replaceChildren(
    ...lines.map((line) => {
      const div = document.createElement('div');
      div.textContent = line;
      return div;
    }),
  );
  tip.hidden = false;
  let x;
  let y;
  if (event && 'clientX' in event && event.clientX) {
    x = event.clientX;
    y = event.clientY;
  } else {
    const box = target.getBoundingClientRect();
    x = box.right;
    y = box.top;
  }
  const width = tip.offsetWidth;
  const left = Math.min(x + 14, window.innerWidth - width - 8);
  tip.style.left = `${Math.max(4, left) + window.scrollX}px`;
  tip.style.top = `${y + 14 + window.scrollY}px`;
}

export function hideTooltip() {
  if (element) element.hidden = true;
}
