// Per-node state of the views: what a draw leaves for the next draw and for listeners made once
// (a grid's cells, a chart's values, a picture's cursor). Kept as d3.local() keeps it, under the
// local's own name on the node, instead of custom properties named in each module. Read from
// the node itself only: d3's local.get(node) falls back to the nearest ancestor's value, and a
// grid's cells <g> holds the <g> of its numbers, which keeps cells of its own.
//
//   const cells = nodeLocal();  cells.set(node, value) → value;  cells.get(node) → value | undefined
import * as d3 from 'd3';

export function nodeLocal() {
  const local = d3.local();
  const name = local.toString();
  return {
    get: (node) => node[name],
    set: (node, value) => local.set(node, value),
  };
}
