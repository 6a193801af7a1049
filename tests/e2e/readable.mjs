// Readability checks that run in the page (passed to page.evaluate, so each is self-contained)
// and WCAG contrast, computed in node.

/**
 * Labels under `selector` that overlap another label or stick out of their panel (or of their
 * <svg> where it clips). Each <text> is its bounding box mapped to the screen (a quadrilateral:
 * labels may be rotated), shrunk by 10% of its height top and bottom and 1 px at the sides,
 * since a text box includes the font's line gap. → ['"a" overlaps "b"', '"c" is clipped', …]
 */
export function labelProblems(selector) {
  const root = document.querySelector(selector);
  const quads = [];
  for (const text of root.querySelectorAll('text')) {
    if (!text.textContent.trim() || !text.getClientRects().length) continue;
    if (getComputedStyle(text).visibility === 'hidden' || Number(getComputedStyle(text).opacity) === 0) continue;
    const box = text.getBBox();
    if (!box.width || !box.height) continue;
    // In an svg inside a <foreignObject> (a picture's numbers, views/matrix.js drawNumbers),
    // Chromium's getScreenCTM counts the svg's offset on the page twice; such a text is never
    // rotated, and its client rect is its box on the screen.
    let m = text.getScreenCTM();
    if (text.closest('foreignObject')) {
      const { left, top, width } = text.getBoundingClientRect();
      const s = width / box.width;
      m = new DOMMatrix([s, 0, 0, s, left - s * box.x, top - s * box.y]);
    }
    const dy = box.height * 0.1;
    const corners = [
      [box.x + 1, box.y + dy],
      [box.x + box.width - 1, box.y + dy],
      [box.x + box.width - 1, box.y + box.height - dy],
      [box.x + 1, box.y + box.height - dy],
    ].map(([x, y]) => new DOMPoint(x, y).matrixTransform(m));
    const xs = corners.map((p) => p.x);
    const ys = corners.map((p) => p.y);
    const bounds = { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) };
    quads.push({ text, label: text.textContent, corners, bounds });
  }
  // Separating axes of two convex quadrilaterals: they overlap unless some edge normal
  // separates their projections.
  const axes = (q) =>
    q.corners.map((p, k) => {
      const next = q.corners[(k + 1) % 4];
      return { x: p.y - next.y, y: next.x - p.x };
    });
  const project = (q, a) => {
    const d = q.corners.map((p) => p.x * a.x + p.y * a.y);
    return [Math.min(...d), Math.max(...d)];
  };
  // Quadrilaterals whose bounding boxes are apart are apart (an axis-parallel line separates
  // them): most pairs of a large view end here, before the separating-axes test.
  const boxesMeet = (p, q) =>
    p.bounds.right > q.bounds.left &&
    q.bounds.right > p.bounds.left &&
    p.bounds.bottom > q.bounds.top &&
    q.bounds.bottom > p.bounds.top;
  const overlap = (p, q) =>
    boxesMeet(p, q) &&
    [...axes(p), ...axes(q)].every((a) => {
      const [p0, p1] = project(p, a);
      const [q0, q1] = project(q, a);
      return p1 > q0 && q1 > p0;
    });
  const found = [];
  for (let a = 0; a < quads.length; a++) {
    for (let b = a + 1; b < quads.length; b++) {
      if (overlap(quads[a], quads[b])) found.push(`"${quads[a].label}" overlaps "${quads[b].label}"`);
    }
    const q = quads[a];
    const panel = q.text.closest('.panel').getBoundingClientRect();
    // A picture's number (views/matrix.js drawNumbers) is clipped by its layer's box, in the view's svg.
    const layer = q.text.closest('foreignObject');
    const svg = layer ? layer.ownerSVGElement : q.text.ownerSVGElement;
    let clip = getComputedStyle(svg).overflow === 'visible' ? panel : svg.getBoundingClientRect();
    if (layer) {
      const box = layer.getBoundingClientRect();
      clip = {
        left: Math.max(clip.left, box.left),
        right: Math.min(clip.right, box.right),
        top: Math.max(clip.top, box.top),
        bottom: Math.min(clip.bottom, box.bottom),
      };
    }
    const inside = q.corners.every(
      (p) => p.x >= clip.left - 0.5 && p.x <= clip.right + 0.5 && p.y >= clip.top - 0.5 && p.y <= clip.bottom + 0.5,
    );
    if (!inside) found.push(`"${q.label}" is clipped`);
  }
  return found.slice(0, 20);
}

/**
 * Every visible piece of text on the page (shadow roots included) drawn smaller than `min` px:
 * HTML text at its computed font size, SVG text at its font size times the scale its <svg>
 * is drawn at. → ['12.0 px < 11: "label"', …]
 */
export function smallText(min) {
  const found = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) walk(el.shadowRoot);
      // KaTeX's struts are zero-width spaces at 2 px: no text a reader sees.
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && /[^\s\u200b]/.test(n.textContent));
      if (!own || !el.getClientRects().length || el.closest('[hidden], .visually-hidden, svg.defs')) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      let size = parseFloat(style.fontSize);
      if (el instanceof SVGElement) {
        const m = el.getScreenCTM();
        size *= Math.hypot(m.a, m.b);
      }
      if (size < min - 0.05)
        found.push(
          `${size.toFixed(1)} px < ${min}: <${el.localName} class="${el.getAttribute('class') ?? ''}"> "${el.textContent.trim().slice(0, 30)}"`,
        );
    }
  };
  walk(document);
  return found.slice(0, 20);
}

/** WCAG 2 contrast ratio of two CSS colours given as rgb()/rgba() strings or #rrggbb. */
export function contrast(a, b) {
  const [la, lb] = [a, b].map(luminance);
  return Math.round(((Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05)) * 100) / 100;
}

function luminance(colour) {
  const rgb = colour.startsWith('#')
    ? [1, 3, 5].map((k) => parseInt(colour.slice(k, k + 2), 16))
    : colour
        .match(/[\d.]+/g)
        .slice(0, 3)
        .map(Number);
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
