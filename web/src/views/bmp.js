// Pictures as images, not canvases: Chromium makes every 2D canvas a compositing layer, which
// costs every frame's layerize and commit (the matrices view's pictures, views/matrix-image.js;
// the model panel's sixteen heatmaps, models/paint.js: 4.5 ms of each frame's commit).

/** A BMP of `pixels` (packed RGBA, cell-style.js, rows × cols from the top left), as a data: URL. */
export function bmpURL(pixels, rows, cols) {
  const size = 54 + rows * cols * 4;
  const bytes = new Uint8Array(size);
  const header = new DataView(bytes.buffer);
  bytes.set([66, 77]); // "BM"
  header.setUint32(2, size, true);
  header.setUint32(10, 54, true); // where the pixels start
  header.setUint32(14, 40, true); // BITMAPINFOHEADER
  header.setInt32(18, cols, true);
  header.setInt32(22, -rows, true); // rows from the top down
  header.setUint16(26, 1, true);
  header.setUint16(28, 32, true); // BGRA, uncompressed
  for (let k = 0, at = 54; k < pixels.length; k++) {
    const c = pixels[k];
    bytes[at++] = (c >>> 16) & 255;
    bytes[at++] = (c >>> 8) & 255;
    bytes[at++] = c & 255;
    bytes[at++] = 255;
  }
  let text = '';
  for (let at = 0; at < size; at += 8192) text += String.fromCharCode(...bytes.subarray(at, at + 8192));
  return `data:image/bmp;base64,${btoa(text)}`;
}
