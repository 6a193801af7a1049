// The stage's positional-encoding waves (web/src/views/positional.js) are drawn as a few cubic
// Bézier curves: they must stay on the formula sin/cos(p / 10000^(2⌊c/2⌋/d)) everywhere between
// the positions, not only at them, as the polyline of ~12 points a position did.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wavePath } from '../../web/src/views/positional.js';

/** [[x0, y0], then per segment [c1, c2, end]] from "M x,y C x,y x,y x,y …". */
function parse(d) {
  assert.match(d, /^M[-\d.]+,[-\d.]+(C[-\d.]+,[-\d.]+ [-\d.]+,[-\d.]+ [-\d.]+,[-\d.]+)+$/);
  const points = d.match(/-?[\d.]+,-?[\d.]+/g).map((pair) => pair.split(',').map(Number));
  const segments = [];
  for (let k = 1; k < points.length; k += 3) segments.push([points[k - 1], ...points.slice(k, k + 3)]);
  return segments;
}

const bezier = (a, b, c, d, t) => (1 - t) ** 3 * a + 3 * (1 - t) ** 2 * t * b + 3 * (1 - t) * t ** 2 * c + t ** 3 * d;

for (const [dModel, n, width] of [
  [8, 8, 418],
  [8, 32, 418],
  [16, 64, 538],
  [64, 2048, 538],
  [8, 1, 418],
]) {
  test(`wavePath: d_model ${dModel}, ${n} tokens: every dimension's curve is the formula within 0.05 px (and x rounding)`, () => {
    const last = Math.max(1, n - 1);
    const xScale = width / last;
    for (let c = 0; c < dModel; c++) {
      const segments = parse(wavePath(c, dModel, last, xScale, 12));
      const angle = (p) => p / 10000 ** ((2 * Math.floor(c / 2)) / dModel);
      const formula = (p) => -12 * (c % 2 === 0 ? Math.sin(angle(p)) : Math.cos(angle(p)));
      assert.equal(segments[0][0][0], 0, 'starts at position 0');
      assert.ok(Math.abs(segments.at(-1)[3][0] - width) < 0.01, 'ends at the last position');
      // Coordinates are rounded to 0.01 px: on a steep wave (2,048 tokens in 538 px) an x off by
      // 0.005 px is a y off by the slope times that.
      const slack = (12 * angle(1) * 0.006) / xScale;
      let worst = 0;
      for (const [p0, p1, p2, p3] of segments)
        for (let t = 0; t <= 1; t += 1 / 16) {
          const x = bezier(p0[0], p1[0], p2[0], p3[0], t);
          const y = bezier(p0[1], p1[1], p2[1], p3[1], t);
          worst = Math.max(worst, Math.abs(y - formula(x / xScale)) - slack);
        }
      assert.ok(worst < 0.05, `dim ${c}: ${worst.toFixed(3)} px off the formula`);
    }
  });
}
