// The links view's hover on its canvas (web/src/views/link-lines.js lineAt): the line an SVG
// <line> of the same width, with round caps, would have caught under the pointer, the topmost
// one where lines overlap. Checked against distances measured by walking each line in small steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineAt } from '../../web/src/views/link-lines.js';

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
