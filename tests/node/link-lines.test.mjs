// The links view's hover on its canvas (web/src/views/link-lines.js lineAt): the line an SVG
// <line> of the same width, with round caps, would have caught under the pointer, the topmost
// one where lines overlap. Checked against distances measured by walking each line in small steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineAt, strokeLines } from '../../web/src/views/link-lines.js';

/** A seeded generator in [0, 1) (mulberry32). */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The least distance from (x, y) to the line, walking it in 1/4000 steps. */
function walkedDistance(holder, line, x, y) {
  let best = Infinity;
  for (let k = 0; k <= 4000; k++) {
    const t = k / 4000;
    const px = holder.left + t * (holder.right - holder.left);
    const py = line.y1 + t * (line.y2 - line.y1);
    best = Math.min(best, Math.hypot(x - px, y - py));
  }
  return best;
}

test('lineAt names the topmost line within half its width (2 px for hairlines) of the point, or null', () => {
  const next = random(7);
  const holder = { left: 150, right: 450, lines: [] };
  for (let k = 0; k < 40; k++)
    holder.lines.push({ i: k, y1: 30 + next() * 300, y2: 30 + next() * 300, width: 0.5 + next() * 10 });
  let hits = 0;
  let misses = 0;
  for (let k = 0; k < 400; k++) {
    const [x, y] = [120 + next() * 360, 10 + next() * 340];
    const reach = holder.lines.map((line) => walkedDistance(holder, line, x, y) - Math.max(2, line.width / 2));
    // The walk is exact to ~0.05 px: points on an edge could go either way.
    if (reach.some((r) => Math.abs(r) < 0.05)) continue;
    const inside = holder.lines.filter((_, n) => reach[n] < 0);
    const expected = inside.at(-1) ?? null;
    assert.equal(lineAt(holder, x, y), expected, `(${x.toFixed(2)}, ${y.toFixed(2)})`);
    if (expected) hits++;
    else misses++;
  }
  assert.ok(hits > 50 && misses > 50, `${hits} hits and ${misses} misses`);
});

test('lineAt reaches past a line’s ends by its round cap, and finds nothing with no lines', () => {
  const line = { y1: 100, y2: 100, width: 8 };
  const holder = { left: 0, right: 100, lines: [line] };
  assert.equal(lineAt(holder, -3.9, 100), line, 'inside the cap at the left end');
  assert.equal(lineAt(holder, -4.1, 100), null, 'past it');
  assert.equal(lineAt(holder, 102.5, 102.5), line, 'the cap is round: 3.5 px away diagonally');
  assert.equal(lineAt(holder, 103, 103), null, '4.2 px away diagonally');
  assert.equal(lineAt({ left: 0, right: 100, lines: [] }, 50, 50), null);
});

/** A 2D context that records its strokes: [{ color, alpha, width, cap, segments: [[x0, y0, x1, y1]] }]. */
function recorder(scale = 1) {
  const strokes = [];
  let path = [];
  let at = null;
  return {
    strokes,
    strokeStyle: null,
    globalAlpha: 1,
    lineWidth: 1,
    lineCap: 'butt',
    getTransform: () => ({ a: scale, b: 0, c: 0, d: scale }),
    beginPath: () => (path = []),
    moveTo: (x, y) => (at = [x, y]),
    lineTo(x, y) {
      path.push([...at, x, y]);
      at = [x, y];
    },
    stroke() {
      const { strokeStyle: color, globalAlpha: alpha, lineWidth: width, lineCap: cap } = this;
      strokes.push({ color, alpha, width, cap, segments: path });
    },
  };
}

test('strokeLines strokes each line once with its own style and in paint order, a run of one hairline style as one path', () => {
  const next = random(11);
  // Two heads' lines in paint order, a picked pair in its own colour among the first head's.
  const lines = [];
  for (const color of ['#0072b2', '#e69f00'])
    for (let k = 0; k < 300; k++) {
      const weight = next() < 0.7 ? 0.01 + next() * 0.04 : next() * 0.4;
      const pair = color === '#0072b2' && k === 150;
      lines.push({
        y1: next() * 600,
        y2: next() * 600,
        color: pair ? '#d62728' : color,
        width: (pair ? 2 : 0) + Math.max(0.5, weight * 9),
        opacity: pair ? 1 : Math.max(0.05, weight),
      });
    }
  const style = (l) => `${l.color} ${l.width} ${l.opacity}`;
  for (const scale of [1, 2, 3]) {
    const context = recorder(scale);
    strokeLines(context, lines, 280);
    const { strokes } = context;
    // Every line once, in paint order, from x = 0 to the span, with its colour, width and opacity, round-capped.
    const drawn = strokes.flatMap((s) =>
      s.segments.map(([x0, y1, x1, y2]) => `${x0} ${y1} ${x1} ${y2} ${s.color} ${s.width} ${s.alpha} ${s.cap}`),
    );
    assert.deepEqual(
      drawn,
      lines.map((l) => `0 ${l.y1} 280 ${l.y2} ${style(l)} round`),
      `scale ${scale}`,
    );
    // One stroke a run of a hairline style (at most 1 device px wide: scale 1 and 2 for 0.5 px),
    // one a line for the rest (one path of wider lines is filled once where they overlap).
    const runs = lines.filter((l, k) => k === 0 || style(l) !== style(lines[k - 1]) || l.width * scale > 1);
    assert.equal(strokes.length, runs.length, `scale ${scale}`);
    for (const s of strokes) if (s.width * scale > 1) assert.equal(s.segments.length, 1, `scale ${scale}`);
  }
  // The faintest lines often follow one another: far fewer strokes than lines at scale 1.
  const context = recorder(1);
  strokeLines(context, lines, 280);
  assert.ok(context.strokes.length < lines.length * 0.7, `${context.strokes.length} strokes for ${lines.length} lines`);
});
