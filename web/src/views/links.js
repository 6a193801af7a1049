// The links view: queries on the left, keys on the right, one line per (query, key, head)
// whose width AND opacity are the attention weight. One colour per head (Okabe–Ito), all
// heads overlaid or one at a time. Hover a token to isolate its links, click to lock.
import * as d3 from 'd3';
import { headColor } from '../scales.js';
import { formatValue } from '../format.js';
import { hideTooltip, showTooltip } from '../tooltip.js';
import { duration } from '../motion.js';
import { pixels } from './pixels.js';
import { fitText, textWidth } from './text.js';
import { putAttrs, setText, setTexts } from '../dom.js';
import { fitSvg } from './fit.js';
import { lineAt, linkLinesOf, paintLines, strokeLines } from './link-lines.js';
import { sayWhatItShows, viewNote } from './view-note.js';
import { linksRequest } from '../requests.js';
import { stepMaking } from './heatmap.js';
import { isLinear } from '../steps.js';
import { nodeLocal } from '../node-local.js';

// Linear attention: which weights the links draw, softmax's or the implied ones (a toggle of
// the view's own, kept on its group: both are loaded, so switching needs nothing new).
const kindShown = nodeLocal();
// The context the view was last drawn with: the toggle draws it again with the other weights.
const lastContext = nodeLocal();

const MAX_WIDTH = 9;
// A line's width and opacity are its weight (a hairline and a trace of colour at the least).
const thickness = (weight) => Math.max(0.5, weight * MAX_WIDTH);
const strength = (weight) => Math.max(0.05, weight);
// Below min a line is thinner than a hair: not drawn. Beyond max lines the view keeps the
// strongest ones: a long paste must not freeze the tab. (The engine's side selects them.)
export const LINK_LIMITS = { min: 0.004, max: 3000 };
// Past this many tokens a side, rows are closer than a line of text: the links become one
// image with every k-th token labelled, instead of thousands of lines and labels to hover.
const MAX_LINK_TOKENS = 96;
const IMAGE_HEIGHT = 760;
const MAX_LABELS = 40;
// Token labels: 15 px, rows at least this far apart so that two never touch.
const TOKEN_FONT = 15;
const MIN_ROW_GAP = 19;

/**
 * @param svg d3 selection of an <svg>
 * @param trace the engine's trace (steps.weights per head)
 * @param o { head: 'all' | number, focus: { side: 'query'|'key', index } | null,
 *            pair: { head, i, j } | null, onFocus(focus|null, lock: bool), strings,
 *            width: px the svg is drawn at (its viewBox is as wide: labels keep their size) }
 */
function drawLinks(svg, trace, o) {
  const n = trace.nQuery;
  const m = trace.nKey;
  if (Math.max(n, m) > MAX_LINK_TOKENS) return drawLinksImage(svg, trace, o);
  svg.selectAll('g.links-image').remove();
  const rowGap = Math.max(MIN_ROW_GAP, Math.min(34, 420 / Math.max(n, m)));
  const { xLeft, xRight, yOf, heads, height, labelRoom } = frame(svg, trace, o, rowGap);

  const offset = (h) =>
    heads.length > 1 ? (heads.indexOf(h) - (heads.length - 1) / 2) * Math.min(2.5, rowGap / (2 * heads.length)) : 0;
  const { total, links: found } = trace.links(heads, LINK_LIMITS, o.name);
  const visible = (i, j) => !o.focus || (o.focus.side === 'query' ? i === o.focus.index : j === o.focus.index);
  const isPair = (h, i, j) => o.pair && o.pair.head === h && o.pair.i === i && o.pair.j === j;
  const colors = new Map(heads.map((h) => [h, headColor(h)]));
  const lines = Array.from(found.weight, (weight, r) => {
    const [h, i, j] = [found.h[r], found.i[r], found.j[r]];
    const pair = isPair(h, i, j);
    return {
      h,
      i,
      j,
      weight,
      pair,
      color: pair ? focusColor(svg.node()) : colors.get(h),
      y1: yOf(i) + offset(h),
      y2: yOf(j) + offset(h),
      width: (pair ? 2 : 0) + thickness(weight),
      opacity: visible(i, j) ? (pair ? 1 : strength(weight)) : 0.03,
    };
  });
  // Gliding many lines costs more than it shows (a keystroke draws without motion anyway).
  const t = lines.length <= 400 ? duration(500) : 0;
  // A figure is scaled up by its frame (explorer/compact-fit.js, up to 4×): its lines as sharp.
  paintLines(svg, lines, { left: xLeft, right: xRight, height, duration: t, sharpness: o.figure ? 4 : null })
    .on('pointermove', (event) => {
      const [x, y] = d3.pointer(event, svg.node());
      const d = lineAt(linkLinesOf(event.currentTarget), x, y);
      if (!d) return hideTooltip();
      showTooltip(event, [
        `${trace.tokens[d.i]} → ${trace.kvTokens[d.j]}`,
        `${o.strings.headN(d.h)}: A[${d.i}, ${d.j}] = ${formatValue(d.weight)}`,
      ]);
    })
    .on('pointerleave', hideTooltip);

  const tokens = [
    ...trace.tokens.map((text, index) => ({ side: 'query', index, text })),
    ...trace.kvTokens.map((text, index) => ({ side: 'key', index, text })),
  ];
  const focused = (d) => o.focus && o.focus.side === d.side && o.focus.index === d.index;
  svg.node().linksOptions = o;
  svg
    .selectAll('text.token')
    .data(tokens, (d) => `${d.side}:${d.index}`)
    .join((enter) => enter.append('text').call(listen))
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
    .call(setTexts, (d) => fitText(d.text, labelRoom, TOKEN_FONT));
  return { shown: lines.length, total };
}

