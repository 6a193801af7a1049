// compact (chrome-flags.js): the view shown fills its frame, scaled up or down (a CSS transform)
// so that its drawing — not its panel, which is as wide as the frame — is as large as the frame
// less its caption allows, centred. Only scaling down left a links figure in the top third of a
// 1280×720 slide (its drawing is 620 px wide at most) and a heatmap in half a 900 px column. A
// view may grow after its draw (the matrices fill in as the trace's steps arrive): each panel's
// size is watched.
//
// The frame: the window for the embed page (an iframe is its frame); for the web component,
// its element's width and the height its page gives it, else 9/16 of its width.
//
//   const stop = fitToFrame(root);   // while root has the class compact; stop() on destroy

// Room kept free inside the frame around the drawing (px).
const MARGIN = 8;
// Never larger than this: a two-token sentence would otherwise be a wall of four cells.
const MAX_SCALE = 4;

// The transform last written on a panel: its measured boxes are converted back by it.
const written = new WeakMap();

/** The box (px, in the panel's own unscaled coordinates) of what `panel` draws. */
function drawingBox(panel, scale, origin) {
  let box = null;
  const add = (r) => {
    if (!r || r.width <= 0 || r.height <= 0) return;
    const b = {
      left: (r.left - origin.x) / scale,
      top: (r.top - origin.y) / scale,
      right: (r.right - origin.x) / scale,
      bottom: (r.bottom - origin.y) / scale,
    };
    box = box
      ? {
          left: Math.min(box.left, b.left),
          top: Math.min(box.top, b.top),
          right: Math.max(box.right, b.right),
          bottom: Math.max(box.bottom, b.bottom),
        }
      : b;
  };
  const visit = (el) => {
    if (el.hidden || el.getClientRects().length === 0) return;
    if (el instanceof SVGSVGElement) {
      // An svg is as wide as its panel: its drawing is its children's extent, within the box
      // that shows its drawing (views/fit.js: the svg keeps room to spare below, and a canvas
      // in it is as tall as that room).
      const shown = (el.parentElement.classList.contains('svg-fit') ? el.parentElement : el).getBoundingClientRect();
      for (const child of el.children) {
        if (child.tagName === 'defs') continue;
        const r = child.getBoundingClientRect();
        const top = Math.max(r.top, shown.top);
        const bottom = Math.min(r.bottom, shown.bottom);
        add({ left: r.left, right: r.right, top, bottom, width: r.width, height: bottom - top });
      }
    } else if (el.querySelector('svg')) {
      for (const child of el.children) visit(child);
    } else {
      // A paragraph is as wide as its panel: its text's extent.
      const range = document.createRange();
      range.selectNodeContents(el);
      add(el.children.length || el.textContent.trim() ? range.getBoundingClientRect() : null);
    }
  };
  for (const child of panel.children) visit(child);
  return box;
}

/** The frame a compact figure fills: { width, height } (px). */
export function frameOf(root) {
  const inShadow = root.getRootNode() instanceof ShadowRoot;
  const width = root.clientWidth;
  if (!inShadow) return { width, height: window.innerHeight };
  const host = root.getRootNode().host;
  const given = host.style.height || getComputedStyle(host).height;
  const height = given && given !== 'auto' && host.clientHeight > 0 ? host.clientHeight : Math.round((width * 9) / 16);
  return { width, height };
}

function fit(root) {
  const panel = root.querySelector('[data-panel]:not([hidden])');
  if (!panel) return;
  const last = written.get(panel) ?? { x: 0, y: 0, scale: 1 };
  const rect = panel.getBoundingClientRect();
  // The panel's untransformed top left, where its layout puts it.
  const origin = { x: rect.left - last.x, y: rect.top - last.y };
  const box = drawingBox(panel, last.scale, { x: rect.left, y: rect.top });
  if (!box) return;
  const frame = frameOf(root);
  const views = root.querySelector('.views');
  const natural = panel.offsetHeight;
  const laid = natural + (parseFloat(panel.style.marginBottom) || 0);
  // What the frame holds besides the panel: what is above it, the caption below, paddings.
  const rootTop = root.getBoundingClientRect().top;
  const above = origin.y - rootTop;
  const below = views.getBoundingClientRect().bottom - (origin.y + laid);
  const room = { width: frame.width - 2 * MARGIN, height: frame.height - above - below - 2 * MARGIN - 1 };
  const width = box.right - box.left;
  const height = box.bottom - box.top;
  if (room.height <= 0 || width <= 0 || height <= 0) return;
  const scale = Math.min(MAX_SCALE, room.width / width, room.height / height);
  // Centred in the frame's width and in the room's height; the panel's layout is the room's height.
  const rootLeft = root.getBoundingClientRect().left;
  const x = rootLeft + (frame.width - width * scale) / 2 - origin.x - box.left * scale;
  const y = MARGIN + (room.height - height * scale) / 2 - box.top * scale;
  written.set(panel, { x, y, scale });
  panel.style.transformOrigin = '0 0';
  panel.style.transform = `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px) scale(${scale.toFixed(4)})`;
  panel.style.marginBottom = `${(room.height + 2 * MARGIN - natural).toFixed(1)}px`;
}

export function fitToFrame(root) {
  // Fitted after the frame's draw settles: a view's own ResizeObserver redraws it first.
  let queued = false;
  const later = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fit(root);
    });
  };
  const observer = new ResizeObserver(later);
  for (const panel of root.querySelectorAll('[data-panel]')) observer.observe(panel);
  // A redraw that keeps the panel's size may still move its drawing (a new step, a new head).
  const mutations = new MutationObserver(later);
  mutations.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['hidden', 'viewBox'] });
  window.addEventListener('resize', later);
  later();
  return () => {
    observer.disconnect();
    mutations.disconnect();
    window.removeEventListener('resize', later);
  };
}
