// Heatmaps of one step's n×m matrix (scores, scaled, masked or weights), one per head as small
// multiples, with token labels, a legend, masked cells hatched, and a table for screen readers.
import * as d3 from 'd3';
import { drawMatrix, FIGURE_LABEL_ROOM, measureMatrix, pickedCell } from './matrix.js';
import { drawColumnLegend, drawLegend, measureColumnLegend } from './legend.js';
import { fitSvg } from './fit.js';
import { putAttrs, setText } from '../dom.js';
import { stepMaxAbs, signedScale, weightScale } from '../scales.js';
import { formatShort } from '../format.js';
import { isLinear, STEP_KEYS, stepAt } from '../steps.js';
import { sayWhatItShows, viewNote } from './view-note.js';
import { stepRequest } from '../requests.js';
import { textWidth } from './text.js';

/** Which matrix the heatmaps show at step n (1-based): the step table's `heatmap` column. */
export const heatmapStepFor = (step) => stepAt(step).heatmap;

/**
 * The matrices the heatmaps show for a state, drawn side by side per head: the step's one, or
 * with linear attention softmax's weights beside the implied ones for the same Q and K, at
 * every step (linear attention forms no n × n matrix of its own to show at steps 4–6).
 */
export const heatmapStepsFor = (state) =>
  isLinear(state) ? ['weights', 'linearWeights'] : [heatmapStepFor(state.step)];

// The step (by key) that makes each matrix a heatmap shows: at steps 1–3 it shows step 4's.
const MADE_BY = { scores: 'scores', scaled: 'scale', masked: 'mask', weights: 'softmax', linearWeights: 'softmax' };

const WEIGHTS = new Set(['weights', 'linearWeights']);

/** The step (1-based) that makes the matrix `name` (e.g. 'weights' → 7). */
export const stepMaking = (name) => STEP_KEYS.indexOf(MADE_BY[name]) + 1;

/** Largest side of a heatmap's data: small multiples of many heads need fewer pixels each. */
export function heatmapSide(heads) {
  return heads > 1 ? 256 : 512;
}

/** The picked pair's cell on head `head`'s grid, or null (another head's pair). */
const pickedPair = (pair, head) => (pair.head === head ? pickedCell(pair.i, pair.j) : null);

function drawHeatmaps(svg, trace, o) {
  const names = heatmapStepsFor(o.state);
  const name = names[0];
  const heads = o.head === 'all' ? d3.range(trace.heads) : [o.head];
  const mask = trace.step('mask');
  const masked = name === 'masked' || WEIGHTS.has(name) ? (i, j) => mask.data[i * mask.cols + j] === 0 : null;
  const side = heatmapSide(heads.length * names.length);
  const steps = heads.flatMap((h) => names.map((n) => ({ ...trace.step(n, h, side), name: n, head: h })));
  const signed = !WEIGHTS.has(name);
  const range = signed ? Math.max(...steps.map((s) => stepMaxAbs(s))) : 1;
  const scale = signed ? signedScale(range) : weightScale();
  const color = (v) => (Number.isFinite(v) ? scale(v) : '#ddd');
  // Named, so that the grids remember its colours across keystrokes (views/cell-style.js).
  color.domain = [scale.domain()[0], scale.domain().at(-1)];
  color.key = `heatmap:${color.domain}`;

  const label = o.strings.matrixNames[name] ?? name;
  // Two kinds side by side: each grid says which.
  const kind = (s) => (s.name === 'linearWeights' ? o.strings.linearKind : o.strings.softmaxKind);
  const titleOf = (s) => `${o.strings.headN(s.head)} · ${names.length > 1 ? kind(s) : label}`;
  const legend = {
    label: `${label} (${o.strings.value})${heads.length > 1 ? ` · ${o.strings.sharedHeads}` : ''}`,
    // Heads are compared side by side: one scale for all of them, and the legend says so. A
    // figure keys the hatching only where a cell is hatched.
    hatchLabel: masked && (!o.figure || mask.data.includes(0)) ? o.strings.masked : null,
  };
  const domain = signed ? [-range, range] : [0, 1];
  const layout = o.figure
    ? figureLayout(steps, o.figure, titleOf, {
        beside: measureColumnLegend(domain, legend),
        above: measureLegend(legend),
      })
    : pageLayout(steps, trace, o.width, titleOf, names.length);
  const { cell, labelRoom, places } = layout;
  fitSvg(svg.node(), layout.width, layout.height);

  svg
    .selectAll('g.legend-slot')
    .data(layout.legend === 'above' ? [0] : [])
    .join((enter) => enter.append('g').attr('class', 'legend-slot'))
    // (Centred over a figure's grids.)
    .call(putAttrs, {
      transform: `translate(${o.figure ? Math.max(4, (layout.width - layout.legendWidth) / 2) : 4},4)`,
    })
    .each(function draw() {
      drawLegend(d3.select(this), color, domain, legend);
    });
  // Or a bar beside the grids, as tall as their cells, from the first row's to the last row's.
  svg
    .selectAll('g.legend-beside')
    .data(layout.legend === 'beside' ? [0] : [])
    .join((enter) => enter.append('g').attr('class', 'legend-beside'))
    .each(function draw() {
      const g = d3.select(this);
      const drawn = drawColumnLegend(g, color, domain, { ...legend, height: layout.bar.height });
      putAttrs(g, { transform: `translate(${layout.bar.x},${layout.bar.y - drawn.top})` });
    });

  svg
    .selectAll('g.multiple')
    .data(steps, (s) => `${s.name}:${s.head}`)
    .join((enter) => enter.append('g').attr('class', 'multiple operand'))
    .call(putAttrs, {
      'data-step': (s) => s.name,
      'data-head': (s) => s.head,
      transform: (_, k) => `translate(${places[k].x},${places[k].y})`,
    })
    .each(function draw(s, k) {
      drawMatrix(d3.select(this), s, {
        cell,
        color,
        title: titleOf(s),
        labelRoom,
        showRowLabels: places[k].rowLabels,
        showColLabels: places[k].colLabels,
        masked,
        numbers: layout.numbers,
        picked: o.pair ? pickedPair(o.pair, s.head) : null,
        onCell: (i, j) => o.onPair?.({ head: s.head, i, j }),
      });
    });
}

