#include "attention/sparse_attention.hpp"

#include <algorithm>
#include <limits>
#include <vector>

namespace attention {
namespace {

using RowMap = Eigen::Map<RowVector>;
using ConstRowMap = Eigen::Map<const RowVector>;

// Calls visit(c, j, len) for each run keys[c … c + len − 1] = j, j + 1, …, j + len − 1.
template <typename Visit>
void ForEachRun(const int* keys, int count, Visit visit) {
  int c = 0;
  while (c < count) {
    int len = 1;
    while (c + len < count && keys[c + len] == keys[c] + len) ++len;
    visit(c, keys[c], len);
    c += len;
  }
}

// s [count] = q_i · k_j for the row's keys j.
void RowScores(const SparseIn& q, const SparseIn& k, int i, const int* keys, int count, float* s) {
  const auto q_row = q.row(i);
  ForEachRun(keys, count, [&](int c, int j, int len) {
    if (len == 1) {
      s[c] = k.row(j).dot(q_row);
    } else {
      RowMap(s + c, len).noalias() = q_row * k.middleRows(j, len).transpose();
    }
  });
}

// out_i = Σ_c a[c] v_{keys[c]}.
void RowWeightedSum(const float* a, const SparseIn& v, const int* keys, int count, SparseOut& out,
                    int i) {
  auto out_row = out.row(i);
  out_row.setZero();
  ForEachRun(keys, count, [&](int c, int j, int len) {
    if (len == 1) {
      out_row += a[c] * v.row(j);
    } else {
      out_row.noalias() += ConstRowMap(a + c, len) * v.middleRows(j, len);
    }
  });
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
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  scores->setConstant(n, m, kNaN);
  scaled->setConstant(n, m, kNaN);
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
