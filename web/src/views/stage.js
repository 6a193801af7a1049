// The stage: the current step drawn as an equation of matrices (X + PE = X', Q·Kᵀ = S, ...),
// animated as it enters. Operands are keyed, so a new trace at the same step updates the
// cells in place (colours and numbers transition) instead of redrawing.
import * as d3 from 'd3';
import { drawMatrix, measureMatrix, pickedCell } from './matrix.js';
import { duration } from '../motion.js';
import { drawLegends } from './legend.js';
import { forget, put, putAttrs, setTexts } from '../dom.js';

const GAP = 14;
// The explorer's stage draws its grids too small to print numbers as pictures with gaps past 128
// cells, not 400 (matrix.js): at 17–50 tokens X, PE and X' were 400–1,200 SVG cells that every
// keystroke restyled, laid out and painted (docs/benchmarks.md, "What changed up to e713c1e"). They
// look the same and take clicks too. (The matrices view, drawn by drawStage as well, keeps its own
// budget.)
export const STAGE_SMALL_CELLS = 128;
const OP_WIDTH = 26;
// The smallest cell that prints NUMBER_ROOM digit widths at the smallest font (matrix.js).
export const NUMBER_CELL = 32;

/** An operator's width: 9 px a character, 16 for a wide (CJK) one, as in "=（没有 W_O）". */
const opWidth = (text) =>
  Math.max(
    OP_WIDTH,
    [...text].reduce((w, c) => w + (c.codePointAt(0) >= 0x2e80 ? 16 : 9), 8),
  );

/** The widest line of the equation at this cell size (lines end at { lineBreak: true }). */
function rowWidth(operands, cell) {
  let widest = 0;
  let sum = 0;
  for (const o of operands) {
    if (o.lineBreak) {
      sum = 0;
      continue;
    }
    sum +=
      GAP +
      (o.op
        ? opWidth(o.op)
        : measureMatrix(o.step, { cell, title: o.title, transpose: o.transpose, showRowLabels: o.rowLabels !== false })
            .width);
    widest = Math.max(widest, sum);
  }
  return widest;
}

function cellSizeFor(operands, width, maxCell) {
  const matrices = operands.filter((o) => o.step);
  const ownLines = (cell) =>
    Math.max(...matrices.map((o) => measureMatrix(o.step, { cell, transpose: o.transpose }).width)) <= width;
  // Cells that print NUMBER_ROOM digit widths first (at 24 px step 4 showed "…" for
  // a quarter of its numbers and "1" for 1.22): the equation on one line, else each operand on a
  // line of its own. Then, where even that does not fit, the whole equation on one line with
  // cells of at least 20 px, else the largest cell (≤ maxCell) that fits each operand's line.
  // (Only where every grid is small enough to print its numbers as SVG cells: STAGE_SMALL_CELLS.)
  const numbers = matrices.every((o) => o.step.rows * o.step.cols <= STAGE_SMALL_CELLS);
  for (let cell = maxCell; numbers && cell >= NUMBER_CELL; cell -= 2)
    if (rowWidth(operands, cell) <= width) return cell;
  for (let cell = maxCell; numbers && cell >= NUMBER_CELL; cell -= 2) if (ownLines(cell)) return cell;
  for (let cell = maxCell; cell >= 20; cell -= 2) if (rowWidth(operands, cell) <= width) return cell;
  for (let cell = maxCell; cell > 4; cell -= 2) if (ownLines(cell)) return cell;
  // A long sentence: cells under 4 px, as fit (such matrices are images without labels).
  const cols = Math.max(...matrices.map((o) => (o.transpose ? o.step.rows : o.step.cols)));
  return Math.max(0.1, Math.min(4, (width - 8) / cols));
}

