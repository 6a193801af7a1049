// The cost panel below the views: measures, in the engine's worker (cost-service.js), how the
// time of a layer's output (engine.attend: no trace) and the memory of its attention grow with n for each kind of attention
// (cost-kinds.js), draws both on log–log axes and prints the fitted slopes (cost-fit.js) beside
// the tutorial's table. Its state is its own (results, running): it is not part of a link.
//
//   createCostPanel({ $, store, engine, strings }) → { refresh() (after a language change), stop() }
import * as d3 from 'd3';
import { setText } from '../dom.js';
import { headColor } from '../scales.js';
import { costSizes, logLogSlope, nextSize } from './cost-fit.js';
import { COST_KINDS, COST_KIND_KEYS, COST_MODEL } from './cost-kinds.js';
import { LIMITS } from '../catalog.js';

export const COST_MIN_N = 64;
/** A kind whose run took longer stops growing: the next length takes at least twice as long. */
export const COST_BUDGET_MS = 1500;
/** Slopes are fitted from here on: below it, the projections (O(n·d²), in every kind) hide full attention's n². */
export const COST_FIT_FROM = 512;

const WIDTH = 380;
const HEIGHT = 250;
const MARGIN = { top: 12, right: 14, bottom: 40, left: 74 }; // left: room for "100M" at 13 px beside the axis label

/**
 * The longest n: the engine's limit for attend() (limits.maxAttendTokens, above a trace's), or
 * less with `#costMax=512` (tests, a slow machine): in the fragment, since the page's link keys
 * are its state and it names any other key as ignored.
 */
function maxTokens(engine) {
  let max = engine.limits?.maxAttendTokens ?? LIMITS.maxAttendTokens;
  const asked = Number.parseInt(
    new URLSearchParams((globalThis.location?.hash ?? '').slice(1)).get('costMax') ?? '',
    10,
  );
  if (Number.isInteger(asked) && asked >= COST_MIN_N) max = Math.min(max, asked);
  return max;
}

const formatSlope = (slope) => (slope === null ? '–' : slope.toFixed(2));