const GAP = 24;

/**
 * The page's layout: the legend above, as many heads a row as the view's width holds, each with
 * its labels; `group` grids of one head (softmax | linear) kept on one row where two fit.
 */
function pageLayout(steps, trace, width, titleOf, group = 1) {
  // Past 64 tokens a heatmap keeps its image's size a side (see matrix.js), not 8 px a cell.
  // …and never wider than the view (a wider drawing would be scaled down, its labels under 11 px).
  const side = Math.max(trace.nQuery, trace.nKey);
  const fit = (width - measureMatrix(steps[0], { cell: 8 }).left - 4) / side;
  let cell = Math.min(
    side <= 64 ? Math.max(8, Math.min(32, Math.floor(380 / side))) : heatmapSide(steps.length) / side,
    side <= 64 ? Math.floor(fit) : fit,
  );
  // A group (softmax | linear) side by side on a phone, with smaller cells, where they stay 12 px
  // or more (the numbers' least); else one above the other.
  // (A group's grids are closer together than two heads' grids: the pair reads as one.)
  const gap = group > 1 ? GAP / 2 : GAP;
  // The widest title (linear's in 中文 is not softmax's).
  const title = steps.map(titleOf).reduce((a, b) => (textWidth(b, 12) > textWidth(a, 12) ? b : a));
  const measure = (c) => measureMatrix(steps[0], { cell: c, title });
  const groupWidth = (c) => group * (measure(c).width + gap) - gap;
  if (group > 1 && side <= 64 && groupWidth(cell) > width) {
    let c = cell;
    while (c > 12 && groupWidth(c) > width) c--;
    if (groupWidth(c) <= width) cell = c;
  }
  const size = measure(cell);
  const fits = Math.max(1, Math.floor((width + gap) / (size.width + gap)));
  const perRow = fits >= group ? fits - (fits % group) : fits;
  const rows = Math.ceil(steps.length / perRow);
  return {
    cell,
    numbers: true,
    legend: 'above',
    places: steps.map((_, k) => ({
      x: (k % perRow) * (size.width + gap),
      y: LEGEND_ABOVE + Math.floor(k / perRow) * (size.height + GAP),
      rowLabels: true,
      colLabels: true,
    })),
    width: Math.max(width, size.width),
    height: LEGEND_ABOVE + rows * (size.height + GAP),
  };
}

// The room a legend above the grids takes (px).
const LEGEND_ABOVE = 56;

/** The width of drawLegend's legend with `label` and `hatchLabel`, at its 180 px bar (px). */
function measureLegend({ label, hatchLabel }) {
  return Math.max(textWidth(label, 11), 180 + (hatchLabel ? 34 + textWidth(hatchLabel, 12) : 0)) + 4;
}