/** Lays operands out left to right, wrapping when the stage is too narrow. */
function layout(operands, width, cell) {
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  const placed = [];
  const sizes = operands.map((operand) =>
    operand.lineBreak
      ? null
      : operand.op
        ? { width: opWidth(operand.op), height: 0 }
        : measureMatrix(operand.step, {
            cell,
            title: operand.title,
            transpose: operand.transpose,
            showRowLabels: operand.rowLabels !== false,
            labelRoom: operand.labelRoom,
          }),
  );
  for (const [k, operand] of operands.entries()) {
    const size = sizes[k];
    if (operand.lineBreak) {
      if (x > 0) {
        x = 0;
        y += rowHeight + GAP * 2;
        rowHeight = 0;
      }
      continue;
    }
    // An operator wraps together with the matrix it leads to: never "· W_K =" alone at a line's end.
    const unit = operand.op && sizes[k + 1] ? size.width + GAP + sizes[k + 1].width : size.width;
    if (x > 0 && x + unit > width) {
      x = 0;
      y += rowHeight + GAP * 2;
      rowHeight = 0;
    }
    placed.push({ ...operand, x, y, size });
    x += size.width + GAP;
    rowHeight = Math.max(rowHeight, size.height);
  }
  for (const p of placed) if (p.op) p.y += (rowHeightOf(placed, p.y) || 0) / 2 + 12;
  return { placed, height: y + rowHeight };
}

function rowHeightOf(placed, y) {
  return Math.max(0, ...placed.filter((p) => !p.op && p.y === y).map((p) => p.size.height));
}

/**
 * @param svg d3 selection of the stage <svg>
 * @param operands from STEPS[i].operands(trace, head)
 * @param options { width, stepKey, onCell(operand, i, j), picked: the cell { name, head, i, j } of
 *                  a step whose arithmetic is shown (outlined wherever that step is drawn), or null,
 *                  maxCell, legend: { maskedLabel, note },
 *                  below(top, width) → the height drawn under the equation from y = top (the
 *                  stage's extras), or 0, smallCells: past this many cells a grid too small for
 *                  numbers is a picture with gaps (drawMatrix's smallCells and gaps; an operand's
 *                  own `gaps` says otherwise) }
 * Returns { cell, width, height }: the drawing's size, which the caller gives its svg (fit.js).
 */
export function drawStage(
  svg,
  operands,
  { width, stepKey, onCell, picked = null, maxCell = 34, legend = null, below = null, smallCells = undefined },
) {
  const cell = cellSizeFor(operands, width, maxCell);
  const { placed, height: equation } = layout(operands, width, cell);
  // Under the equation: a legend for each colour scale it uses (legend: { maskedLabel, note }).
  const legends = svg
    .selectAll('g.stage-legends')
    .data(legend ? [0] : [])
    .join((enter) => enter.append('g').attr('class', 'stage-legends'));
  putAttrs(legends, { transform: `translate(0,${equation + 18})` });
  const legendHeight = legend ? drawLegends(legends, operands, { width, ...legend }) : 0;
  const height = Math.max(40, equation + (legendHeight ? legendHeight + 18 : 0) + 8);
  const t = duration(400);

  // Operators repeat ("·" and "=" on each of step 2's three lines): each is keyed by its
  // occurrence, or the join would make the repeats anew (and remove the old) on every draw.
  const occurrences = new Map();
  for (const p of placed) {
    if (!p.op) continue;
    occurrences.set(p.op, (occurrences.get(p.op) ?? 0) + 1);
    p.key = `op:${p.op}:${occurrences.get(p.op)}`;
  }
  svg
    .selectAll('g.operand')
    .data(placed, (d) => `${stepKey}:${d.op ? d.key : d.id}`)
    .join(
      (enter) =>
        enter
          .append('g')
          .attr('class', (d) => (d.op ? 'operand operator' : 'operand matrix'))
          .attr('transform', (d) => `translate(${d.x},${d.y})`)
          .attr('opacity', t ? 0 : 1)
          .call((e) => t && e.transition('fade').duration(t).attr('opacity', 1)),
      // Named transitions: a re-render during the fade-in moves the operand without
      // interrupting its fade (an unnamed one did, and left it half transparent), and it
      // finishes the fade from wherever it is. Without motion (reduced, or a keystroke's
      // redraw) no transition is made at all: one of 0 ms still writes in the next frame.
      (update) =>
        update.call((u) =>
          t
            ? forget(u, ['opacity', 'transform'])
                .call((v) =>
                  v
                    .transition('move')
                    .duration(t)
                    .attr('transform', (d) => `translate(${d.x},${d.y})`),
                )
                .call((v) => v.transition('fade').duration(t).attr('opacity', 1))
            : putAttrs(u.interrupt('fade').interrupt('move'), {
                opacity: 1,
                transform: (d) => `translate(${d.x},${d.y})`,
              }),
        ),
      (exit) => exit.remove(),
    )
    .each(function draw(d) {
      const g = d3.select(this);
      if (d.op) {
        setTexts(
          g
            .selectAll('text')
            .data([d.op])
            .join((e) => e.append('text').attr('class', 'operator-text').attr('x', 4).attr('y', 0)),
          (op) => op,
        );
        return;
      }
      put(this, 'data-step', d.step.name);
      put(this, 'data-head', d.step.head ?? '');
      drawMatrix(g, d.step, {
        cell,
        color: d.color,
        title: d.title,
        transpose: d.transpose,
        labelRoom: d.labelRoom,
        animation: d.animation,
        masked: d.masked,
        globalTokens: d.globalTokens,
        columnColor: d.columnColor,
        image: d.image,
        picture: d.picture,
        smallCells,
        gaps: d.gaps ?? smallCells !== undefined,
        numbers: d.numbers ?? true,
        showRowLabels: d.rowLabels !== false,
        picked: pickedOn(d, picked),
        onCell: (i, j, event) => onCell?.(d, i, j, event),
      });
    });
  // After the operands, as they always came: what is drawn below the equation.
  const extra = below?.(height, width) ?? 0;
  return { cell, width, height: extra ? height + extra + 40 : height };
}