function drawChart(svg, results, field, axisLabel, s) {
  const sizes = results.sizes;
  const points = COST_KIND_KEYS.flatMap((kind) => results.byKind[kind].map((r) => r[field]).filter((v) => v > 0));
  const x = d3
    .scaleLog()
    .domain([sizes[0], sizes[sizes.length - 1]])
    .range([MARGIN.left, WIDTH - MARGIN.right]);
  const extent = points.length ? d3.extent(points) : [1, 10];
  const y = d3
    .scaleLog()
    .domain([extent[0] / 1.5, extent[1] * 1.5])
    .range([HEIGHT - MARGIN.bottom, MARGIN.top])
    .nice();
  const root = d3.select(svg).attr('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  root.selectAll('*').remove();
  root
    .append('g')
    .attr('class', 'axis')
    .attr('transform', `translate(0,${HEIGHT - MARGIN.bottom})`)
    .call(d3.axisBottom(x).tickValues(sizes).tickFormat(d3.format('d')));
  root
    .append('g')
    .attr('class', 'axis')
    .attr('transform', `translate(${MARGIN.left},0)`)
    .call(d3.axisLeft(y).ticks(4, field === 'ms' ? '~g' : '~s'));
  root
    .append('text')
    .attr('class', 'axis-label')
    .attr('x', (MARGIN.left + WIDTH - MARGIN.right) / 2)
    .attr('y', HEIGHT - 6)
    .attr('text-anchor', 'middle')
    .text(s.costTokensAxis);
  root
    .append('text')
    .attr('class', 'axis-label')
    .attr('transform', `translate(14,${(MARGIN.top + HEIGHT - MARGIN.bottom) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text(axisLabel);
  COST_KIND_KEYS.forEach((kind) => {
    const data = results.byKind[kind].filter((r) => r[field] > 0);
    if (!data.length) return;
    const g = root
      .append('g')
      .attr('class', 'cost-line')
      .attr('data-kind', kind)
      .style('color', headColor(COST_KINDS[kind].color));
    g.append('path')
      .attr('fill', 'none')
      .attr('stroke', 'currentColor')
      .attr('stroke-width', 2)
      .attr(
        'd',
        d3
          .line()
          .x((r) => x(r.n))
          .y((r) => y(r[field]))(data),
      );
    g.selectAll('circle')
      .data(data)
      .join('circle')
      .attr('cx', (r) => x(r.n))
      .attr('cy', (r) => y(r[field]))
      .attr('r', 3)
      .attr('fill', 'currentColor')
      .append('title')
      .text((r) => `${s.costKinds[kind]}, n = ${r.n}: ${r[field].toPrecision(3)}`);
  });
}

/** The measured slopes, one row per kind: { kind, time, memory } (null where not two points yet). */
export function costSlopes(results) {
  return COST_KIND_KEYS.map((kind) => {
    const rows = results.byKind[kind];
    return {
      kind,
      time: logLogSlope(
        rows.map((r) => ({ x: r.n, y: r.ms })),
        COST_FIT_FROM,
      ),
      memory: logLogSlope(
        rows.map((r) => ({ x: r.n, y: r.bytes })),
        COST_FIT_FROM,
      ),
    };
  });
}

function drawSlopes(table, results, s) {
  const head = `<thead><tr><th></th><th></th><th></th><th></th><th></th></tr></thead>`;
  if (!table.firstChild) table.innerHTML = `${head}<tbody></tbody>`;
  const ths = table.querySelectorAll('th');
  [s.costKind, s.costTimeSlope, s.costMemorySlope, s.costExpected].forEach((text, i) => setText(ths[i + 1], text));
  const rows = d3
    .select(table.querySelector('tbody'))
    .selectAll('tr')
    .data(costSlopes(results))
    .join((enter) => {
      const tr = enter.append('tr');
      tr.append('td').append('span').attr('class', 'cost-swatch');
      for (let i = 0; i < 4; i++) tr.append('td');
      return tr;
    })
    .attr('data-kind', (r) => r.kind);
  rows.select('.cost-swatch').style('background', (r) => headColor(COST_KINDS[r.kind].color));
  rows.each(function (r) {
    const cells = this.querySelectorAll('td');
    setText(cells[1], s.costKinds[r.kind]);
    setText(cells[2], formatSlope(r.time));
    cells[2].dataset.slope = r.time === null ? '' : String(r.time);
    setText(cells[3], formatSlope(r.memory));
    cells[3].dataset.slope = r.memory === null ? '' : String(r.memory);
    setText(cells[4], `≈ ${COST_KINDS[r.kind].expected}`);
  });
}

function drawTutorial(table, s) {
  const rows = [
    [s.costRnn, 'O(n·d²)', '1'],
    [s.costSelfAttention, 'O(n²·d)', '2'],
    [s.costLongformer, 'O(n·d)', '1'],
  ];
  d3.select(table)
    .selectAll('thead')
    .data([0])
    .join('thead')
    .selectAll('tr')
    .data([[s.costModel, s.costComplexity, s.costSlopeInN]])
    .join('tr')
    .selectAll('th')
    .data((r) => r)
    .join('th')
    .text((t) => t);
  d3.select(table)
    .selectAll('tbody')
    .data([0])
    .join('tbody')
    .selectAll('tr')
    .data(rows)
    .join('tr')
    .selectAll('td')
    .data((r) => r)
    .join('td')
    .text((t) => t);
}

export function createCostPanel({ $, store, engine, strings }) {
  const max = maxTokens(engine);
  const sizes = costSizes(COST_MIN_N, max);
  const empty = () => ({ sizes, byKind: Object.fromEntries(COST_KIND_KEYS.map((k) => [k, []])) });
  let results = empty();
  let running = false;
  let stopping = false;
  let status = () => strings().costIdle;

  function draw() {
    const s = strings();
    setText($('cost-intro'), s.costIntro(max, COST_MODEL.dModel, COST_MODEL.heads));
    setText($('cost-status'), status());
    $('cost-measure').disabled = running;
    $('cost-stop').disabled = !running;
    drawChart($('cost-time'), results, 'ms', s.costTimeAxis, s);
    drawChart($('cost-memory'), results, 'bytes', s.costMemoryAxis, s);
    drawSlopes($('cost-slopes'), results, s);
    drawTutorial($('cost-tutorial'), s);
  }

  async function measure() {
    if (running) return;
    running = true;
    stopping = false;
    results = empty();
    const started = performance.now();
    const progress = $('cost-progress');
    progress.max = COST_KIND_KEYS.length * sizes.length;
    progress.value = 0;
    $('cost-panel').dataset.state = 'running';
    try {
      // Length by length, every kind at each: a burst of load from elsewhere on the machine then
      // slows all kinds at one length alike, and leaves the difference of their slopes.
      for (const n of sizes) {
        for (const kind of COST_KIND_KEYS) {
          if (stopping) break;
          // A kind past its budget skips this length: it counts as done.
          if (nextSize(sizes, results.byKind[kind], COST_BUDGET_MS) === n) {
            status = () => strings().costRunning(strings().costKinds[kind], n);
            draw();
            results.byKind[kind].push(await engine.ask('costMeasure', { kind, n }));
          }
          progress.value += 1;
        }
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      status = stopping ? () => strings().costStopped : () => strings().costDone(seconds);
      $('cost-panel').dataset.state = stopping ? 'stopped' : 'done';
    } catch (error) {
      status = () => strings().costFailed(error.message);
      $('cost-panel').dataset.state = 'failed';
    }
    running = false;
    draw();
  }

  const onMeasure = () => measure();
  // The run in the worker cannot be cut: the loop ends after it, in at most one run's time.
  const onStop = () => {
    stopping = running;
    if (running) $('cost-stop').disabled = true;
  };
  $('cost-measure').addEventListener('click', onMeasure);
  $('cost-stop').addEventListener('click', onStop);
  let lang = store.get().lang;
  const unsubscribe = store.subscribe((state) => {
    if (state.lang !== lang) {
      lang = state.lang;
      draw();
    }
  });
  draw();
  return {
    refresh: draw,
    stop() {
      stopping = true;
      unsubscribe?.();
      $('cost-measure').removeEventListener('click', onMeasure);
      $('cost-stop').removeEventListener('click', onStop);
    },
  };
}