// A figure's cells (px, before the frame scales it): with numbers, the least that prints them at
// 12 px; without, smaller and smaller, so that its labels grow.
const FIGURE_CELLS = [{ cell: 34, numbers: true }, ...[24, 18, 14, 10, 8].map((cell) => ({ cell, numbers: false }))];
// No text of a figure under this size (px) once scaled to its frame.
const FIGURE_TEXT = 12;
// What the frame keeps besides the drawing: its caption's line and margins (compact-fit.js).
const CAPTION_ROOM = 48;
const MARGINS = 16;
// Its smallest texts before scaling (px): a matrix's title, its numbers at 34 px cells.
const TITLE_FONT = 12;
const NUMBER_FONT = 12.2;

/**
 * A figure's small multiples, `perRow` heads a row, as one grid of cells: the first column's
 * grids label the rows, the first row's the columns (the same tokens in each), so that a second
 * row or column of heads costs no labels. { places: [{ x, y, rowLabels, colLabels }], width,
 * height, cells: { top, left, bottom } } (px, from the drawing's top left at `top`).
 */
function multiples(step, n, perRow, { cell, title, top }) {
  const full = measureMatrix(step, { cell, title, labelRoom: FIGURE_LABEL_ROOM });
  // A grid without its labels: its cells 4 px from its left, 22 px under its top (the title's line).
  const bare = measureMatrix(step, { cell, title, showRowLabels: false, showColLabels: false });
  const pitch = { x: bare.width - 4 + GAP, y: bare.height + GAP };
  const rows = Math.ceil(n / perRow);
  const cellsLeft = (c) => full.left + c * pitch.x;
  const cellsTop = (r) => top + full.top + r * pitch.y;
  const places = d3.range(n).map((k) => {
    const [r, c] = [Math.floor(k / perRow), k % perRow];
    return {
      x: cellsLeft(c) - (c === 0 ? full.left : bare.left),
      y: cellsTop(r) - (r === 0 ? full.top : bare.top),
      rowLabels: c === 0,
      colLabels: r === 0,
    };
  });
  const cellsHeight = full.rows * cell + 2;
  return {
    places,
    width: cellsLeft(Math.min(n, perRow) - 1) + bare.width - 4,
    height: cellsTop(rows - 1) + cellsHeight,
    cells: { top: top + full.top, left: full.left, bottom: cellsTop(rows - 1) + cellsHeight },
  };
}

/**
 * A figure's layout (the compact embed): the heads in the rows and columns, at the cell size and
 * with the legend above them or beside them (a bar), with which the frame
 * (explorer/compact-fit.js) scales it largest while every text stays 12 px or more. A row of
 * heads under its legend filled half of a 900 px column, four heads wrapped to three and one at
 * 9 px text on a slide, and one head under a legend wider than its grid left a third of a slide
 * empty. legends: { beside: measureColumnLegend's sizes, above: measureLegend's width }.
 */
function figureLayout(steps, frame, titleOf, legends) {
  const room = { width: frame.width - MARGINS, height: frame.height - CAPTION_ROOM };
  const n = steps.length;
  const title = titleOf(steps[0]);
  let best = null;
  for (const { cell, numbers } of FIGURE_CELLS) {
    // Its least text: the title, the labels (matrix.js labelSpacing), the numbers.
    const least = Math.min(TITLE_FONT, Math.min(13, Math.max(11, cell * 0.6)), numbers ? NUMBER_FONT : Infinity);
    for (let perRow = 1; perRow <= n; perRow++) {
      const { beside, above } = legends;
      // Beside: the legend's label rises above the first grid's cells where it is taller than
      // their labels, and half a tick's line falls below the bar.
      const next = multiples(steps[0], n, perRow, { cell, title, top: 0 });
      const besideTop = Math.max(0, beside.top - next.cells.top);
      const besides = multiples(steps[0], n, perRow, { cell, title, top: besideTop });
      const aboves = multiples(steps[0], n, perRow, { cell, title, top: LEGEND_ABOVE });
      const placements = [
        {
          legend: 'beside',
          ...besides,
          width: besides.width + GAP + beside.width,
          height: besides.height + beside.below + 8,
          bar: { x: besides.width + GAP, y: besides.cells.top, height: besides.cells.bottom - besides.cells.top },
          least,
        },
        // Above: its texts are the page's 11 px.
        {
          legend: 'above',
          ...aboves,
          width: Math.max(aboves.width, above),
          legendWidth: above,
          least: Math.min(least, 11),
        },
      ];
      for (const placed of placements) {
        const scale = Math.min(4, room.width / placed.width, room.height / placed.height);
        const readable = scale * placed.least >= FIGURE_TEXT;
        if (!best || (readable && !best.readable) || (readable === best.readable && scale > best.scale))
          best = { ...placed, cell, numbers, labelRoom: FIGURE_LABEL_ROOM, scale, readable };
      }
    }
    if (best.readable) return best;
  }
  return best;
}

