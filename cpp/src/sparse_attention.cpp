#include "attention/sparse_attention.hpp"

#include <algorithm>
#include <limits>
#include <vector>

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

int LongestRow(const SparsePattern& pattern) {
  int longest = 0;
  for (int i = 0; i < pattern.n_query; ++i) longest = std::max(longest, pattern.RowSize(i));
  return longest;
}

}  // namespace

bool SparseAttentionHead(const SparseIn& q, const SparseIn& k, const SparseIn& v,
                         const SparsePattern& pattern, float alpha, SparseOut out,
                         RowStats* stats) {
  const int longest = LongestRow(pattern);
  std::vector<float> scores(static_cast<size_t>(longest)), weights(static_cast<size_t>(longest));
  bool finite = true;
  for (int i = 0; i < pattern.n_query; ++i) {
    const int* keys = pattern.Row(i);
    const int count = pattern.RowSize(i);
    // Pass 1: the scores of the row's keys; pass 2: their softmax; pass 3: the weighted sum.
    RowScores(q, k, i, keys, count, scores.data());
    finite &= ScaledSoftmaxRow(scores.data(), alpha, count, nullptr, weights.data(), &stats[i]);
    RowWeightedSum(weights.data(), v, keys, count, out, i);
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