/**
 * A token label's listeners, bound once when the label is made (rebinding six on each of 64
 * labels took a part of every keystroke): they read the latest draw's options from the svg.
 */
function listen(labels) {
  const options = (label) => label.ownerSVGElement.linksOptions;
  const toggle = (o, d) => {
    const same = o.focus?.locked && o.focus.side === d.side && o.focus.index === d.index;
    o.onFocus(same ? null : { side: d.side, index: d.index, locked: true });
  };
  labels
    .on('pointerenter focus', function enter(event, d) {
      const o = options(this);
      if (!o.focus?.locked) o.onFocus({ side: d.side, index: d.index, locked: false });
    })
    .on('pointerleave blur', function leave() {
      const o = options(this);
      if (!o.focus?.locked) o.onFocus(null);
    })
    .on('click', function click(event, d) {
      toggle(options(this), d);
    })
    .on('keydown', function key(event, d) {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        event.stopPropagation();
        toggle(options(this), d);
      }
    });
}

/** The page's focus colour (a locked pair's line), read once: a canvas has no CSS. */
function focusColor(node) {
  focusColor.value ??= getComputedStyle(node).getPropertyValue('--focus').trim() || '#d55e00';
  return focusColor.value;
}

/** The svg's size and the two side titles; the geometry both drawings share. */
function frame(svg, trace, o, rowGap) {
  // (A figure's last row is its bottom: the page's 40 px below the first row's 30 are room for
  // nothing a figure shows.)
  const height = Math.max(trace.nQuery, trace.nKey) * rowGap + (o.figure ? Math.max(14, 44 - rowGap) : 40);
  // A figure (o.figure: its frame's size) takes the shape of its frame less the caption (about
  // 30 px), with its legend (about 35 px) above it, and its labels only the room they take, so
  // that it fills both ways: at 620 px, five tokens were a strip across a 16:9 slide.
  const shaped = o.figure ? ((height + 35) * o.figure.width) / Math.max(1, o.figure.height - 30) : null;
  const width = Math.max(280, Math.min(shaped ?? 620, o.width ?? 520));
  // (At the labels' own size: measured at 13 px, a figure cut "because" to "becau…".)
  const longest = (tokens) => Math.max(0, ...tokens.map((t) => textWidth(t, TOKEN_FONT)));
  const labelWidth = Math.round(
    Math.min(170, width * 0.28, o.figure ? 20 + Math.max(longest(trace.tokens), longest(trace.kvTokens ?? [])) : 170),
  );
  const xLeft = labelWidth;
  const xRight = width - labelWidth;
  // With room to spare (fit.js): a keystroke's new row lays out none of the labels again.
  fitSvg(svg.node(), width, height, { boxClass: 'links-fit' });
  // The box shows the drawing at its own size (the CSS's 620 px is the page's widest): a
  // figure's is scaled as a whole by its frame (explorer/compact-fit.js).
  const box = svg.node().parentNode;
  const most = o.figure ? `${width}px` : '';
  if (box.style.maxWidth !== most) box.style.maxWidth = most;
  putAttrs(svg, {
    role: 'img',
    'aria-label': `${o.strings['view.links']}: ${trace.nQuery} × ${trace.nKey}`,
  });
  svg
    .selectAll('text.side-title')
    .data([o.strings.queries, o.strings.keys])
    .join('text')
    .call(putAttrs, {
      class: 'side-title',
      x: (_, k) => (k === 0 ? xLeft - 8 : xRight + 8),
      y: 12,
      'text-anchor': (_, k) => (k === 0 ? 'end' : 'start'),
    })
    .call(setTexts, (d) => d);
  const heads = o.head === 'all' ? d3.range(trace.heads) : [o.head];
  return { xLeft, xRight, height, heads, labelRoom: labelWidth - 12, yOf: (index) => 30 + index * rowGap };
}

