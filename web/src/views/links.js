// The links view: queries on the left, keys on the right, one line per (query, key, head)
// whose width AND opacity are the attention weight. One colour per head (Okabe–Ito), all
// heads overlaid or one at a time. Hover a token to isolate its links, click to lock.
import * as d3 from 'd3';
import { formatExact, headColor } from '../scales.js';
import { hideTooltip, showTooltip } from '../tooltip.js';
import { duration } from '../motion.js';
import { pixels } from './pixels.js';
import { forget, putAttrs, setTexts } from './dom.js';

const MAX_WIDTH = 9;
// Below min a line is thinner than a hair: not drawn. Beyond max lines the view keeps the
// strongest ones: a long paste must not freeze the tab. (The engine's side selects them.)
export const LINK_LIMITS = { min: 0.004, max: 3000 };
// Past this many tokens a side, rows are closer than a line of text: the links become one
// image with every k-th token labelled, instead of thousands of lines and labels to hover.
const MAX_LINK_TOKENS = 96;
const IMAGE_HEIGHT = 760;
const MAX_LABELS = 40;

/**
 * @param svg d3 selection of an <svg>
 * @param trace the engine's trace (steps.weights per head)
 * @param o { head: 'all' | number, focus: { side: 'query'|'key', index } | null,
 *            pair: { head, i, j } | null, onFocus(focus|null, lock: bool), strings }
 */
export function drawLinks(svg, trace, o) {
  const n = trace.nQuery;
  const m = trace.nKey;
  if (Math.max(n, m) > MAX_LINK_TOKENS) return drawLinksImage(svg, trace, o);
  svg.selectAll('g.links-image').remove();
  const rowGap = Math.max(14, Math.min(34, 420 / Math.max(n, m)));
  const { xLeft, xRight, yOf, heads } = frame(svg, trace, o, rowGap);

  const offset = (h) =>
    heads.length > 1 ? (heads.indexOf(h) - (heads.length - 1) / 2) * Math.min(2.5, rowGap / (2 * heads.length)) : 0;
  const { total, links: found } = trace.links(heads, LINK_LIMITS);
  const links = Array.from(found.weight, (weight, r) => {
    const [h, i, j] = [found.h[r], found.i[r], found.j[r]];
    return { key: `${h}:${i}:${j}`, h, i, j, weight };
  });
  const visible = (d) => !o.focus || (o.focus.side === 'query' ? d.i === o.focus.index : d.j === o.focus.index);
  const isPair = (d) => o.pair && o.pair.head === d.h && o.pair.i === d.i && o.pair.j === d.j;
  const t = duration(500);

  // Many lines: no per-line transition and one listener on the group, or a keystroke at
  // 32 tokens × 2 heads would schedule 2,048 transitions and 4,096 listeners.
  const animate = t > 0 && links.length <= 400;
  const group = svg.selectAll('g.links').data([0]).join('g').attr('class', 'links');
  group
    .on('pointerover', (event) => {
      const d = d3.select(event.target).datum();
      if (!d?.key) return;
      showTooltip(event, [
        `${trace.tokens[d.i]} → ${trace.kvTokens[d.j]}`,
        `${o.strings.headN(d.h)}: A[${d.i}, ${d.j}] = ${formatExact(d.weight)}`,
      ]);
    })
    .on('pointerout', hideTooltip);
  const lines = group
    .selectAll('line')
    .data(links, (d) => d.key)
    .join(
      (enter) => enter.append('line').attr('stroke-width', 0).attr('stroke-opacity', 0),
      (update) => update,
      (exit) =>
        animate
          ? exit.transition().duration(t).attr('stroke-width', 0).attr('stroke-opacity', 0).remove()
          : exit.remove(),
    )
    .call(putAttrs, {
      class: (d) => (isPair(d) ? 'link pair' : 'link'),
      'data-head': (d) => d.h,
      'data-i': (d) => d.i,
      'data-j': (d) => d.j,
      'data-weight': (d) => d.weight,
      stroke: (d) => headColor(d.h),
      'stroke-linecap': 'round',
    });
  const geometry = {
    x1: xLeft,
    x2: xRight,
    y1: (d) => yOf(d.i) + offset(d.h),
    y2: (d) => yOf(d.j) + offset(d.h),
    'stroke-width': (d) => (isPair(d) ? 2 : 0) + Math.max(0.5, d.weight * MAX_WIDTH),
    'stroke-opacity': (d) => (visible(d) ? (isPair(d) ? 1 : Math.max(0.05, d.weight)) : 0.03),
  };
  if (animate) {
    const moving = forget(lines, Object.keys(geometry)).transition().duration(t);
    for (const [name, value] of Object.entries(geometry)) moving.attr(name, value);
  } else putAttrs(lines.interrupt(), geometry);

  const tokens = [
    ...trace.tokens.map((text, index) => ({ side: 'query', index, text })),
    ...trace.kvTokens.map((text, index) => ({ side: 'key', index, text })),
  ];
  const focused = (d) => o.focus && o.focus.side === d.side && o.focus.index === d.index;
  svg
    .selectAll('text.token')
    .data(tokens, (d) => `${d.side}:${d.index}`)
    .join('text')
    .call(putAttrs, {
      class: (d) => `token ${d.side}${focused(d) ? ' focused' : ''}${o.focus?.locked && focused(d) ? ' locked' : ''}`,
      x: (d) => (d.side === 'query' ? xLeft - 8 : xRight + 8),
      y: (d) => yOf(d.index),
      'text-anchor': (d) => (d.side === 'query' ? 'end' : 'start'),
      tabindex: 0,
      role: 'button',
      'aria-pressed': (d) => String(Boolean(o.focus?.locked && focused(d))),
      'aria-label': (d) => `${d.side === 'query' ? o.strings.query : o.strings.keys} ${d.index}: ${d.text}`,
    })
    .call(setTexts, (d) => d.text)
    .on('pointerenter focus', (event, d) => {
      if (!o.focus?.locked) o.onFocus({ side: d.side, index: d.index, locked: false });
    })
    .on('pointerleave blur', () => {
      if (!o.focus?.locked) o.onFocus(null);
    })
    .on('click', (event, d) => {
      const same = o.focus?.locked && focused(d);
      o.onFocus(same ? null : { side: d.side, index: d.index, locked: true });
    })
    .on('keydown', (event, d) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        event.stopPropagation();
        const same = o.focus?.locked && focused(d);
        o.onFocus(same ? null : { side: d.side, index: d.index, locked: true });
      }
    });
  return { shown: links.length, total };
}

