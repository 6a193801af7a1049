// The layer in plain JS double precision: proof that the engine's output, which every other
// contender is compared with, is itself right.
function product(a, b, m, k, n) {
  const c = new Float64Array(m * n);
  for (let i = 0; i < m; i++) {
    const row = c.subarray(i * n, i * n + n);
    for (let t = 0; t < k; t++) {
      const ait = a[i * k + t];
      const bt = t * n;
      for (let j = 0; j < n; j++) row[j] += ait * b[bt + j];
    }
  }
  return c;
}

export function referenceForward({ n, d, heads, x, wQ, wK, wV, wO }) {
  const dK = d / heads;
  const [q, k, v] = [wQ, wK, wV].map((w) => product(x, w, n, d, d));
  const concat = new Float64Array(n * d);
  const scores = new Float64Array(n);
  for (let h = 0; h < heads; h++) {
    for (let i = 0; i < n; i++) {
      let max = -Infinity;
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let t = 0; t < dK; t++) s += q[i * d + h * dK + t] * k[j * d + h * dK + t];
        scores[j] = s / Math.sqrt(dK);
        max = Math.max(max, scores[j]);
      }
      let sum = 0;
      for (let j = 0; j < n; j++) sum += scores[j] = Math.exp(scores[j] - max);
      for (let j = 0; j < n; j++) {
        const a = scores[j] / sum;
        for (let t = 0; t < dK; t++) concat[i * d + h * dK + t] += a * v[j * d + h * dK + t];
      }
    }
  }
  return product(concat, wO, n, d, d);
}
