// The cost panel's arithmetic, pure so that node tests it: which sequence lengths to measure,
// when to stop growing one kind (a time budget per run, so the panel ends in seconds on a
// small machine), and the slope of log(cost) against log(n), the exponent a complexity
// class predicts (2 for full attention's n² scores, 1 for a window's or linear attention's n).

/** The lengths measured: min, 2·min, 4·min, … up to max (both powers of two or not). */
export function costSizes(min, max) {
  if (!(Number.isInteger(min) && min >= 1)) throw new RangeError(`costSizes: min (${min}) must be an integer ≥ 1`);
  if (!(Number.isInteger(max) && max >= min))
    throw new RangeError(`costSizes: max (${max}) must be an integer ≥ min (${min})`);
  const sizes = [];
  for (let n = min; n <= max; n *= 2) sizes.push(n);
  return sizes;
}

/**
 * The next length to measure for one kind, or null when it is done: after the last of `sizes`,
 * or when the last run took more than `budgetMs` (the next, twice as long at least, would
 * take the panel past seconds). `measured` is that kind's [{ n, ms }] so far, in order.
 */
export function nextSize(sizes, measured, budgetMs) {
  if (measured.length === 0) return sizes[0] ?? null;
  const last = measured[measured.length - 1];
  if (!(last.ms <= budgetMs)) return null; // a NaN time stops the kind too
  const i = sizes.indexOf(last.n);
  return i >= 0 && i + 1 < sizes.length ? sizes[i + 1] : null;
}

/** The median of a non-empty list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The least-squares slope of log y against log x over the points with x ≥ from (all points when
 * fewer than two reach it: short sizes are dominated by fixed costs, so the fit starts where
 * the growth shows). Null, never NaN, when fewer than two usable points (x, y > 0, finite) remain.
 */
export function logLogSlope(points, from = 0) {
  const usable = points.filter(({ x, y }) => x > 0 && y > 0 && Number.isFinite(x) && Number.isFinite(y));
  const late = usable.filter(({ x }) => x >= from);
  const chosen = late.length >= 2 ? late : usable;
  if (chosen.length < 2) return null;
  const lx = chosen.map(({ x }) => Math.log(x));
  const ly = chosen.map(({ y }) => Math.log(y));
  const mx = lx.reduce((s, v) => s + v, 0) / lx.length;
  const my = ly.reduce((s, v) => s + v, 0) / ly.length;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < lx.length; i++) {
    sxy += (lx[i] - mx) * (ly[i] - my);
    sxx += (lx[i] - mx) ** 2;
  }
  return sxx > 0 ? sxy / sxx : null;
}
