// The page: state (in the URL) → engine trace → views. Views are functions of the trace and
// the state; only this module talks to the engine.
import './app.css';
import * as d3 from 'd3';
// d3 declares itself free of side effects, so the bundler would drop the module that adds
// selection.transition(): import it for its side effect.
import 'd3-transition';
import { createEngine } from '../../dist/engine/engine.js';
import { buildControls, engineOptions, updateControls } from './controls.js';
import { defaultLanguage, strings as stringsFor } from './i18n.js';
import { createStore, defaultState, stateFromURL, stateToURL } from './state.js';
import { STEPS } from './steps.js';
import { tokenizeSentence } from './tokenize.js';
import { formatCount, headColor, maxAbs, signedScale } from './scales.js';
import { drawStage, sweepHighlights } from './views/stage.js';
import { drawStageExtras } from './views/stage-extras.js';
import { drawExplanation } from './views/explain.js';
import { drawLinks, linksLegend } from './views/links.js';
import { drawHeatmaps, heatmapTables } from './views/heatmap.js';
import { drawSoftmax } from './views/softmax.js';
import { buildStepper, updateStepper } from './views/stepper.js';
import { hideTooltip } from './tooltip.js';

const $ = (id) => document.getElementById(id);
const MODEL_FIELDS = [
  'sentence',
  'tokenization',
  'dModel',
  'heads',
  'seed',
  'mask',
  'window',
  'scale',
  'temperature',
  'positionalEncoding',
  'init',
];

const base = defaultState(defaultLanguage());
const { state: initial, notices } = stateFromURL(location.search, base);
const store = createStore(initial);
let trace = null;
let focus = null; // links: { side, index, locked }
let pair = null; // a heatmap cell picked: { head, i, j }
let tablesShown = false;

function strings() {
  return stringsFor(store.get().lang);
}

function showMessage(text) {
  const message = $('message');
  message.hidden = !text;
  message.textContent = text ?? '';
}

function compute(state) {
  const tokens = tokenizeSentence(state.sentence, state.tokenization);
  $('empty').hidden = tokens.length > 0;
  if (!tokens.length) {
    trace = null;
    showMessage(null);
    return;
  }
  try {
    trace = engine.run(engineOptions(state, tokens));
    showMessage(null);
  } catch (error) {
    trace = null;
    showMessage(`${strings().engineError}: ${error.message}`);
  }
}

function renderChips() {
  const tokens = trace?.tokens ?? [];
  d3.select('#tokens')
    .selectAll('li')
    .data(tokens, (d, i) => `${i}:${d}`)
    .join('li')
    .attr('class', 'chip')
    .text((d) => d)
    .attr('title', (_, i) => `#${i}`);
}

function renderTexts(state, s) {
  document.documentElement.lang = state.lang === 'zh' ? 'zh-CN' : 'en';
  document.title = s.title;
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = s[el.dataset.i18n];
  for (const button of document.querySelectorAll('.language button'))
    button.setAttribute('aria-pressed', String(button.dataset.lang === state.lang));
  for (const tab of document.querySelectorAll('[role=tab]')) {
    tab.textContent = s[`view.${tab.dataset.view}`];
    const selected = tab.dataset.view === state.view;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
    $(`panel-${tab.dataset.view}`).hidden = !selected;
  }
  $('table-toggle').textContent = tablesShown ? s.hideTable : s.showTable;
  $('table-toggle').setAttribute('aria-expanded', String(tablesShown));
  if (trace) {
    $('summary').textContent = s.summary(
      trace.nQuery,
      trace.heads,
      trace.dK,
      formatCount(trace.parameterCount, state.lang),
    );
    const f = trace.flops;
    $('cost').textContent = s.cost(
      formatCount(f.scores + f.scaling + f.mask + f.softmax + f.weightedSum, state.lang),
      formatCount(f.qProjection + f.kProjection + f.vProjection + f.outputProjection, state.lang),
    );
  } else {
    $('summary').textContent = '';
    $('cost').textContent = '';
  }
}

function stageWidth() {
  return Math.max(300, Math.floor($('stage').parentElement.clientWidth - 24));
}

function renderStage(state, s, stepChanged) {
  const svg = d3.select('#stage');
  if (!trace) {
    svg.selectAll('*').remove();
    return;
  }
  const def = STEPS[state.step - 1];
  const head = state.head === 'all' ? 0 : state.head;
  const { cell } = drawStage(svg, def.operands(trace, head), {
    width: stageWidth(),
    stepKey: `${def.key}:${head}`,
    onCell: (operand, i, j) => {
      if (operand.step.rows === trace.nQuery && operand.step.cols === trace.nKey && operand.step.head !== null) {
        pair = { head: operand.step.head, i, j };
        store.set({ view: 'links' });
        renderViews(store.get(), strings());
      }
    },
  });
  if (stepChanged && def.key === 'scores') sweepHighlights(svg, cell);
  const [, , width, height] = svg.attr('viewBox').split(' ').map(Number);
  const extra = drawStageExtras(svg, trace, state, s, height);
  if (extra) svg.attr('viewBox', `0 0 ${width} ${height + extra + 40}`).attr('height', height + extra + 40);
  drawExplanation(document.querySelector('.explain'), trace, state, s);
}