/** The same numbers as an HTML table (one per head), for screen readers and copying. */
const MAX_TABLE_CELLS = 20000;

export function heatmapTables(container, trace, o) {
  const names = heatmapStepsFor(o.state);
  const heads = o.head === 'all' ? d3.range(trace.heads) : [o.head];
  const cells = names.length * heads.length * trace.nQuery * trace.nKey;
  if (cells > MAX_TABLE_CELLS) {
    const note = document.createElement('p');
    note.className = 'hint';
    note.textContent = o.strings.tableTooLarge(cells);
    container.replaceChildren(note);
    return;
  }
  container.replaceChildren(
    ...heads
      .flatMap((h) => names.map((name) => [h, name]))
      .map(([h, name]) => {
        const s = trace.step(name, h, heatmapSide(heads.length * names.length));
        const table = document.createElement('table');
        table.className = 'data-table';
        table.dataset.step = name;
        const caption = document.createElement('caption');
        const label = name === 'linearWeights' ? o.strings.linearWeightsName : (o.strings.matrixNames[name] ?? name);
        caption.textContent = `${o.strings.headN(h)} · ${label} [${s.rows} × ${s.cols}]`;
        const head = document.createElement('tr');
        head.append(document.createElement('th'));
        for (const label of s.colLabels) {
          const th = document.createElement('th');
          th.scope = 'col';
          th.textContent = label;
          head.append(th);
        }
        const body = s.rowLabels.map((label, i) => {
          const tr = document.createElement('tr');
          const th = document.createElement('th');
          th.scope = 'row';
          th.textContent = label;
          tr.append(th);
          for (let j = 0; j < s.cols; j++) {
            const td = document.createElement('td');
            td.textContent = formatShort(s.data[i * s.cols + j]);
            tr.append(td);
          }
          return tr;
        });
        table.append(caption, head, ...body);
        return table;
      }),
  );
}

/** The heatmap view, drawn from the registry's one context argument (views/registry.js). */
export function drawHeatmapView(ctx) {
  const { trace, state, strings, el, width, get, set } = ctx;
  const names = heatmapStepsFor(state);
  sayWhatItShows(el('heatmap-shows'), ctx, { step: stepMaking(names.at(-1)) });
  // Linear attention: which grid is which kind, and what to compare.
  const hint = el('heatmap-linear-hint');
  hint.hidden = names.length === 1;
  setText(hint, names.length > 1 ? strings.heatmapLinearHint : '');
  // A cell picked here is marked, here and in the links view; the page stays in the heatmap.
  const onPair = (pair) => set({ pair });
  const o = { step: state.step, head: state.head, strings, state };
  drawHeatmaps(d3.select(el('heatmaps')), trace, { ...o, width, pair: state.pair, onPair, figure: ctx.figure });
  const toggle = el('table-toggle');
  // Its text is kept by explorer/render.js renderTexts too (data-i18n), in views not drawn.
  toggle.dataset.i18n = state.tables ? 'hideTable' : 'showTable';
  setText(toggle, strings[toggle.dataset.i18n]);
  toggle.setAttribute('aria-expanded', String(state.tables));
  toggle.onclick = () => set({ tables: !get().tables });
  el('heatmap-tables').hidden = !state.tables;
  if (state.tables) heatmapTables(el('heatmap-tables'), trace, o);
}

// The view's descriptor, which views/registry.js lists (the registry describes each field).
export const HEATMAP_VIEW = {
  key: 'heatmap',
  strings: {
    en: {
      name: 'Heatmaps',
      hint: 'Rows are queries, columns are keys. Hatched cells are masked. Click a cell to mark it and its link in the links view.',
    },
    zh: {
      name: '热力图',
      hint: '行是查询，列是键。斜线格表示被屏蔽。点击格子可标记它，并在连线视图中高亮对应连线。',
    },
  },
  panel: `<p class="hint" data-i18n="heatmapHint"></p>${viewNote('heatmap')}<p class="hint" data-role="heatmap-linear-hint" hidden></p><button type="button" data-role="table-toggle" data-i18n="showTable" aria-expanded="false"></button><svg data-role="heatmaps" class="heatmap-svg" role="img"></svg><div data-role="heatmap-tables" hidden></div>`,
  role: 'heatmaps',
  exported: '[data-role=heatmaps]',
  requests: ({ state, heads }) => [
    stepRequest('mask'),
    ...heatmapStepsFor(state).flatMap((name, _, names) =>
      heads.map((h) => stepRequest(name, h, heatmapSide(heads.length * names.length))),
    ),
  ],
  draw: drawHeatmapView,
};