/** The svg's size and the two side titles; the geometry both drawings share. */
function frame(svg, trace, o, rowGap) {
  const labelWidth = 110;
  const width = 520;
  const height = Math.max(trace.nQuery, trace.nKey) * rowGap + 40;
  const xLeft = labelWidth;
  const xRight = width - labelWidth;
  svg.attr('viewBox', `0 0 ${width} ${height}`).attr('height', height).attr('role', 'img');
  svg.attr('aria-label', `${o.strings['view.links']}: ${trace.nQuery} × ${trace.nKey}`);
  svg
    .selectAll('text.side-title')
    .data([o.strings.queries, o.strings.keys])
    .join('text')
    .attr('class', 'side-title')
    .attr('x', (_, k) => (k === 0 ? xLeft - 8 : xRight + 8))
    .attr('y', 12)
    .attr('text-anchor', (_, k) => (k === 0 ? 'end' : 'start'))
    .text((d) => d);
  const heads = o.head === 'all' ? d3.range(trace.heads) : [o.head];
  return { xLeft, xRight, height, heads, yOf: (index) => 30 + index * rowGap };
}

/** A long sentence: the strongest links drawn on a canvas, sparse labels, no per-token focus. */
function drawLinksImage(svg, trace, o) {
  const n = trace.nQuery;
  const m = trace.nKey;
  const rowGap = IMAGE_HEIGHT / Math.max(n, m);
  svg.selectAll('g.links, text.token').remove();
  const { xLeft, xRight, yOf, heads, height } = frame(svg, trace, o, rowGap);

  const { total, links } = trace.links(heads, LINK_LIMITS);
  const group = svg.selectAll('g.links-image').data([0]).join('g').attr('class', 'links-image');
  pixels(group, () => paintLinks(links, { width: xRight - xLeft, height, yOf }), links)
    .attr('x', xLeft)
    .attr('width', xRight - xLeft)
    .attr('height', height)
    .on('pointermove', (event) => {
      const [x, y] = d3.pointer(event);
      const query = x < (xLeft + xRight) / 2;
      const index = Math.max(0, Math.min((query ? n : m) - 1, Math.round((y - 30) / rowGap)));
      showTooltip(event, [
        `${query ? o.strings.query : o.strings.keys} ${index}: ${(query ? trace.tokens : trace.kvTokens)[index]}`,
      ]);
    })
    .on('pointerleave', hideTooltip);

  const every = Math.ceil(Math.max(n, m) / MAX_LABELS);
  const labels = [
    ...d3.range(0, n, every).map((index) => ({ side: 'query', index, text: trace.tokens[index] })),
    ...d3.range(0, m, every).map((index) => ({ side: 'key', index, text: trace.kvTokens[index] })),
  ];
  group
    .selectAll('text.sparse-token')
    .data(labels)
    .join('text')
    .attr('class', (d) => `sparse-token ${d.side}`)
    .attr('x', (d) => (d.side === 'query' ? xLeft - 8 : xRight + 8))
    .attr('y', (d) => yOf(d.index))
    .attr('text-anchor', (d) => (d.side === 'query' ? 'end' : 'start'))
    .attr('dominant-baseline', 'middle')
    .text((d) => `${d.index} ${d.text}`);
  return { shown: links.weight.length, total, every };
}

/** Head colours and what width means, as a small HTML legend. */
export function linksLegend(container, trace, o) {
  const heads = o.head === 'all' ? d3.range(trace.heads) : [o.head];
  d3.select(container)
    .selectAll('span.swatch')
    .data(heads, (h) => h)
    .join('span')
    .attr('class', 'swatch')
    .each(function swatch(h) {
      const mark = document.createElement('i');
      mark.style.background = headColor(h);
      this.replaceChildren(mark, document.createTextNode(o.strings.headN(h)));
    });
}

/** The links as lines on a canvas (weakest first, so the strongest are on top). */
function paintLinks(links, { width, height, yOf }) {
  const scale = Math.min(2, globalThis.devicePixelRatio || 1); // crisp on high-density screens
  const canvas = document.createElement('canvas');
  canvas.width = width * scale;
  canvas.height = height * scale;
  const context = canvas.getContext('2d');
  context.scale(scale, scale);
  context.lineCap = 'round';
  for (let r = links.weight.length - 1; r >= 0; r--) {
    const weight = links.weight[r];
    context.strokeStyle = headColor(links.h[r]);
    context.globalAlpha = Math.max(0.05, weight);
    context.lineWidth = Math.max(0.5, weight * MAX_WIDTH);
    context.beginPath();
    context.moveTo(0, yOf(links.i[r]));
    context.lineTo(width, yOf(links.j[r]));
    context.stroke();
  }
  return canvas;
}
