// Heatmaps of one step's n×m matrix (scores, scaled, masked or weights), one per head as small
// multiples, with token labels, a legend, masked cells hatched, and a table for screen readers.
import * as d3 from 'd3';
import { drawMatrix, measureMatrix, pickedCell } from './matrix.js';
import { drawLegend } from './legend.js';
import { fitSvg } from './fit.js';
import { putAttrs, setText } from '../dom.js';
import { stepMaxAbs, signedScale, weightScale } from '../scales.js';
import { formatShort } from '../format.js';
import { STEP_KEYS, stepAt } from '../steps.js';
import { sayWhatItShows } from './view-note.js';

/** Which matrix the heatmaps show at step n (1-based): the step table's `heatmap` column. */
export const heatmapStepFor = (step) => stepAt(step).heatmap;

// The step (by key) that makes each matrix a heatmap shows: at steps 1–3 it shows step 4's.
const MADE_BY = { scores: 'scores', scaled: 'scale', masked: 'mask', weights: 'softmax' };

/** The step (1-based) that makes the matrix `name` (e.g. 'weights' → 7). */
export const stepMaking = (name) => STEP_KEYS.indexOf(MADE_BY[name]) + 1;

/** Largest side of a heatmap's data: small multiples of many heads need fewer pixels each. */
export function heatmapSide(heads) {
  return heads > 1 ? 256 : 512;
}

/** The picked pair's cell on head `head`'s grid, or null (another head's pair). */
const pickedPair = (pair, head) => (pair.head === head ? pickedCell(pair.i, pair.j) : null);

function drawHeatmaps(svg, trace, o) {
  const name = heatmapStepFor(o.step);
  const heads = o.head === 'all' ? d3.range(trace.heads) : [o.head];
  const mask = trace.step('mask');
  const masked = name === 'masked' || name === 'weights' ? (i, j) => mask.data[i * mask.cols + j] === 0 : null;
  const steps = heads.map((h) => trace.step(name, h, heatmapSide(heads.length)));
  const signed = name !== 'weights';
  const range = signed ? Math.max(...steps.map((s) => stepMaxAbs(s))) : 1;
  const scale = signed ? signedScale(range) : weightScale();
  const color = (v) => (Number.isFinite(v) ? scale(v) : '#ddd');
  // Named, so that the grids remember its colours across keystrokes (views/cell-style.js).
  color.domain = [scale.domain()[0], scale.domain().at(-1)];
  color.key = `heatmap:${color.domain}`;

  // Past 64 tokens a heatmap keeps its image's size a side (see matrix.js), not 8 px a cell.
  // …and never wider than the view (a wider drawing would be scaled down, its labels under 11 px).
  const side = Math.max(trace.nQuery, trace.nKey);
  const fit = (o.width - measureMatrix(steps[0], { cell: 8 }).left - 4) / side;
  const cell = Math.min(
    side <= 64 ? Math.max(8, Math.min(32, Math.floor(380 / side))) : heatmapSide(heads.length) / side,
    side <= 64 ? Math.floor(fit) : fit,
  );
  const label = o.strings.matrixNames[name] ?? name;
  const titleOf = (s) => `${o.strings.headN(s.head)} · ${label}`;
  const sizes = steps.map((s) => measureMatrix(s, { cell, title: titleOf(s) }));
  const gap = 24;
  const perRow = Math.max(1, Math.floor((o.width + gap) / (sizes[0].width + gap)));
  const width = Math.max(o.width, sizes[0].width);
  const rows = Math.ceil(steps.length / perRow);
  const height = 56 + rows * (sizes[0].height + gap);
  fitSvg(svg.node(), width, height);

  drawLegend(
    svg
      .selectAll('g.legend-slot')
      .data([0])
      .join((enter) => enter.append('g').attr('class', 'legend-slot').attr('transform', 'translate(4,4)')),
    color,
    signed ? [-range, range] : [0, 1],
    // Heads are compared side by side: one scale for all of them, and the legend says so.
    {
      label: `${label} (${o.strings.value})${heads.length > 1 ? ` · ${o.strings.sharedHeads}` : ''}`,
      hatchLabel: masked ? o.strings.masked : null,
    },
  );

  svg
    .selectAll('g.multiple')
    .data(steps, (s) => s.head)
    .join((enter) => enter.append('g').attr('class', 'multiple operand'))
    .call(putAttrs, {
      'data-step': name,
      'data-head': (s) => s.head,
      transform: (_, k) =>
        `translate(${(k % perRow) * (sizes[0].width + gap)},${56 + Math.floor(k / perRow) * (sizes[0].height + gap)})`,
    })
    .each(function draw(s) {
      drawMatrix(d3.select(this), s, {
        cell,
        color,
        title: titleOf(s),
        masked,
        numbers: true,
        picked: o.pair ? pickedPair(o.pair, s.head) : null,
        onCell: (i, j) => o.onPair?.({ head: s.head, i, j }),
      });
    });
}

/** The same numbers as an HTML table (one per head), for screen readers and copying. */
const MAX_TABLE_CELLS = 20000;

export function heatmapTables(container, trace, o) {
  const name = heatmapStepFor(o.step);
  const heads = o.head === 'all' ? d3.range(trace.heads) : [o.head];
  const cells = heads.length * trace.nQuery * trace.nKey;
  if (cells > MAX_TABLE_CELLS) {
    const note = document.createElement('p');
    note.className = 'hint';
    note.textContent = o.strings.tableTooLarge(cells);
    container.replaceChildren(note);
    return;
  }
  container.replaceChildren(
    ...heads.map((h) => {
      const s = trace.step(name, h, heatmapSide(heads.length));
      const table = document.createElement('table');
      table.className = 'data-table';
      const caption = document.createElement('caption');
      caption.textContent = `${o.strings.headN(h)} · ${o.strings.matrixNames[name] ?? name} [${s.rows} × ${s.cols}]`;
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
  sayWhatItShows(el('heatmap-shows'), ctx, { step: stepMaking(heatmapStepFor(state.step)) });
  // A cell picked here is marked, here and in the links view; the page stays in the heatmap.
  const onPair = (pair) => set({ pair });
  const o = { step: state.step, head: state.head, strings };
  drawHeatmaps(d3.select(el('heatmaps')), trace, { ...o, width, pair: state.pair, onPair });
  const toggle = el('table-toggle');
  // Its text is kept by explorer/render.js renderTexts too (data-i18n), in views not drawn.
  toggle.dataset.i18n = state.tables ? 'hideTable' : 'showTable';
  setText(toggle, strings[toggle.dataset.i18n]);
  toggle.setAttribute('aria-expanded', String(state.tables));
  toggle.onclick = () => set({ tables: !get().tables });
  el('heatmap-tables').hidden = !state.tables;
  if (state.tables) heatmapTables(el('heatmap-tables'), trace, o);
}
