#include "attention/attend.hpp"

#include <algorithm>
#include <vector>

#include "attention/linear_attention.hpp"
#include "attention/mask.hpp"
#include "attention/softmax.hpp"
#include "attention/sparse_attention.hpp"
#include "attention/sparse_pattern.hpp"
#include "finite.hpp"
#include "gemm.hpp"
#include "projection.hpp"

namespace attention {
namespace {

constexpr int64_t kFloat = sizeof(float);

// Softmax heads on the dense path: one head's scores and weights at a time, in two buffers the
// heads share. Mask none reads no mask (every row all visible: the same weights, bit for bit).
Status DenseHeads(const Config& config, const Projected& p, float alpha, Matrix* concat,
                  int64_t* bytes) {
  const auto n = static_cast<int>(p.q.rows());
  const auto m = static_cast<int>(p.k.rows());
  const int d_k = config.ResolvedDK();
  const bool unmasked = config.mask.type == MaskType::kNone;
  MaskMatrix mask;
  if (!unmasked) mask = BuildMask(config.mask, n, m);
  Matrix scores(n, m), weights(n, m);
  std::vector<RowStats> stats(static_cast<size_t>(n));
  for (int h = 0; h < config.heads; ++h) {
    Gemm(p.q.middleCols(h * d_k, d_k), p.k.middleCols(h * d_k, d_k), TransposeB::kYes, scores);
    bool finite = true;
    if (unmasked) {
      for (int i = 0; i < n; ++i) {
        finite &= ScaledSoftmaxRow(scores.data() + static_cast<int64_t>(i) * m, alpha, m, nullptr,
                                   weights.data() + static_cast<int64_t>(i) * m, &stats[i]);
      }
    } else {
      finite = ScaledMaskedSoftmax(scores, alpha, mask, &weights, stats.data());
    }
    if (!finite) return Overflow("scaled", h);
    Gemm(weights, p.v.middleCols(h * d_k, d_k), TransposeB::kNo, concat->middleCols(h * d_k, d_k));
  }
  *bytes = 2 * kFloat * n * m + static_cast<int64_t>(mask.size()) +
           static_cast<int64_t>(sizeof(RowStats)) * n;
  return Status::Ok();
}

// Softmax heads over a sparse pattern: the pattern's key lists, built once for every head.
Status SparseHeads(const Config& config, const Projected& p, float alpha, Matrix* concat,
                   int64_t* bytes, int64_t* count) {
  const auto n = static_cast<int>(p.q.rows());
  const auto m = static_cast<int>(p.k.rows());
  const int d_k = config.ResolvedDK();
  const SparsePattern pattern = BuildSparsePattern(config.mask, n, m);
  std::vector<RowStats> stats(static_cast<size_t>(n));
  for (int h = 0; h < config.heads; ++h) {
    const auto cols = [&](const Matrix& whole) { return whole.middleCols(h * d_k, d_k); };
    if (!SparseAttentionHead(cols(p.q), cols(p.k), cols(p.v), pattern, alpha,
                             concat->middleCols(h * d_k, d_k), stats.data())) {
      return Overflow("scaled", h);
    }
  }
  int longest = 0;
  for (int i = 0; i < n; ++i) longest = std::max(longest, pattern.RowSize(i));
  *count = pattern.Count();
  *bytes = static_cast<int64_t>(sizeof(int)) * pattern.Count() +
           static_cast<int64_t>(sizeof(int64_t)) * (n + 1) + 2 * kFloat * longest +
           static_cast<int64_t>(sizeof(RowStats)) * n;
  return Status::Ok();
}

// Linear heads: φ of one head's Q and K at a time, and its dK × dK sums.
Status LinearHeads(const Config& config, const Projected& p, Matrix* concat, int64_t* bytes) {
  const auto n = static_cast<int>(p.q.rows());
  const auto m = static_cast<int>(p.k.rows());
  const int d_k = config.ResolvedDK();
  const bool causal = config.mask.type == MaskType::kCausal;
  Matrix summary(d_k, d_k), key_sum(1, d_k), normaliser(1, n);
  for (int h = 0; h < config.heads; ++h) {
    const Matrix phi_q = FeatureMap(p.q.middleCols(h * d_k, d_k));
    const Matrix phi_k = FeatureMap(p.k.middleCols(h * d_k, d_k));
    if (!LinearAttentionHead(phi_q, phi_k, p.v.middleCols(h * d_k, d_k), causal, summary, key_sum,
                             normaliser, concat->middleCols(h * d_k, d_k))) {
      return Overflow("headOutput", h);
    }
  }
  *bytes = kFloat * ((static_cast<int64_t>(n) + m) * d_k + d_k * d_k + d_k + n);
  return Status::Ok();
}

}  // namespace

Status Attend(const Config& config, const Input& input, Attended* out, WeightCache* cache) {
  Status status = ValidateConfig(config);
  if (!status.ok()) return status;
  status = ValidateInput(config, input, Limits::kMaxAttendTokens);
  if (!status.ok()) return status;
  Projected p;
  status = EmbedAndProject(config, input, cache, nullptr, &p);
  if (!status.ok()) return status;

  Attended a;
  Matrix concat(p.q.rows(), config.ProjectionWidth());
  const float alpha = ScoreScale(config);
  if (config.attention == AttentionKind::kLinear) {
    status = LinearHeads(config, p, &concat, &a.score_bytes);
  } else if (IsSparsePattern(config.mask.type)) {
    status = SparseHeads(config, p, alpha, &concat, &a.score_bytes, &a.computed_scores);
  } else {
    status = DenseHeads(config, p, alpha, &concat, &a.score_bytes);
    a.computed_scores = p.q.rows() * p.k.rows();
  }
  if (!status.ok()) return status;

  if (config.output_projection) {
    a.output.resize(concat.rows(), config.d_model);
    Gemm(concat, p.weights.w_o, TransposeB::kNo, a.output);
    AddBias(config.bias, p.weights.b_o, &a.output);
  } else {
    a.output = std::move(concat);
  }
  if (!AllFinite(a.output)) return Overflow("output", -1);
  *out = std::move(a);
  return Status::Ok();
}

}  // namespace attention
