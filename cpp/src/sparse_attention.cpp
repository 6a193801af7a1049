#include "attention/sparse_attention.hpp"

#include <algorithm>
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

// Whether row i's keys are one contiguous run (a window's rows: |i − j| ≤ w, and j ≤ i if causal).
bool Contiguous(const SparsePattern& pattern, int i) {
  const int count = pattern.RowSize(i);
  return count > 0 && pattern.Row(i)[count - 1] - pattern.Row(i)[0] == count - 1;
}

// Rows [first, last) whose keys are each one contiguous run, as one tile: their keys lie in
// [lo, hi), so the scores are one GEMM [rows × (hi − lo)] and the weighted sum another, with each
// row's weights zero outside its run. A window of w = 128 in blocks of kBandRows computes 320
// scores a row for 257, but on the GEMM (in WebAssembly half the time a score of the per-row
// dot products). The same softmax as a row of the pattern; the sums differ only in rounding.
bool BandTile(const SparseIn& q, const SparseIn& k, const SparseIn& v, const SparsePattern& pattern,
              float alpha, int first, int last, SparseOut& out, RowStats* stats,
              std::vector<float>* scores, std::vector<float>* weights) {
  int lo = pattern.Row(first)[0], hi = lo;
  for (int i = first; i < last; ++i) {
    lo = std::min(lo, pattern.Row(i)[0]);
    hi = std::max(hi, pattern.Row(i)[pattern.RowSize(i) - 1] + 1);
  }
  const int rows = last - first;
  const int width = hi - lo;
  scores->resize(static_cast<size_t>(rows) * width);
  weights->assign(static_cast<size_t>(rows) * width, 0.0f);
  Eigen::Map<Matrix> s(scores->data(), rows, width);
  Eigen::Map<Matrix> a(weights->data(), rows, width);
  Gemm(q.middleRows(first, rows), k.middleRows(lo, width), TransposeB::kYes, s);
  bool finite = true;
  for (int i = first; i < last; ++i) {
    const int offset = pattern.Row(i)[0] - lo;
    const auto r = static_cast<Eigen::Index>(i - first) * width + offset;
    finite &= ScaledSoftmaxRow(scores->data() + r, alpha, pattern.RowSize(i), nullptr,
                               weights->data() + r, &stats[i]);
  }
  Gemm(a, v.middleRows(lo, width), TransposeB::kNo, out.middleRows(first, rows));
  return finite;
}

}  // namespace

bool SparseAttentionHead(const SparseIn& q, const SparseIn& k, const SparseIn& v,
                         const SparsePattern& pattern, float alpha, SparseOut out,
                         RowStats* stats) {
  const int longest = LongestRow(pattern);
  std::vector<float> scores(static_cast<size_t>(longest)), weights(static_cast<size_t>(longest));
  bool finite = true;
  std::vector<float> tile_scores, tile_weights;
  for (int i = 0; i < pattern.n_query;) {
    // A block of rows each of one contiguous run of keys (a window) goes through BandTile when
    // the runs are long enough to make GEMM tiles worth it.
    const int end = std::min(i + kBandRows, pattern.n_query);
    bool band = pattern.RowSize(i) >= kMinBandKeys;
    for (int r = i; band && r < end; ++r) band = Contiguous(pattern, r);
    if (band) {
      finite &= BandTile(q, k, v, pattern, alpha, i, end, out, stats, &tile_scores, &tile_weights);
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
