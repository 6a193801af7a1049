// Heatmaps of one step's n×m matrix (scores, scaled, masked or weights), one per head as small
// multiples, with token labels, a legend, masked cells hatched, and a table for screen readers.
import * as d3 from 'd3';
import { drawMatrix, measureMatrix } from './matrix.js';
import { drawLegend } from './legend.js';
import { formatShort, stepMaxAbs, signedScale, weightScale } from '../scales.js';
import { stepAt } from '../steps.js';

/** Which matrix the heatmaps show at step n (1-based): the step table's `heatmap` column. */
export const heatmapStepFor = (step) => stepAt(step).heatmap;

/** Largest side of a heatmap's data: small multiples of many heads need fewer pixels each. */
export function heatmapSide(heads) {
  return heads > 1 ? 256 : 512;
}

export function drawHeatmaps(svg, trace, o) {
  const name = heatmapStepFor(o.step);
  const heads = o.head === 'all' ? d3.range(trace.heads) : [o.head];
  const mask = trace.step('mask');
  const masked = name === 'masked' || name === 'weights' ? (i, j) => mask.data[i * mask.cols + j] === 0 : null;
  const steps = heads.map((h) => trace.step(name, h, heatmapSide(heads.length)));
  const signed = name !== 'weights';
  const range = signed ? Math.max(...steps.map((s) => stepMaxAbs(s))) : 1;
  const scale = signed ? signedScale(range) : weightScale();
  const color = (v) => (Number.isFinite(v) ? scale(v) : '#ddd');

  // Past 64 tokens a heatmap keeps its image's size a side (see matrix.js), not 8 px a cell.
  const side = Math.max(trace.nQuery, trace.nKey);
  const cell = side <= 64 ? Math.max(8, Math.min(32, Math.floor(380 / side))) : heatmapSide(heads.length) / side;
  const sizes = steps.map((s) => measureMatrix(s, { cell }));
  const gap = 24;
  const perRow = Math.max(1, Math.floor((o.width + gap) / (sizes[0].width + gap)));
  const width = Math.max(o.width, sizes[0].width);
  const rows = Math.ceil(steps.length / perRow);
  const height = 56 + rows * (sizes[0].height + gap);
  svg.attr('viewBox', `0 0 ${width} ${height}`).attr('height', height);

  drawLegend(
    svg.selectAll('g.legend-slot').data([0]).join('g').attr('class', 'legend-slot').attr('transform', 'translate(4,4)'),
    color,
    signed ? [-range, range] : [0, 1],
    { label: `${name} (${o.strings.value})`, hatchLabel: masked ? o.strings.masked : null },
  );

  svg
    .selectAll('g.multiple')
    .data(steps, (s) => s.head)
    .join('g')
    .attr('class', 'multiple operand')
    .attr('data-step', name)
    .attr('data-head', (s) => s.head)
    .attr(
      'transform',
      (_, k) =>
        `translate(${(k % perRow) * (sizes[0].width + gap)},${56 + Math.floor(k / perRow) * (sizes[0].height + gap)})`,
    )
    .each(function draw(s) {
      drawMatrix(d3.select(this), s, {
        cell,
        color,
        title: `${o.strings.headN(s.head)} · ${name}`,
        masked,
        numbers: true,
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
      caption.textContent = `${o.strings.headN(h)} · ${name} [${s.rows} × ${s.cols}]`;
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
