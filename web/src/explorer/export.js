// Figures and data out of the explorer: the current view as a standalone SVG (title, legend
// and labels included, styles inlined) or PNG, and every matrix of the trace as CSV or JSON.
import { headColor } from '../scales.js';
import { pixelsDataURL } from '../views/pixels.js';

// The rules an exported figure needs, with concrete colours (a file has no page CSS).
const FIGURE_CSS = `
text { font-family: system-ui, 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif; font-size: 12px; fill: #1d1d22; }
.matrix-title, .chart-title, .spread-title, .figure-title { font-weight: 600; }
.figure-title { font-size: 16px; }
.figure-subtitle { font-size: 12px; fill: #5f6170; }
.row-label { text-anchor: end; dominant-baseline: middle; }
.cell text { text-anchor: middle; dominant-baseline: central; }
.operator-text { font-size: 16px; font-weight: 600; fill: #5f6170; }
.side-title, .legend .tick, .legend-label { fill: #5f6170; font-size: 11px; }
text.token { font-size: 15px; dominant-baseline: middle; }
text.token.focused { font-weight: 700; fill: #d55e00; }
.bar-value, .bar-label { text-anchor: middle; font-size: 11px; }
line.zero, .axis path, .axis line { stroke: #d9d9e0; }
.hatch-bg { fill: #eeeeee; } .hatch-line { stroke: #9a9a9a; stroke-width: 2; }
rect.sweep { display: none; }
image.pixels { image-rendering: pixelated; }
`;

const SVG_NS = 'http://www.w3.org/2000/svg';

function el(name, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A standalone SVG string of `svg` (a view's <svg>) under a title, with a head legend when
 * `heads` is given. Text stays text: token labels are escaped by the serializer.
 */
export function figureSVG(svg, { title, subtitle, heads = [], headLabel = (h) => `head ${h + 1}` }) {
  const [, , width, height] = (svg.getAttribute('viewBox') ?? `0 0 ${svg.clientWidth} ${svg.clientHeight}`)
    .split(' ')
    .map(Number);
  const legendHeight = heads.length ? 22 : 0;
  const top = 48 + legendHeight;
  const out = el('svg', {
    xmlns: SVG_NS,
    width: width + 24,
    height: height + top + 12,
    viewBox: `0 0 ${width + 24} ${height + top + 12}`,
  });
  out.append(el('rect', { width: '100%', height: '100%', fill: '#ffffff' }));
  const defs = svg.getRootNode().querySelector('svg.defs defs');
  if (defs) out.append(defs.cloneNode(true));
  out.append(el('text', { class: 'figure-title', x: 12, y: 22 }, title));
  out.append(el('text', { class: 'figure-subtitle', x: 12, y: 40 }, subtitle));
  heads.forEach((h, k) => {
    out.append(el('rect', { x: 12 + k * 90, y: 50, width: 22, height: 6, fill: headColor(h) }));
    out.append(el('text', { x: 40 + k * 90, y: 57, class: 'legend-label' }, headLabel(h)));
  });
  const body = el('g', { transform: `translate(12,${top})` });
  for (const child of svg.childNodes) body.append(child.cloneNode(true));
  // Canvases (views/pixels.js) become images: a file has no canvas.
  const copies = body.querySelectorAll('foreignObject.pixels');
  svg.querySelectorAll('foreignObject.pixels').forEach((holder, k) => {
    const image = el('image', { class: 'pixels', preserveAspectRatio: 'none' });
    for (const name of ['x', 'y', 'width', 'height'])
      if (holder.hasAttribute(name)) image.setAttribute(name, holder.getAttribute(name));
    image.setAttribute('href', pixelsDataURL(holder) ?? '');
    copies[k].replaceWith(image);
  });
  out.append(body);
  // Inline styles set through the CSSOM (cell text colours) survive cloning; interaction
  // attributes do not matter in a file.
  // The style sheet goes in as text: a <style> element made in the page would be refused by
  // its Content-Security-Policy (style-src 'self'), and a file needs its styles inside.
  return new XMLSerializer().serializeToString(out).replace('>', () => `><style>${FIGURE_CSS}</style>`);
}

export async function svgToPNG(svgText, scale = 2) {
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(image.width * scale);
    canvas.height = Math.ceil(image.height * scale);
    const context = canvas.getContext('2d');
    context.scale(scale, scale);
    context.drawImage(image, 0, 0);
    return await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** A step: one matrix, or one per head. */
function allOf(trace, name) {
  return trace.isPerHead(name) ? Array.from({ length: trace.heads }, (_, h) => trace.step(name, h)) : trace.step(name);
}

/** Every step of the trace as JSON: shapes, labels and values (−∞ as null). */
export function traceJSON(trace, state) {
  const steps = {};
  for (const name of trace.stepNames) {
    const s = allOf(trace, name);
    const plain = (m) => ({
      head: m.head,
      shape: [m.rows, m.cols],
      rowLabels: m.rowLabels,
      colLabels: m.colLabels,
      data: Array.from(m.data, (v) => (Number.isFinite(v) ? v : null)),
    });
    steps[name] = Array.isArray(s) ? s.map(plain) : plain(s);
  }
  const config = { ...state };
  delete config.playing;
  return JSON.stringify(
    { config, tokens: trace.tokens, parameterCount: trace.parameterCount, flops: trace.flops, steps },
    null,
    1,
  );
}

function csvField(value) {
  if (typeof value === 'number') return String(value);
  // A token such as "=1+1" must stay text in a spreadsheet: prefix it with an apostrophe.
  const text = /^[=+\-@\t\r]/.test(String(value)) ? `'${value}` : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Every step as CSV blocks: a header line "step,head,rows,cols", then labelled rows. */
export function traceCSV(trace) {
  const lines = [];
  for (const name of trace.stepNames) {
    const s = allOf(trace, name);
    for (const m of Array.isArray(s) ? s : [s]) {
      lines.push(['# step', name, 'head', m.head ?? '', 'shape', `${m.rows}x${m.cols}`].map(csvField).join(','));
      lines.push(['', ...m.colLabels].map(csvField).join(','));
      for (let i = 0; i < m.rows; i++) {
        const row = Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols), (v) => (Number.isFinite(v) ? v : '-inf'));
        lines.push([m.rowLabels[i], ...row].map(csvField).join(','));
      }
      lines.push('');
    }
  }
  return lines.join('\n');
}

export function download(name, content, type) {
  const blob = content instanceof Blob ? content : new Blob([content], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