function renderViews(state, s) {
  if (!trace) {
    for (const id of ['links', 'heatmaps', 'matrices']) d3.select(`#${id}`).selectAll('*').remove();
    d3.select('#softmax').selectAll('*').remove();
    return;
  }
  if (state.view === 'links') {
    linksLegend(document.querySelector('.links-legend'), trace, { head: state.head, strings: s });
    drawLinks(d3.select('#links'), trace, {
      head: state.head,
      focus,
      pair,
      strings: s,
      onFocus(next) {
        focus = next;
        if (next?.locked && next.side === 'query') store.set({ query: next.index });
        renderViews(store.get(), strings());
        if (store.get().step === 7) renderStage(store.get(), strings(), false);
      },
    });
  } else if (state.view === 'heatmap') {
    const onPair = (p) => {
      pair = p;
      store.set({ view: 'links', head: state.head === 'all' ? 'all' : p.head });
    };
    drawHeatmaps(d3.select('#heatmaps'), trace, { step: state.step, head: state.head, strings: s, width: 900, onPair });
    $('heatmap-tables').hidden = !tablesShown;
    if (tablesShown) heatmapTables($('heatmap-tables'), trace, { step: state.step, head: state.head, strings: s });
  } else if (state.view === 'matrices') {
    const head = state.head === 'all' ? 0 : state.head;
    const names = [
      ['x', 'X'],
      ['pe', 'PE'],
      ['xPe', "X'"],
      ['wQ', 'W_Q'],
      ['wK', 'W_K'],
      ['wV', 'W_V'],
      ['q', 'Q'],
      ['k', 'K'],
      ['v', 'V'],
      ['headOutput', `head ${head + 1}`],
      ['concat', 'Concat'],
      ['wO', 'W_O'],
      ['output', 'O'],
    ];
    const operands = names.map(([name, title]) => {
      const step = name === 'headOutput' ? trace.step(name, head) : trace.step(name);
      const scale = signedScale(maxAbs(step.data));
      return {
        id: name,
        step,
        title,
        color: (v) => scale(v),
        animation: 'none',
        columnColor: ['q', 'k', 'v', 'concat'].includes(name) ? (j) => headColor(Math.floor(j / trace.dK)) : null,
      };
    });
    drawStage(d3.select('#matrices'), operands, { width: 1100, stepKey: 'matrices' });
  } else {
    drawSoftmax($('softmax'), trace, {
      head: state.head,
      query: state.query,
      strings: s,
      scale: state.scale,
      temperature: state.temperature,
      onQuery: (query) => store.set({ query }),
      onTemperature: (temperature) => store.set({ temperature }),
    });
  }
}

function render(state, changed) {
  const s = strings();
  const modelChanged = MODEL_FIELDS.some((f) => changed.has(f));
  if (modelChanged) {
    compute(state);
    if (focus && trace && (focus.side === 'query' ? focus.index >= trace.nQuery : focus.index >= trace.nKey))
      focus = null;
    if (pair && trace && (pair.head >= trace.heads || pair.i >= trace.nQuery || pair.j >= trace.nKey)) pair = null;
    renderChips();
  }
  hideTooltip();
  updateControls(state, s);
  updateStepper(document.querySelector('.stepper'), stepperUI, state, s);
  renderTexts(state, s);
  renderStage(state, s, changed.has('step'));
  renderViews(state, s);
  history.replaceState(null, '', `${location.pathname}${stateToURL(state, base)}${location.hash}`);
}

for (const button of document.querySelectorAll('.language button')) {
  button.addEventListener('click', () => store.set({ lang: button.dataset.lang }));
}
for (const tab of document.querySelectorAll('[role=tab]')) {
  tab.addEventListener('click', () => store.set({ view: tab.dataset.view }));
  tab.addEventListener('keydown', (event) => {
    const tabs = [...document.querySelectorAll('[role=tab]')];
    const k = tabs.indexOf(tab);
    const next =
      event.key === 'ArrowRight'
        ? tabs[(k + 1) % tabs.length]
        : event.key === 'ArrowLeft'
          ? tabs[(k + tabs.length - 1) % tabs.length]
          : null;
    if (next) {
      event.preventDefault();
      event.stopPropagation();
      store.set({ view: next.dataset.view });
      next.focus();
    }
  });
}
$('table-toggle').addEventListener('click', () => {
  tablesShown = !tablesShown;
  render(store.get(), new Set());
});

const stepperUI = buildStepper(document.querySelector('.stepper'), store);
buildControls(store);
const engine = await createEngine();
$('loading').hidden = true;
store.subscribe(render);
render(store.get(), new Set(MODEL_FIELDS));
if (notices.length) showMessage(strings().ignoredURL(notices.join(', ')));
let resizeTimer;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => render(store.get(), new Set()), 150);
});