/** A long sentence: the strongest links drawn on a canvas, sparse labels, no per-token focus. */
function drawLinksImage(svg, trace, o) {
  const n = trace.nQuery;
  const m = trace.nKey;
  const rowGap = IMAGE_HEIGHT / Math.max(n, m);
  svg.selectAll('foreignObject.link-lines, text.token').remove();
  const { xLeft, xRight, yOf, heads, height, labelRoom } = frame(svg, trace, o, rowGap);

  const { total, links } = trace.links(heads, LINK_LIMITS, o.name);
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
    .text((d) => fitText(`${d.index} ${d.text}`, labelRoom, 12));
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
      // Only when it changes: new nodes are laid out again, on every keystroke.
      const name = o.strings.headN(h);
      const color = headColor(h);
      if (this.dataset.color === color && this.textContent === name) return;
      this.dataset.color = color;
      const mark = document.createElement('i');
      mark.style.background = color;
      this.replaceChildren(mark, document.createTextNode(name));
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
  const lines = Array.from(links.weight, (weight, r) => ({
    color: headColor(links.h[r]),
    opacity: strength(weight),
    width: thickness(weight),
    y1: yOf(links.i[r]),
    y2: yOf(links.j[r]),
  })).reverse();
  strokeLines(context, lines, width);
  return canvas;
}

/** The links view, drawn from the registry's one context argument (views/registry.js). */
/** The weights the links draw for a state: softmax's, or with linear attention the toggle's choice. */
export function linksKind(state, toggle) {
  return isLinear(state) ? (kindShown.get(toggle) ?? 'linearWeights') : 'weights';
}

/** The softmax | linear toggle over the links (linear attention only). */
function drawKindToggle(toggle, ctx) {
  const { state, strings } = ctx;
  toggle.hidden = !isLinear(state);
  if (toggle.hidden) return;
  toggle.setAttribute('aria-label', strings.linksKind);
  const shown = linksKind(state, toggle);
  setText(toggle.querySelector('span') ?? toggle.appendChild(document.createElement('span')), `${strings.linksKind}: `);
  d3.select(toggle)
    .selectAll('button')
    .data(['weights', 'linearWeights'])
    .join((enter) =>
      enter
        .append('button')
        .attr('type', 'button')
        .attr('data-kind', (d) => d)
        .on('click', (event, d) => {
          kindShown.set(toggle, d);
          drawLinksView(lastContext.get(toggle));
        }),
    )
    .attr('aria-pressed', (d) => String(d === shown))
    .each(function label(d) {
      setText(this, d === 'weights' ? strings.softmaxKind : strings.linearKind);
    });
}

export function drawLinksView(ctx) {
  const { trace, state, strings, el, set, width, figure } = ctx;
  sayWhatItShows(el('links-shows'), ctx, { step: stepMaking('weights') });
  linksLegend(el('links-legend'), trace, { head: state.head, strings });
  const toggle = el('links-kind');
  lastContext.set(toggle, ctx);
  drawKindToggle(toggle, ctx);
  const { shown, total, every } = drawLinks(d3.select(el('links')), trace, {
    name: linksKind(state, toggle),
    head: state.head,
    focus: state.focus,
    pair: state.pair,
    strings,
    width,
    figure,
    // A locked query is also the softmax view's and the stage's query.
    onFocus: (focus) => set(focus?.locked && focus.side === 'query' ? { focus, query: focus.index } : { focus }),
  });
  const notes = [shown === total ? '' : strings.linksCapped(shown, total), every ? strings.linksImage(every) : ''];
  el('links-note').hidden = !notes.join('');
  setText(el('links-note'), notes.join(' ').trim());
}

// The view's descriptor, which views/registry.js lists (the registry describes each field).
export const LINKS_VIEW = {
  key: 'links',
  strings: {
    en: {
      name: 'Links',
      hint: 'Hover a token to isolate its links; click to lock. Width and opacity are the weight.',
    },
    zh: { name: '连线', hint: '悬停在词元上只看它的连线；点击可锁定。线的粗细和透明度就是权重。' },
  },
  panel: `<p class="hint" data-i18n="linksHint"></p>${viewNote('links')}<p class="hint untrained" data-i18n="untrainedNote"></p><div class="links-kind" data-role="links-kind" role="group" hidden></div><div class="links-legend" data-role="links-legend"></div><p class="hint" data-role="links-note" hidden></p><svg data-role="links" class="links-svg"></svg>`,
  role: 'links',
  exported: '[data-role=links]',
  // Its lines take the head's colour: the exported figure says which colour is which head.
  headLegend: true,
  // Linear attention: softmax's and the implied weights both, for the view's toggle.
  requests: ({ heads, state }) =>
    isLinear(state)
      ? [linksRequest(heads, LINK_LIMITS), linksRequest(heads, LINK_LIMITS, 'linearWeights')]
      : [linksRequest(heads, LINK_LIMITS)],
  draw: drawLinksView,
};
