#include "attention/sparse_attention.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "gemm.hpp"

namespace attention {
namespace {

// q·k over n floats in four partial sums (d mod 4), which the compiler packs into one SIMD
// register (WASM SIMD128 too, where Eigen's matrix–vector products are scalar).
inline float Dot(const float* a, const float* b, int n) {
  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
  int d = 0;
  for (; d + 4 <= n; d += 4) {
    s0 += a[d] * b[d];
    s1 += a[d + 1] * b[d + 1];
    s2 += a[d + 2] * b[d + 2];
    s3 += a[d + 3] * b[d + 3];
  }
  for (; d < n; ++d) s0 += a[d] * b[d];
  return (s0 + s1) + (s2 + s3);
}

// s [count] = q_i · k_j for the row's keys j.
void RowScores(const SparseIn& q, const SparseIn& k, int i, const int* keys, int count, float* s) {
  const auto d_k = static_cast<int>(q.cols());
  const float* q_row = q.data() + i * q.outerStride();
  for (int c = 0; c < count; ++c) s[c] = Dot(q_row, k.data() + keys[c] * k.outerStride(), d_k);
}

// out_i = Σ_c a[c] v_{keys[c]}.
void RowWeightedSum(const float* a, const SparseIn& v, const int* keys, int count, SparseOut& out,
                    int i) {
  const auto d_k = static_cast<int>(v.cols());
  float* out_row = out.data() + i * out.outerStride();
  for (int d = 0; d < d_k; ++d) out_row[d] = 0.0f;
  for (int c = 0; c < count; ++c) {
    const float weight = a[c];
    const float* v_row = v.data() + keys[c] * v.outerStride();
    for (int d = 0; d < d_k; ++d) out_row[d] += weight * v_row[d];
  }
}

// BandTile's rows a tile, and the shortest run it takes: a tile of w = 128 computes
// (64 + 256)/257 ≈ 1.25 times the scores; below 32 keys a row the waste outweighs the GEMM.
constexpr int kBandRows = 64;
constexpr int kMinBandKeys = 32;

int LongestRow(const SparsePattern& pattern) {
  int longest = 0;
  for (int i = 0; i < pattern.n_query; ++i) longest = std::max(longest, pattern.RowSize(i));
  return longest;
}

// Row i's longest run of consecutive keys: its first index c in the row and its length (a
// window's row is one run; Longformer's and BigBird's add global and random keys beside it).
struct Run {
  int first = 0;
  int length = 0;
};
Run LongestRun(const SparsePattern& pattern, int i) {
  const int* keys = pattern.Row(i);
  const int count = pattern.RowSize(i);
  Run best;
  for (int c = 0; c < count;) {
    int e = c + 1;
    while (e < count && keys[e] == keys[e - 1] + 1) ++e;
    if (e - c > best.length) best = {c, e - c};
    c = e;
  }
  return best;
}

// The rows a tile takes from `first`: up to kBandRows rows whose runs have at least kMinBandKeys
// keys, while the tile's span of keys times its rows stays within 1.5 times the runs' keys
// (a window of 128: 320 a row for 257; a global query's run of every key goes alone).
int TileEnd(const SparsePattern& pattern, const std::vector<Run>& runs, int first) {
  int lo = 0, hi = 0;
  int64_t keys = 0;
  int last = first;
  for (int i = first; i < std::min(first + kBandRows, pattern.n_query); ++i) {
    const Run& run = runs[static_cast<size_t>(i)];
    if (run.length < kMinBandKeys) break;
    const int run_lo = pattern.Row(i)[run.first];
    const int new_lo = i == first ? run_lo : std::min(lo, run_lo);
    const int new_hi = i == first ? run_lo + run.length : std::max(hi, run_lo + run.length);
    const int64_t new_keys = keys + run.length;
    if (2 * static_cast<int64_t>(new_hi - new_lo) * (i - first + 1) > 3 * new_keys) break;
    lo = new_lo;
    hi = new_hi;
    keys = new_keys;
    last = i + 1;
  }
  return last;
}

// Rows [first, last) as one tile: their runs lie in keys [lo, hi), so the runs' scores are one
// GEMM [rows × (hi − lo)] and their weighted sum another, with each row's weights zero outside
// its run; a row's other keys (global, random) take a dot product and a row update each. A window
// of w = 128 in tiles of kBandRows computes 320 scores a row for 257, but on the GEMM (in
// WebAssembly half the time a score of the per-row dot products). The same softmax as a row of
// the pattern; the sums differ only in rounding.
bool BandTile(const SparseIn& q, const SparseIn& k, const SparseIn& v, const SparsePattern& pattern,
              const std::vector<Run>& runs, float alpha, int first, int last, SparseOut& out,
              RowStats* stats, std::vector<float>* tile, std::vector<float>* row) {
  const auto run_lo = [&](int i) { return pattern.Row(i)[runs[static_cast<size_t>(i)].first]; };
  int lo = run_lo(first), hi = lo;
  for (int i = first; i < last; ++i) {
    lo = std::min(lo, run_lo(i));
    hi = std::max(hi, run_lo(i) + runs[static_cast<size_t>(i)].length);
  }
  const int rows = last - first;
  const int width = hi - lo;
  const auto d_k = static_cast<int>(q.cols());
  // scores, weights [rows × width], then the other keys' weighted values [rows × dK].
  tile->resize(static_cast<size_t>(rows) * (2 * width + d_k));
  Eigen::Map<Matrix> s(tile->data(), rows, width);
  Eigen::Map<Matrix> a(tile->data() + static_cast<size_t>(rows) * width, rows, width);
  Eigen::Map<Matrix> extra(tile->data() + static_cast<size_t>(rows) * 2 * width, rows, d_k);
  a.setZero();
  extra.setZero();
  Gemm(q.middleRows(first, rows), k.middleRows(lo, width), TransposeB::kYes, s);
  bool finite = true;
  bool any_extra = false;
  for (int i = first; i < last; ++i) {
    const int* keys = pattern.Row(i);
    const int count = pattern.RowSize(i);
    const Run& run = runs[static_cast<size_t>(i)];
    const int r = i - first;
    const int offset = run_lo(i) - lo;
    float* x = row->data();
    float* w = row->data() + count;
    // The row's scores in key order: the run's from the tile, the others by dot products.
    RowScores(q, k, i, keys, run.first, x);
    std::copy_n(&s(r, offset), run.length, x + run.first);
    const int after = run.first + run.length;
    RowScores(q, k, i, keys + after, count - after, x + after);
    finite &= ScaledSoftmaxRow(x, alpha, count, nullptr, w, &stats[i]);
    std::copy_n(w + run.first, run.length, &a(r, offset));
    for (int c = 0; c < count; ++c) {
      if (c == run.first) c = after;
      if (c >= count) break;
      any_extra = true;
      const float* v_row = v.data() + keys[c] * v.outerStride();
      for (int d = 0; d < d_k; ++d) extra(r, d) += w[c] * v_row[d];
    }
  }
  Gemm(a, v.middleRows(lo, width), TransposeB::kNo, out.middleRows(first, rows));
  if (any_extra) out.middleRows(first, rows) += extra;
  return finite;
}

}  // namespace

bool SparseAttentionHead(const SparseIn& q, const SparseIn& k, const SparseIn& v,
                         const SparsePattern& pattern, float alpha, SparseOut out,
                         RowStats* stats) {
  const int longest = LongestRow(pattern);
  std::vector<float> scores(static_cast<size_t>(longest)), weights(static_cast<size_t>(longest));
  bool finite = true;
  // Each row's longest run of consecutive keys: rows whose runs are long go in GEMM tiles.
  std::vector<Run> runs(static_cast<size_t>(pattern.n_query));
  for (int i = 0; i < pattern.n_query; ++i) runs[static_cast<size_t>(i)] = LongestRun(pattern, i);
  std::vector<float> tile, row(2 * static_cast<size_t>(longest));
  for (int i = 0; i < pattern.n_query;) {
    const int end = TileEnd(pattern, runs, i);
    if (end > i) {
      finite &= BandTile(q, k, v, pattern, runs, alpha, i, end, out, stats, &tile, &row);
      i = end;
      continue;
    }
    const int* keys = pattern.Row(i);
    const int count = pattern.RowSize(i);
    // Pass 1: the scores of the row's keys; pass 2: their softmax; pass 3: the weighted sum.
    RowScores(q, k, i, keys, count, scores.data());
    finite &= ScaledSoftmaxRow(scores.data(), alpha, count, nullptr, weights.data(), &stats[i]);
    RowWeightedSum(weights.data(), v, keys, count, out, i);
    ++i;
  }
  return finite;
}

void SparseHeadSteps(const SparseIn& q, const SparseIn& k, const SparsePattern& pattern,
                     float alpha, Matrix* scores, Matrix* scaled, Matrix* masked, Matrix* weights,
                     RowStats* stats) {
  const int n = pattern.n_query;
  const int m = pattern.n_key;
  // The page teaches QKᵀ, then ÷√d_k, then the mask: the steps read for display show every
  // score of this one head, as a dense mask's do (O(n·m·d_k), only when read). The output and
  // the summary never use the ones outside the pattern.
  scores->resize(n, m);
  scaled->resize(n, m);
  const auto d_k = static_cast<int>(q.cols());
  for (int i = 0; i < n; ++i) {
    const float* q_row = q.data() + i * q.outerStride();
    for (int j = 0; j < m; ++j) {
      (*scores)(i, j) = Dot(q_row, k.data() + j * k.outerStride(), d_k);
      (*scaled)(i, j) = (*scores)(i, j) * alpha;
    }
  }
  masked->setConstant(n, m, -std::numeric_limits<float>::infinity());
  weights->setZero(n, m);
  const int longest = LongestRow(pattern);
  std::vector<float> s(static_cast<size_t>(longest)), x(static_cast<size_t>(longest)),
      a(static_cast<size_t>(longest));
  for (int i = 0; i < n; ++i) {
    const int* keys = pattern.Row(i);
    const int count = pattern.RowSize(i);
    RowScores(q, k, i, keys, count, s.data());
    ScaledSoftmaxRow(s.data(), alpha, count, x.data(), a.data(), &stats[i]);
    for (int c = 0; c < count; ++c) {
      const int j = keys[c];
      (*scores)(i, j) = s[static_cast<size_t>(c)];
      (*scaled)(i, j) = x[static_cast<size_t>(c)];
      (*masked)(i, j) = x[static_cast<size_t>(c)];
      (*weights)(i, j) = a[static_cast<size_t>(c)];
    }
  }
}

}  // namespace attention
