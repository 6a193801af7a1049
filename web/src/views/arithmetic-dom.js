// The arithmetic panel's DOM pieces: text nodes only (nothing a user typed is ever parsed),
// every number shown with 4 significant digits and its exact float32 value in data-value.
import { formatValue } from '../format.js';

export function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A number as shown (4 significant digits), with its exact float32 value for tests and copying. */
export function num(tag, v, attrs = {}) {
  return el(tag, { ...attrs, 'data-value': v, title: String(Math.fround(v)) }, formatValue(v));
}

/** A table with a header column: rows [{ label, values, cls }], `mark` the column to highlight. */
export function table(rows, { mark = -1, cls = '' } = {}) {
  const t = el('table', { class: `arith-table ${cls}` });
  for (const row of rows) {
    const tr = el('tr', { class: row.cls ?? '' });
    tr.append(el('th', { scope: 'row' }, row.label));
    row.values.forEach((v, k) => {
      const cell = typeof v === 'number' ? num('td', v) : el('td', {}, v);
      if (k === mark) cell.classList.add('marked');
      tr.append(cell);
    });
    t.append(tr);
  }
  return el('div', { class: 'arith-scroll' }).appendChild(t).parentNode;
}

export function section(title, ...children) {
  const s = el('section', { class: 'arith-section' });
  s.append(el('h3', {}, title), ...children);
  return s;
}

export function line(...parts) {
  const p = el('p', { class: 'arith-line' });
  for (const part of parts) p.append(typeof part === 'string' ? document.createTextNode(part) : part);
  return p;
}
