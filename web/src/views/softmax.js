// The softmax and scaling explainer: for the selected query and head, bar charts of the raw
// scores, the scaled scores and the softmax weights; histograms of the score spread with and
// without ÷√d_k. Every bar is an engine number. Drawn into kept parts (parts.js): a keystroke
// adds the new token's button, bars and labels and writes only what changed in the rest; the
// buttons, the query slider and the temperature slider each have one listener, made once,
// that reads the latest draw's options.
import * as d3 from 'd3';
import { headColor } from '../scales.js';
import { formatShort } from '../format.js';
import { TEMPERATURE } from '../state.js';
import { put, setText } from '../dom.js';
import { barChart, barLabelLayout, TITLE_LINE, TITLE_ROOM } from './bar-chart.js';
import { textWidth } from './text.js';
import { histogram } from './histogram.js';
import { dropPart, layer, part } from './parts.js';
import { sayWhatItShows, viewNote } from './view-note.js';
import { rowRequest, spreadRequest } from '../requests.js';
import { nodeLocal } from '../node-local.js';
import { isLinear } from '../steps.js';

// What the listeners (made once) read: the options of the view's latest draw, and each query
// button's position.
const drawnWith = nodeLocal();
const queryOf = nodeLocal();

// The stage's extras (stage-extras.js) draw the same charts.
export { barChart, histogram };

// Past this many tokens the query is picked with a slider, not one button per token.
const MAX_QUERY_BUTTONS = 64;
const CHARTS = ['raw', 'scaled', 'weights'];

/** The query picker: one button per token (a click or Enter picks its position), or a slider past MAX_QUERY_BUTTONS. */
function drawQueryPicker(root, trace, i, o) {
  const picker = part(root, 'div', 'query-picker', (div) => {
    div.setAttribute('role', 'group');
    div.addEventListener('click', (event) => {
      const button = event.target.closest('button');
      const k = button ? queryOf.get(button) : undefined;
      if (k !== undefined) drawnWith.get(root).onQuery(k);
    });
  });
  put(picker, 'aria-label', o.strings.query);
  const buttons = trace.tokens.length <= MAX_QUERY_BUTTONS;
  if (buttons) {
    // The picker holds only its buttons (a layer): button k is token k from draw to draw.
    dropPart(picker, 'label', 'query-slider');
    const made = layer(picker, 'button', trace.tokens.length, (button, k) => {
      button.setAttribute('type', 'button');
      queryOf.set(button, k);
    });
    for (let k = 0; k < made.length; k++) {
      put(made[k], 'aria-pressed', String(k === i));
      setText(made[k], trace.tokens[k]);
    }
    return;
  }
  for (const button of picker.querySelectorAll(':scope > button')) button.remove();
  const slider = part(picker, 'label', 'query-slider', (label) => {
    const input = label.appendChild(document.createElement('input'));
    Object.assign(input, { type: 'range', min: 0, step: 1 });
    input.addEventListener('change', () => drawnWith.get(root).onQuery(Number(input.value)));
    label.append(document.createElement('span'));
  });
  const [input, span] = slider.children;
  put(input, 'max', trace.nQuery - 1);
  put(input, 'aria-label', o.strings.query);
  if (Number(input.value) !== i) input.value = i;
  setText(span, `${o.strings.query} ${i}: ${trace.tokens[i]}`);
}

/** The temperature slider: a log scale over exactly the number box's range (state.js TEMPERATURE), 3 significant digits. */
function drawTemperature(root, o) {
  const slider = part(root, 'label', 'temperature', (label) => {
    label.append(document.createElement('span'));
    const input = label.appendChild(document.createElement('input'));
    Object.assign(input, {
      type: 'range',
      min: Math.log2(TEMPERATURE.min),
      max: Math.log2(TEMPERATURE.max),
      step: 'any',
    });
    input.addEventListener('input', () => {
      const t = Number((2 ** Number(input.value)).toPrecision(3));
      drawnWith.get(root).onTemperature(Math.min(TEMPERATURE.max, Math.max(TEMPERATURE.min, t)));
    });
  });
  const [span, input] = slider.children;
  setText(span, o.strings.temperatureSlider(o.temperature));
  const value = Math.log2(o.temperature);
  if (Number(input.value) !== value) input.value = value;
  // Linear attention takes no temperature (the engine refuses one): off, saying why.
  input.disabled = Boolean(o.noTemperature) && o.temperature === 1;
  if (input.disabled) input.title = o.noTemperature;
  else input.removeAttribute('title');
}

