// Figures and data out of the explorer: the current view as a standalone SVG (title, legend
// and labels included, styles inlined) or PNG, and every matrix of the trace as CSV or JSON.
import { runJobs } from '../frames.js';
import { color as parseColor } from 'd3';
import { HEAD_COLORS, HEAD_COLORS_DARK, headColor } from '../scales.js';
import {
  CSV_BOM,
  matricesOf,
  summaryOf,
  traceJSON as serializeJSON,
  traceLongCSV,
} from '../../../dist/engine/serialize.js';
import { pixelsDataURL } from '../views/pixels.js';
import { figureOf } from '../views/figures.js';
import { textWidth } from '../views/text.js';

/** `text` broken into lines of at most `width` px at `font` px (at spaces; a long word alone). */
function wrap(text, width, font) {
  const lines = [''];
  for (const word of text.split(' ')) {
    const line = lines.at(-1) ? `${lines.at(-1)} ${word}` : word;
    if (lines.at(-1) && textWidth(line, font) > width) lines.push(word);
    else lines[lines.length - 1] = line;
  }
  return lines;
}

// The rules an exported figure needs, with concrete colours (a file has no page CSS).
const FIGURE_CSS = `
text { font-family: system-ui, 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif; font-size: 12px; fill: #1d1d22; }
.matrix-title, .chart-title, .spread-title, .figure-title { font-weight: 600; }
.figure-title { font-size: 16px; }
.figure-subtitle { font-size: 12px; fill: #5f6170; }
.row-label { text-anchor: end; dominant-baseline: middle; }
.cell text, .cell-number { text-anchor: middle; dominant-baseline: central; }
.operator-text { font-size: 16px; font-weight: 600; fill: #5f6170; }
.side-title, .legend .tick, .legend-label { fill: #5f6170; font-size: 11px; }
.legend.column .tick, .legend.column .legend-label, .legend.column .hatch-key text { font-size: 13px; }
text.token { font-size: 15px; dominant-baseline: middle; }
text.token.focused { font-weight: 700; fill: #d55e00; }
.bar-value, .bar-label { text-anchor: middle; font-size: 11px; }
.bar-label.upright { text-anchor: end; dominant-baseline: central; }
.col-label.cjk, .bar-label.upright.cjk { writing-mode: vertical-rl; text-anchor: end; }
.bar-label.upright.cjk { text-anchor: start; }
.col-label { dominant-baseline: central; }
line.zero, .axis path, .axis line { stroke: #d9d9e0; }
.hatch-bg { fill: #eeeeee; } .hatch-line { stroke: #9a9a9a; stroke-width: 2; }
rect.sweep { display: none; }
image.pixels { image-rendering: pixelated; }
.cell.masked text, .cell-number.masked { fill: #333333 !important; }
${HEAD_COLORS.map((c, h) => `line.link[data-head="${h}"], line.link[data-head="${h + 8}"] { stroke: ${c}; }`).join('\n')}
`;

const SVG_NS = 'http://www.w3.org/2000/svg';

// A figure is drawn on white: marks the dark page coloured for its dark panels (head colours
// lightened for #1f2028, head 8 near-white) take their light-page colours.
const hex = (css) => parseColor(css)?.formatHex();
const LIGHT_OF = new Map(HEAD_COLORS_DARK.map((c, h) => [hex(c), HEAD_COLORS[h]]));
function lightColours(root) {
  for (const node of root.querySelectorAll('*')) {
    for (const name of ['fill', 'stroke']) {
      const light = LIGHT_OF.get(hex(node.getAttribute(name) ?? ''));
      if (light) node.setAttribute(name, light);
      const styled = node.style && LIGHT_OF.get(hex(node.style[name] || ''));
      if (styled) node.style[name] = styled;
    }
  }
}