/** drawMatrix's `picked` for operand `d`: `cell` where d draws its step (Kᵀ transposed), or null. */
function pickedOn(d, cell) {
  if (!cell || d.step.name !== cell.name || (d.step.head ?? 0) !== cell.head) return null;
  return d.transpose ? pickedCell(cell.j, cell.i) : pickedCell(cell.i, cell.j);
}

/**
 * Step 4's sweep: a highlight moves along query row i of Q and key column j of Kᵀ while the
 * score cell (i, j) fills (the cells enter with the same row-major timing). Motion only.
 */
export function sweepHighlights(svg, cell) {
  const scores = svg.select('g.operand[data-step="scores"]');
  const q = svg.select('g.operand[data-step="qHead"] g.cells');
  const k = svg.select('g.operand[data-step="kHead"] g.cells');
  const cells = scores.selectAll('g.cell').data();
  // (Only over SVG cells: a grid drawn as a picture has no cell to read its size from.)
  const drawn = (g) => !g.empty() && !g.select('g.cell').empty();
  if (!cells.length || !drawn(q) || !drawn(k) || !duration(1)) return;
  const cols = d3.max(cells, (d) => d.j) + 1;
  const qWidth = (d3.max(q.selectAll('g.cell').data(), (d) => d.j) + 1) * cell;
  const kHeight = (d3.max(k.selectAll('g.cell').data(), (d) => d.i) + 1) * cell;
  q.selectAll('rect.sweep').remove();
  k.selectAll('rect.sweep').remove();
  const row = q.append('rect').attr('class', 'sweep').attr('width', qWidth).attr('height', cell);
  const col = k.append('rect').attr('class', 'sweep').attr('width', cell).attr('height', kHeight);
  row
    .transition('sweep')
    .duration(1600)
    .ease(d3.easeLinear)
    .tween('sweep', () => (u) => {
      const index = Math.min(cells.length - 1, Math.floor(u * cells.length));
      row.attr('y', Math.floor(index / cols) * cell);
      col.attr('x', (index % cols) * cell);
    })
    .on('end interrupt', () => {
      row.remove();
      col.remove();
    });
}
