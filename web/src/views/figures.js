// What a view's canvas or cell picture shows, as SVG, for a figure leaving the page
// (explorer/export.js puts it in place of the live element): kept per node in a nodeLocal,
// set by the view that drew it (views/link-lines.js, views/matrix-image.js).
import { nodeLocal } from '../node-local.js';

const figures = nodeLocal();

/** `make()` returns the SVG element that stands for `node` in a figure. */
export const setFigure = (node, make) => figures.set(node, make);

/** The SVG element that stands for `node` in a figure, or null if its view gave none. */
export const figureOf = (node) => figures.get(node)?.() ?? null;