function el(name, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * The part of `svg`'s drawing (its `width` × `height`) that holds what it draws, in its own
 * units: { x, y, width, height }. A view is as wide as its panel (1,240 px at 1280), its
 * drawing often a third of that: a PNG was 2,460 px wide with the figure in its left third.
 * The whole drawing where the svg is not laid out (nothing to measure).
 */
function drawnBox(svg, width, height) {
  const whole = { x: 0, y: 0, width, height };
  const rect = svg.getBoundingClientRect();
  const viewBox = svg.getAttribute('viewBox')?.split(' ').map(Number);
  if (!rect.width || !viewBox?.[2]) return whole;
  const k = viewBox[2] / rect.width; // the svg's units a pixel (a compact figure is scaled)
  let box = null;
  for (const child of svg.children) {
    if (child.tagName === 'defs' || child.tagName === 'style') continue;
    const r = child.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const [x0, y0, x1, y1] = [r.left - rect.left, r.top - rect.top, r.right - rect.left, r.bottom - rect.top].map(
      (v) => v * k,
    );
    box = box
      ? [Math.min(box[0], x0), Math.min(box[1], y0), Math.max(box[2], x1), Math.max(box[3], y1)]
      : [x0, y0, x1, y1];
  }
  if (!box) return whole;
  // A little room for antialiasing; never past the drawing (a canvas keeps room to spare below).
  const x = Math.max(0, Math.floor(box[0]) - 2);
  const y = Math.max(0, Math.floor(box[1]) - 2);
  const right = Math.min(width, Math.ceil(box[2]) + 2);
  const bottom = Math.min(height, Math.ceil(box[3]) + 2);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : whole;
}

/**
 * A standalone SVG string of `svg` (a view's <svg>) under a title, with a head legend when
 * `heads` is given. Text stays text: token labels are escaped by the serializer.
 */
export function figureSVG(svg, { title, subtitle, heads = [], headLabel = (h) => `head ${h + 1}` }) {
  // The numbers a keystroke left to after its frame belong in the figure (frames.js).
  runJobs();
  // A view sized by views/fit.js keeps room to spare in its viewBox: its drawing's own is data-view-box.
  const [, , drawnWidth, drawnHeight] = (
    svg.dataset.viewBox ??
    svg.getAttribute('viewBox') ??
    `0 0 ${svg.clientWidth} ${svg.clientHeight}`
  )
    .split(' ')
    .map(Number);
  // Cropped to what is drawn in it.
  const box = drawnBox(svg, drawnWidth, drawnHeight);
  const { width, height } = box;
  // The subtitle holds the whole sentence: wrapped to the figure's width, never cut off.
  // (and the title, on a narrow figure; bold is estimated a size larger).
  const titleLines = wrap(title, width, 18);
  const shift = (titleLines.length - 1) * 20;
  const subtitleLines = wrap(subtitle, width, 12);
  const legendHeight = heads.length ? 22 : 0;
  const legendY = shift + 50 + (subtitleLines.length - 1) * 15;
  const top = legendY - 2 + legendHeight;
  const out = el('svg', {
    xmlns: SVG_NS,
    width: width + 24,
    height: height + top + 12,
    viewBox: `0 0 ${width + 24} ${height + top + 12}`,
  });
  out.append(el('rect', { width: '100%', height: '100%', fill: '#ffffff' }));
  const defs = svg.getRootNode().querySelector('svg.defs defs');
  if (defs) out.append(defs.cloneNode(true));
  titleLines.forEach((line, k) => out.append(el('text', { class: 'figure-title', x: 12, y: 22 + k * 20 }, line)));
  subtitleLines.forEach((line, k) =>
    out.append(el('text', { class: 'figure-subtitle', x: 12, y: shift + 40 + k * 15 }, line)),
  );
  heads.forEach((h, k) => {
    out.append(el('rect', { x: 12 + k * 90, y: legendY, width: 22, height: 6, fill: headColor(h, false) }));
    out.append(el('text', { x: 40 + k * 90, y: legendY + 7, class: 'legend-label' }, headLabel(h)));
  });
  const body = el('g', { transform: `translate(${12 - box.x},${top - box.y})` });
  for (const child of svg.childNodes) body.append(child.cloneNode(true));
  // The keyboard's cursor and a picked cell's outline on a picture (views/matrix-image.js) are
  // the page's, not the figure's (nor is a picked SVG cell's outline, which is CSS).
  for (const cursor of body.querySelectorAll('rect.cursor, rect.picked-cell')) cursor.remove();
  // A picture with cells (views/matrix-image.js) becomes its cells as SVG rects, with their gaps,
  // sharp at any size; and a canvas that can say what it shows as SVG (the links' lines,
  // views/link-lines.js), that. Other canvases (views/pixels.js) become images: a file has none.
  const pictures = svg.querySelectorAll('rect.picture');
  body.querySelectorAll('rect.picture').forEach((copy, k) => copy.replaceWith(figureOf(pictures[k])));
  for (const image of body.querySelectorAll('svg.cells-image, path.cell-gaps')) image.remove();
  const live = svg.querySelectorAll('foreignObject');
  body.querySelectorAll('foreignObject').forEach((copy, k) => {
    const holder = live[k];
    const figure = figureOf(holder);
    if (figure) {
      copy.replaceWith(figure);
      return;
    }
    if (!holder.classList.contains('pixels')) return;
    const image = el('image', { class: 'pixels', preserveAspectRatio: 'none' });
    for (const name of ['x', 'y', 'width', 'height'])
      if (holder.hasAttribute(name)) image.setAttribute(name, holder.getAttribute(name));
    image.setAttribute('href', pixelsDataURL(holder) ?? '');
    copy.replaceWith(image);
  });
  lightColours(body);
  out.append(body);
  // Inline styles set through the CSSOM (cell text colours) survive cloning; interaction
  // attributes do not matter in a file.
  // The style sheet goes in as text: a <style> element made in the page would be refused by
  // its Content-Security-Policy (style-src 'self'), and a file needs its styles inside.
  return xmlSafe(new XMLSerializer().serializeToString(out)).replace('>', () => `><style>${FIGURE_CSS}</style>`);
}

// XML 1.0 allows neither C0 controls but tab and line breaks, nor U+FFFE/U+FFFF, nor a lone
// surrogate, not even as a character reference: a token holding one (a typed U+0007) made a
// file that no viewer opens. The serializer writes them as they are (or as references).
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|&#(?:x0*([0-8bcef]|1[0-9a-f])|0*([0-8]|1[1-24-9]|2[0-9]|3[01]));/gi;

/**
 * `text` (XML or HTML) with every character XML 1.0 forbids replaced by what shows it: a C0
 * control by its Unicode control picture (U+0007 → ␇), the rest by U+FFFD.
 */
export function xmlSafe(text) {
  return text.replace(NOT_XML, (match, hex, decimal) => {
    const code = hex !== undefined ? parseInt(hex, 16) : decimal !== undefined ? Number(decimal) : match.charCodeAt(0);
    return code < 0x20 ? String.fromCharCode(0x2400 + code) : '\uFFFD';
  });
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

// The same serializer as the command line's (cpp/bindings/js/serialize.js): one CSV guard
// against spreadsheet formulas, one JSON layout.
const matrices = (trace) => matricesOf(trace, (name) => trace.isPerHead(name));

/** Every step of the trace as JSON: the page's settings, sizes, labels and values (−∞ as null). */
export function traceJSON(trace, state) {
  const config = { ...state };
  delete config.playing;
  return [...serializeJSON({ config, ...summaryOf(trace) }, matrices(trace))].join('');
}

/**
 * Every step as one long table (step,head,row,row_label,col,col_label,value; see
 * docs/embedding.md): one table a spreadsheet can filter, where blocks of tables in one file
 * were not. The file starts with a UTF-8 BOM so that Excel keeps Chinese labels intact.
 */
export function traceCSV(trace) {
  return CSV_BOM + [...traceLongCSV(matrices(trace))].join('');
}
