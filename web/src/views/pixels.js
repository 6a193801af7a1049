// A canvas shown as an SVG <image>. The PNG is encoded with toBlob (Chromium encodes off the
// main thread) and shown by an object URL; exports read the canvas itself (export.js), since
// a figure leaving the page cannot reach a blob: URL.
const urls = new WeakMap();

/** Shows `canvas` in the d3 selection `image` (an SVG <image>), freeing the URL it replaces. */
export function showCanvas(image, canvas) {
  const node = image.node();
  node.pixels = canvas;
  canvas.toBlob((blob) => {
    if (node.pixels !== canvas || !blob) return; // a newer drawing replaced this one
    const old = urls.get(node);
    const url = URL.createObjectURL(blob);
    urls.set(node, url);
    node.setAttribute('href', url);
    if (old) URL.revokeObjectURL(old);
  });
}

/** The image's pixels as a data: URL (for a standalone figure), or null. */
export function pixelsDataURL(node) {
  return node.pixels?.toDataURL() ?? null;
}
