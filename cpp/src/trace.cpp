#include "attention/trace.hpp"

#include <cmath>
#include <utility>

#include "attention/linear_attention.hpp"
#include "attention/mask.hpp"
#include "attention/parallel.hpp"
#include "attention/sparse_attention.hpp"
#include "finite.hpp"
#include "format.hpp"
#include "gemm.hpp"
#include "projection.hpp"

namespace attention {
namespace {

constexpr Axis kQ = Axis::kQuery;
constexpr Axis kK = Axis::kKey;
constexpr Axis kD = Axis::kModel;
constexpr Axis kP = Axis::kProjection;
constexpr Axis kH = Axis::kHeadDim;
constexpr Axis k1 = Axis::kOne;

// scores = Q_h·K_hᵀ [n × m] of one head (step 4).
void HeadScores(const Matrix& q, const Matrix& k, int head, int d_k, Matrix* scores) {
  scores->resize(q.rows(), k.rows());
  Gemm(q.middleCols(head * d_k, d_k), k.middleCols(head * d_k, d_k), TransposeB::kYes, *scores);
}

// Steps 4–7 of one head, every matrix kept: what a view of scores, scaled, masked or weights
// recomputes (Trace::Run computes only the weights, bit for bit the same).
void HeadSteps(const Matrix& q, const Matrix& k, const MaskMatrix& mask, int head, int d_k,
               float alpha, Matrix* scores, Matrix* scaled, Matrix* masked, Matrix* weights,
               RowStats* stats) {
  HeadScores(q, k, head, d_k, scores);
  *scaled = *scores * alpha;
  MaskedSoftmax(*scaled, mask, masked, weights, stats);
}

// A linear trace keeps the softmax steps scores … weights of the same Q and K for comparison,
// recomputed by View: it refuses, as a softmax trace does, inputs whose α·scores overflow. By
// Cauchy–Schwarz |α·q_i·k_j| ≤ α·max_i |q_i|·max_j |k_j|; only when that bound is not finite is
// the head's n×m score matrix formed, once, to look.
bool SoftmaxComparisonIsFinite(const Matrix& q, const Matrix& k, int head, int d_k, float alpha) {
  const float max_q = q.middleCols(head * d_k, d_k).rowwise().norm().maxCoeff();
  const float max_k = k.middleCols(head * d_k, d_k).rowwise().norm().maxCoeff();
  if (std::isfinite(alpha * max_q * max_k)) return true;
  Matrix scores;
  HeadScores(q, k, head, d_k, &scores);
  scores *= alpha;
  return AllFinite(scores);
}

}  // namespace

const std::vector<StepInfo>& StepCatalog() {
  constexpr auto of = [](Source kind, Matrix Trace::*m) {
    return StepSource{kind, m, nullptr, nullptr};
  };
  constexpr auto stored = [of](Matrix Trace::*m) { return of(Source::kStored, m); };
  constexpr auto weight = [](Matrix Weights::*w) {
    return StepSource{Source::kWeight, nullptr, w, nullptr};
  };
  constexpr auto slice = [of](Matrix Trace::*m) { return of(Source::kHeadSlice, m); };
  constexpr auto row = [of](Matrix Trace::*m) { return of(Source::kHeadRow, m); };
  constexpr auto head = [of](Matrix Trace::*m) { return of(Source::kHeadStep, m); };
  constexpr auto computed = [](ComputeStep f) {
    return StepSource{Source::kComputed, nullptr, nullptr, f};
  };
  // rowMasked [n × 1]: 1 where the mask hides every key of query i (its weights are all 0).
  constexpr ComputeStep row_masked = [](const Trace& t, int, Matrix* out) {
    out->resize(t.n_query(), 1);
    for (int i = 0; i < t.n_query(); ++i) {
      const bool none = t.sparse_ ? t.pattern_.RowSize(i) == 0 : !t.mask_.row(i).any();
      (*out)(i, 0) = none ? 1.0f : 0.0f;
    }
  };
  using T = Trace;
  using W = Weights;
  using P = Presence;
  // With linear attention the softmax steps scores … weights stay, recomputed from the same Q
  // and K on demand, to set beside linearWeights; only the statistics Run keeps are softmax's.
  static const std::vector<StepInfo> steps = {
      {"x", false, kQ, kD, P::kAlways, stored(&T::x_)},
      {"pe", false, kQ, kD, P::kAlways, stored(&T::pe_)},
      {"xPe", false, kQ, kD, P::kAlways, stored(&T::x_pe_)},
      {"xKv", false, kK, kD, P::kCross, stored(&T::x_kv_)},
      {"peKv", false, kK, kD, P::kCross, stored(&T::pe_kv_)},
      {"xPeKv", false, kK, kD, P::kCross, stored(&T::x_pe_kv_)},
      {"wQ", false, kD, kP, P::kAlways, weight(&W::w_q)},
      {"wK", false, kD, kP, P::kAlways, weight(&W::w_k)},
      {"wV", false, kD, kP, P::kAlways, weight(&W::w_v)},
      {"bQ", false, k1, kP, P::kAlways, weight(&W::b_q)},
      {"bK", false, k1, kP, P::kAlways, weight(&W::b_k)},
      {"bV", false, k1, kP, P::kAlways, weight(&W::b_v)},
      {"q", false, kQ, kP, P::kAlways, stored(&T::q_)},
      {"k", false, kK, kP, P::kAlways, stored(&T::k_)},
      {"v", false, kK, kP, P::kAlways, stored(&T::v_)},
      {"qHead", true, kQ, kH, P::kAlways, slice(&T::q_)},
      {"kHead", true, kK, kH, P::kAlways, slice(&T::k_)},
      {"vHead", true, kK, kH, P::kAlways, slice(&T::v_)},
      {"scores", true, kQ, kK, P::kAlways, head(&T::head_scores_)},
      {"scaled", true, kQ, kK, P::kAlways, head(&T::head_scaled_)},
      {"mask", false, kQ, kK, P::kAlways, of(Source::kMask, &T::mask_values_)},
      {"masked", true, kQ, kK, P::kAlways, head(&T::head_masked_)},
      {"weights", true, kQ, kK, P::kAlways, head(&T::head_weights_)},
      {"rowMasked", false, kQ, k1, P::kAlways, computed(row_masked)},
      {"rowMax", true, kQ, k1, P::kSoftmax, row(&T::row_max_)},
      {"rowEntropy", true, kQ, k1, P::kSoftmax, row(&T::row_entropy_)},
      {"phiQ", true, kQ, kH, P::kLinear, slice(&T::phi_q_)},
      {"phiK", true, kK, kH, P::kLinear, slice(&T::phi_k_)},
      {"kvSummary", true, kH, kH, P::kLinear, slice(&T::kv_summary_)},
      {"keySum", true, k1, kH, P::kLinear, slice(&T::key_sum_)},
      {"normaliser", true, kQ, k1, P::kLinear, row(&T::normaliser_)},
      {"linearWeights", true, kQ, kK, P::kLinear, head(&T::head_linear_weights_)},
      {"headOutput", true, kQ, kH, P::kAlways, slice(&T::concat_)},
      {"concat", false, kQ, kP, P::kAlways, stored(&T::concat_)},
      {"wO", false, kP, kD, P::kAlways, weight(&W::w_o)},
      {"bO", false, k1, kD, P::kAlways, weight(&W::b_o)},
      {"output", false, kQ, kD, P::kAlways, stored(&T::output_)},
  };
  return steps;
}

const StepInfo* FindStep(std::string_view name) {
  for (const StepInfo& info : StepCatalog()) {
    if (name == info.name) return &info;
  }
  return nullptr;
}

bool Trace::SpreadsHeads(int n, int m, int heads) {
  return heads > 1 && static_cast<int64_t>(n) * m * heads >= kMinSpreadWork;
}

bool Trace::SpreadsProjections(int n, int m, int d_model, int width) {
  return static_cast<int64_t>(n + 2 * m) * d_model * width >= kMinProjectionWork;
}

Status Trace::Run(const Config& config, const Input& input, Trace* trace, WeightCache* cache,
                  ThreadPool* pool) {
  Status status = ValidateConfig(config);
  if (!status.ok()) return status;
  status = ValidateInput(config, input);
  if (!status.ok()) return status;

  Trace t;
  t.config_ = config;
  t.cross_ = input.cross;
  t.tokens_ = input.tokens;
  if (input.cross) t.kv_tokens_ = input.kv_tokens;
  const int n = t.n_query();
  const int m = t.n_key();
  const int d = config.d_model;
  const int d_k = config.ResolvedDK();
  const int width = config.ProjectionWidth();

  // Steps 1–2: embeddings, weights, projections (projection.hpp).
  Projected p;
  status = EmbedAndProject(config, input, cache, pool, &p);
  if (!status.ok()) return status;
  t.x_ = std::move(p.x);
  t.pe_ = std::move(p.pe);
  t.x_pe_ = std::move(p.x_pe);
  t.x_kv_ = std::move(p.x_kv);
  t.pe_kv_ = std::move(p.pe_kv);
  t.x_pe_kv_ = std::move(p.x_pe_kv);
  t.weights_ = std::move(p.weights);
  t.q_ = std::move(p.q);
  t.k_ = std::move(p.k);
  t.v_ = std::move(p.v);
  const Weights& w = t.weights_;

  // A sparse pattern is kept as its key lists, O(allowed pairs); any other mask as n×m bytes.
  const bool linear = config.attention == AttentionKind::kLinear;
  t.sparse_ = IsSparsePattern(config.mask.type) && !linear;
  if (t.sparse_) {
    t.pattern_ = BuildSparsePattern(config.mask, n, m);
  } else {
    t.ComputeMask();
  }

  // Steps 3–8, head by head: only the running heads' scores and weights exist at once (each
  // head its own pair, so at most pool size × 2 n×m matrices). The other n×m steps (scaled,
  // masked) are left for View to recompute when asked. A head writes only its own row of
  // row_max_/row_entropy_ (normaliser_) and its own columns of concat_ (and of the linear sums),
  // so spreading the heads over `pool` gives the sequential numbers bit for bit; an overflow is
  // reported for the lowest head. A sparse pattern's head holds no n×m matrix, only one row.
  t.concat_.resize(n, width);
  if (linear) {
    t.phi_q_ = FeatureMap(t.q_);
    t.phi_k_ = FeatureMap(t.k_);
    t.kv_summary_.resize(d_k, width);
    t.key_sum_.resize(1, width);
    t.normaliser_.resize(config.heads, n);
  } else {
    t.row_max_.resize(config.heads, n);
    t.row_entropy_.resize(config.heads, n);
  }
  const float alpha = ScoreScale(config);
  // Per head: 0 finite; 1 its output (softmax: its α·scores) overflowed; 2 (linear) the α·scores
  // of its softmax comparison steps would.
  std::vector<char> overflowed(static_cast<size_t>(config.heads), 0);
  const auto softmax_head = [&](int h) {
    std::vector<RowStats> stats(static_cast<size_t>(n));
    const auto record_stats = [&] {
      for (int i = 0; i < n; ++i) {
        t.row_max_(h, i) = stats[static_cast<size_t>(i)].max;
        t.row_entropy_(h, i) = stats[static_cast<size_t>(i)].entropy;
      }
    };
    if (t.sparse_) {
      const auto cols = [&](const Matrix& whole) { return whole.middleCols(h * d_k, d_k); };
      if (!SparseAttentionHead(cols(t.q_), cols(t.k_), cols(t.v_), t.pattern_, alpha,
                               t.concat_.middleCols(h * d_k, d_k), stats.data())) {
        overflowed[static_cast<size_t>(h)] = 1;
        return;
      }
      record_stats();
      return;
    }
    Matrix scores, weights;  // [n × m]
    HeadScores(t.q_, t.k_, h, d_k, &scores);
    if (!ScaledMaskedSoftmax(scores, alpha, t.mask_, &weights, stats.data())) {
      overflowed[static_cast<size_t>(h)] = 1;
      return;
    }
    record_stats();
    Gemm(weights, t.v_.middleCols(h * d_k, d_k), TransposeB::kNo,
         t.concat_.middleCols(h * d_k, d_k));
  };
  // Linear attention: no n×m matrix at all, O((n + m)·dK²) per head.
  const bool causal = config.mask.type == MaskType::kCausal;
  const auto linear_head = [&](int h) {
    const auto cols = [&](Matrix& whole) { return whole.middleCols(h * d_k, d_k); };
    if (!SoftmaxComparisonIsFinite(t.q_, t.k_, h, d_k, alpha)) {
      overflowed[static_cast<size_t>(h)] = 2;
      return;
    }
    if (!LinearAttentionHead(cols(t.phi_q_), cols(t.phi_k_), cols(t.v_), causal,
                             cols(t.kv_summary_), cols(t.key_sum_), t.normaliser_.row(h),
                             cols(t.concat_))) {
      overflowed[static_cast<size_t>(h)] = 1;
    }
  };
  const auto head = [&](int h) { linear ? linear_head(h) : softmax_head(h); };
  if (pool != nullptr && SpreadsHeads(n, m, config.heads)) {
    pool->Run(config.heads, head);
  } else {
    for (int h = 0; h < config.heads; ++h) head(h);
  }
  for (int h = 0; h < config.heads; ++h) {
    const char flag = overflowed[static_cast<size_t>(h)];
    if (flag) return Overflow(linear && flag == 1 ? "headOutput" : "scaled", h);
  }

  // Steps 9–10: the concatenation is already in place; project it back to dModel.
  if (config.output_projection) {
    t.output_.resize(n, d);
    Gemm(t.concat_, w.w_o, TransposeB::kNo, t.output_);
    AddBias(config.bias, w.b_o, &t.output_);
  } else {
    t.output_ = t.concat_;
  }
  if (!AllFinite(t.output_)) return Overflow("output", -1);

  *trace = std::move(t);
  return Status::Ok();
}

int Trace::AxisSize(Axis axis) const {
  return attention::AxisSize(axis, config_, n_query(), n_key());
}

Axis Trace::ColsAxis(const StepInfo& info) const {
  const bool concat_output = std::string_view(info.name) == "output" && !config_.output_projection;
  return concat_output ? Axis::kProjection : info.cols;
}

bool Trace::HasStep(const StepInfo& info) const {
  const bool linear = config_.attention == AttentionKind::kLinear;
  switch (info.presence) {
    case Presence::kAlways:
      return true;
    case Presence::kCross:
      return cross_;
    case Presence::kSoftmax:
      return !linear;
    case Presence::kLinear:
      return linear;
  }
  return false;
}

void Trace::ComputeHead(int head) const {
  if (cached_head_ == head) return;
  const int d_k = config_.ResolvedDK();
  std::vector<RowStats> stats(static_cast<size_t>(n_query()));
  if (sparse_) {
    const auto cols = [&](const Matrix& whole) { return whole.middleCols(head * d_k, d_k); };
    SparseHeadSteps(cols(q_), cols(k_), pattern_, ScoreScale(config_), &head_scores_, &head_scaled_,
                    &head_masked_, &head_weights_, stats.data());
    cached_head_ = head;
    return;
  }
  HeadSteps(q_, k_, mask_, head, d_k, ScoreScale(config_), &head_scores_, &head_scaled_,
            &head_masked_, &head_weights_, stats.data());
  if (config_.attention == AttentionKind::kLinear) {
    LinearWeights(phi_q_.middleCols(head * d_k, d_k), phi_k_.middleCols(head * d_k, d_k), mask_,
                  normaliser_.row(head), &head_linear_weights_);
  }
  cached_head_ = head;
}

void Trace::ComputeMask() const {
  if (mask_.size() == 0 && sparse_) {
    // Drawn from the key lists the heads used, rather than built again.
    mask_ = MaskMatrix::Zero(n_query(), n_key());
    for (int i = 0; i < n_query(); ++i) {
      for (int c = 0; c < pattern_.RowSize(i); ++c) mask_(i, pattern_.Row(i)[c]) = 1;
    }
  }
  if (mask_.size() == 0) mask_ = BuildMask(config_.mask, n_query(), n_key());
  if (mask_values_.size() == 0) mask_values_ = mask_.cast<float>();
}

const Matrix& Trace::HeadSlice(const Matrix& whole, int head) const {
  const int d_k = config_.ResolvedDK();
  scratch_ = whole.middleCols(head * d_k, d_k);
  return scratch_;
}

Status Trace::FindChecked(std::string_view name, int head, const StepInfo** info) const {
  const StepInfo* found = FindStep(name);
  if (found == nullptr || !HasStep(*found)) {
    std::string names;
    for (const StepInfo& s : StepCatalog()) {
      if (!HasStep(s)) continue;
      if (!names.empty()) names += ", ";
      names += s.name;
    }
    return Status(ErrorCode::kUnknownStep, "step",
                  "step \"" + std::string(name) + "\" does not exist; steps are: " + names);
  }
  const int max_head = found->per_head ? config_.heads - 1 : 0;
  if (head < 0 || head > max_head) {
    return Status(ErrorCode::kUnknownStep, "head",
                  found->per_head ? Format("head (%d) must be from 0 to %d", head, max_head)
                                  : Format("head (%d) must be 0: step \"%s\" is not per head", head,
                                           found->name));
  }
  *info = found;
  return Status::Ok();
}

Status Trace::View(std::string_view name, int head, const Matrix** out) const {
  const StepInfo* info = nullptr;
  Status status = FindChecked(name, head, &info);
  if (!status.ok()) return status;
  const StepSource& source = info->source;
  switch (source.kind) {
    case Source::kStored:
      *out = &(this->*source.matrix);
      break;
    case Source::kWeight:
      *out = &(weights_.*source.weight);
      break;
    case Source::kHeadSlice:
      *out = &HeadSlice(this->*source.matrix, head);
      break;
    case Source::kHeadRow:
      scratch_ = (this->*source.matrix).row(head).transpose();
      *out = &scratch_;
      break;
    case Source::kHeadStep:
      ComputeHead(head);
      *out = &(this->*source.matrix);
      break;
    case Source::kMask:
      ComputeMask();
      *out = &(this->*source.matrix);
      break;
    case Source::kComputed:
      source.compute(*this, head, &scratch_);
      *out = &scratch_;
      break;
  }
  return Status::Ok();
}

Status Trace::Copy(std::string_view name, int head, Matrix* out) const {
  const Matrix* view = nullptr;
  Status status = View(name, head, &view);
  if (status.ok()) *out = *view;
  return status;
}

}  // namespace attention