/**
 * The page's charts: stacked, as wide as the view (labels keep their 11 px), at most 640 px.
 * Returns { width, height, chart: { width, height, labelLayout }, charts: [{ x, y }] (three),
 * spread: { x, y }, halves: { step, width, height } }.
 */
function pageGeometry(labels, viewWidth) {
  const width = Math.max(300, Math.min(640, viewWidth ?? 560));
  const chart = { width: width - 60, height: 110, labelLayout: barLabelLayout(labels, width - 60) };
  const chartStep = TITLE_ROOM + chart.height + chart.labelLayout.height + 12;
  return {
    width,
    height: 3 * chartStep + 170,
    chart,
    charts: [0, 1, 2].map((k) => ({ x: 30, y: TITLE_ROOM + 6 + k * chartStep })),
    spread: { x: 30, y: 30 + 3 * chartStep },
    halves: { step: (width - 40) / 2, width: (width - 80) / 2, height: 70 },
  };
}

// A figure's width (px, before its frame scales it): a 900 px column scales it up by about 1.15,
// its 11 px labels to 12.6 px.
const FIGURE_WIDTH = 760;
const FIGURE_GAP = 36;
// What the frame keeps besides the charts: its caption's line, margins, the query's buttons (px).
const FIGURE_KEPT = { width: 16, height: 48 + 44 };

/**
 * A figure's charts (the compact embed): the three side by side, left to right as the step
 * computes them, the spread under them, their heights chosen so that the whole has its frame's
 * shape. Stacked 640 px wide they filled 44 % of a slide's width, their text at 10 px.
 */
function figureGeometry(labels, frame) {
  const width = FIGURE_WIDTH;
  const chartWidth = (width - 40 - 2 * FIGURE_GAP) / 3;
  const labelLayout = barLabelLayout(labels, chartWidth);
  // The room's height at this width, less the parts of fixed height: the charts' titles and
  // labels, the spread's titles and axis; the rest goes to bars and bins, 5 : 3.
  const tall = ((frame.height - FIGURE_KEPT.height) * width) / (frame.width - FIGURE_KEPT.width);
  // (A title may take two lines.)
  const fixed = TITLE_LINE + TITLE_ROOM + 6 + labelLayout.height + 12 + 30 + 24 + 30;
  const bars = Math.max(60, Math.min(200, ((tall - fixed) * 5) / 8));
  const bins = Math.max(40, (bars * 3) / 5);
  const chartStep = TITLE_LINE + TITLE_ROOM + 6 + bars + labelLayout.height + 12;
  return {
    width,
    height: chartStep + 30 + 24 + bins + 30,
    chart: { width: chartWidth, height: bars, labelLayout },
    charts: [0, 1, 2].map((k) => ({ x: 20 + k * (chartWidth + FIGURE_GAP), y: TITLE_LINE + TITLE_ROOM + 6 })),
    spread: { x: 20, y: chartStep + 30 },
    halves: { step: (width - 40 + FIGURE_GAP) / 2, width: (width - 40 - FIGURE_GAP) / 2, height: bins },
  };
}

/**
 * @param root the view's container element
 * @param o { head, query, strings, onQuery(i), temperature, onTemperature(t), scale, width,
 *            figure: the frame's { width, height } where the view is a figure, else null }
 */
function drawSoftmax(root, trace, o) {
  drawnWith.set(root, o);
  const h = o.head === 'all' ? 0 : o.head;
  const i = Math.min(o.query, trace.nQuery - 1);
  drawQueryPicker(root, trace, i, o);

  const svg = part(root, 'svg', 'softmax-charts', (node) => node.setAttribute('role', 'img'));
  const labels = trace.kvTokens;
  const geometry = o.figure ? figureGeometry(labels, o.figure) : pageGeometry(labels, o.width);
  const { width, charts: places, spread: spreadAt, halves: halfAt } = geometry;
  put(svg, 'viewBox', `0 0 ${width} ${geometry.height}`);
  // A figure is drawn at its own width and scaled as a whole by its frame (explorer/compact-fit.js).
  const shown = o.figure ? `${width}px` : '';
  if (root.style.width !== shown) root.style.width = shown;
  if (svg.style.maxWidth !== (o.figure ? 'none' : '')) svg.style.maxWidth = o.figure ? 'none' : '';
  put(svg, 'aria-label', `${o.strings['view.softmax']}: ${trace.tokens[i]}`);
  const raw = trace.row('scores', h, i);
  const scaled = trace.row('masked', h, i);
  const weights = trace.row('weights', h, i);
  let [lo, hi] = [0, 0];
  for (const v of [...raw, ...scaled]) if (Number.isFinite(v)) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  const charts = [
    { title: `${o.strings.rawScores} · ${trace.tokens[i]}`, values: raw, color: '#7b6fb0', domain: [lo, hi] },
    { title: o.strings.afterScaling(o.scale, o.temperature), values: scaled, color: '#b35806', domain: [lo, hi] },
    {
      title: `${o.strings.weights} · ${o.strings.saturation(formatShort(d3.max(weights)))}`,
      values: weights,
      color: headColor(h),
      domain: [0, 1],
    },
  ];
  charts.forEach((c, k) => {
    const g = part(svg, 'g', `chart chart-${CHARTS[k]}`);
    put(g, 'transform', `translate(${places[k].x},${places[k].y})`);
    const { width: chartWidth, height, labelLayout } = geometry.chart;
    // A figure's title that does not fit its chart takes two lines, split at its " · ".
    const title = o.figure && textWidth(c.title, 12) > chartWidth ? c.title.split(' · ') : c.title;
    barChart(d3.select(g), c.values, labels, { width: chartWidth, height, labelLayout, ...c, title });
  });

  const spread = trace.spread(['scores', 'scaled'], d3.range(trace.heads));
  const hist = part(svg, 'g', 'spread');
  put(hist, 'transform', `translate(${spreadAt.x},${spreadAt.y})`);
  const spreadTitle = part(hist, 'text', 'spread-title');
  put(spreadTitle, 'y', -12);
  setText(spreadTitle, o.strings.spread);
  const halves = [
    { key: 'raw', title: `${o.strings.withoutScaling} (QKᵀ)`, bins: spread.sets[0].bins, color: '#7b6fb0' },
    {
      key: 'scaled',
      title: o.strings.afterScaling(o.scale, o.temperature),
      bins: spread.sets[1].bins,
      color: '#b35806',
    },
  ];
  halves.forEach((d, k) => {
    const g = part(hist, 'g', `half ${d.key}`);
    put(g, 'transform', `translate(${k * halfAt.step},24)`);
    histogram(d3.select(g), d.bins, { width: halfAt.width, height: halfAt.height, title: d.title, color: d.color });
  });

  drawTemperature(root, o);
}

/** The softmax view, drawn from the registry's one context argument (views/registry.js). */
export function drawSoftmaxView(ctx) {
  const { trace, state, strings, el, set, width, figure } = ctx;
  sayWhatItShows(el('softmax-shows'), ctx, { oneHead: true });
  drawSoftmax(el('softmax'), trace, {
    head: state.head,
    query: state.query,
    strings,
    scale: state.scale,
    width,
    figure,
    temperature: state.temperature,
    onQuery: (query) => set({ query }),
    onTemperature: (temperature) => set({ temperature }),
    noTemperature: isLinear(state) ? strings.linearNoTemperature : null,
  });
  // Linear attention's output is not this softmax: the view shows it to compare.
  const note = el('softmax-linear');
  note.hidden = !isLinear(state);
  setText(note, isLinear(state) ? strings.softmaxLinearNote : '');
}

// The view's descriptor, which views/registry.js lists (the registry describes each field).
export const SOFTMAX_VIEW = {
  key: 'softmax',
  strings: {
    en: {
      name: 'Softmax & scaling',
      hint: 'For the selected query: raw scores, scaled scores and the softmax weights.',
    },
    zh: { name: 'Softmax 与缩放', hint: '所选查询的原始分数、缩放后分数和 softmax 权重。' },
  },
  panel: `<p class="hint" data-i18n="softmaxHint"></p>${viewNote('softmax')}<p class="hint" data-role="softmax-linear" hidden></p><div data-role="softmax"></div>`,
  role: 'softmax',
  exported: '.softmax-charts',
  requests: ({ trace, head, query }) => [
    ...['scores', 'masked', 'weights'].map((name) => rowRequest(name, head, query)),
    spreadRequest(['scores', 'scaled'], d3.range(trace.heads)),
  ],
  draw: drawSoftmaxView,
};
