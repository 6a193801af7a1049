// One run of attention with every intermediate step kept or recomputable, by name.
//
// Memory: the trace stores only what grows as n·d (X, Q, K, V, the head outputs, the output)
// and per-row statistics. The n×m steps of a head (scores, scaled, masked, weights, and with
// linear attention linearWeights) are recomputed from Q and K when asked for, one head at a
// time, so n = 1024 with 8 heads never holds 8 × 4 n×n matrices at once. With a sparse pattern
// (window, dilated, longformer, bigbird) Run forms no n×m matrix at all: each head computes only
// the pattern's scores (sparse_attention.hpp), and the mask step is drawn when it is read.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "attention/config.hpp"
#include "attention/cost.hpp"
#include "attention/matrix.hpp"
#include "attention/softmax.hpp"
#include "attention/sparse_pattern.hpp"
#include "attention/status.hpp"
#include "attention/weights.hpp"

namespace attention {

class Trace;
class ThreadPool;

// Where Trace::View finds a step's matrix.
enum class Source {
  kStored,     // a matrix the trace keeps whole: trace.*matrix
  kWeight,     // a weight or bias of the layer: trace's Weights.*weight
  kHeadSlice,  // head h's dK columns of the stored [rows × P] trace.*matrix
  kHeadRow,    // row h of the stored [heads × n] trace.*matrix, as an [n × 1] column
  kHeadStep,   // recomputed for one head at a time (scores … weights) into trace.*matrix
  kMask,       // the mask as 1.0 / 0.0 into trace.*matrix, drawn when first read
  kComputed,   // made when read by the row's own function, from what the trace keeps
};

// A step computed when read: the function fills `out` for `head` (0 unless per head). A new
// step of this kind is its catalog row and its function, both in trace.cpp (StepCatalog's
// functions read the trace's private matrices, and ComputeHead for a head's n×m steps).
using ComputeStep = void (*)(const Trace& trace, int head, Matrix* out);

struct StepSource {
  Source kind;
  Matrix Trace::*matrix;    // every kind but kWeight and kComputed
  Matrix Weights::*weight;  // kWeight
  ComputeStep compute;      // kComputed
};

// Which traces have a step.
enum class Presence {
  kAlways,
  kCross,    // cross-attention only: the key/value side's inputs
  kSoftmax,  // softmax attention only: statistics of the softmax weights Run computes
  kLinear,   // linear attention only: φ(Q), φ(K), the sums, the normaliser, the implied weights
};

struct StepInfo {
  const char* name;  // e.g. "scores"; the same strings are used by the JS API
  bool per_head;     // one matrix per head (ask with a head index) or one for the trace
  Axis rows;
  Axis cols;
  Presence presence;
  StepSource source;
};

// Every step in computation order.
const std::vector<StepInfo>& StepCatalog();
// nullptr when there is no step of that name.
const StepInfo* FindStep(std::string_view name);

class Trace {
 public:
  // Validates, then computes the whole forward pass. On error `trace` is left unchanged.
  // Generated weights (nothing given) come from `cache` when there is one: the owner of the
  // engine instance keeps it across runs (see WeightCache); without it they are drawn anew.
  // With a `pool`, the projections Q, K, V (SpreadsProjections) and the heads of a long input
  // (SpreadsHeads) run at once on its threads: the trace is the same bit for bit, for any pool
  // size.
  static Status Run(const Config& config, const Input& input, Trace* trace,
                    WeightCache* cache = nullptr, ThreadPool* pool = nullptr);

  // Run spreads the heads over a pool only from this much work, n·m·heads (8 heads of 91 tokens):
  // below it a trace takes about a millisecond or less, the explorer computes it on the page's
  // own single-threaded instance anyway, and waking the pool's threads costs a fair part of what
  // they would save. bench/trace-threads.mjs measures both sides of it (docs/benchmarks.md).
  static constexpr int64_t kMinSpreadWork = int64_t{1} << 16;
  static bool SpreadsHeads(int n, int m, int heads);
  // And the three projections Q, K, V run at once from this many multiply-adds, (n + 2m)·d·width
  // (self-attention: 86 tokens at d_model 64, 2 at 512), about a millisecond of work or less.
  static constexpr int64_t kMinProjectionWork = int64_t{1} << 20;
  static bool SpreadsProjections(int n, int m, int d_model, int width);

  const Config& config() const { return config_; }
  bool cross() const { return cross_; }
  const std::vector<std::string>& tokens() const { return tokens_; }
  // Keys/values: kvTokens in cross-attention, the tokens themselves otherwise.
  const std::vector<std::string>& key_tokens() const { return cross_ ? kv_tokens_ : tokens_; }
  int n_query() const { return static_cast<int>(tokens_.size()); }
  int n_key() const { return static_cast<int>(key_tokens().size()); }

  // Rows and columns of `info` in this trace.
  int AxisSize(Axis axis) const;
  // The columns of `info` in this trace: "output" is the concatenation (heads·dK wide) when
  // W_O is off.
  Axis ColsAxis(const StepInfo& info) const;
  bool HasStep(const StepInfo& info) const;

  // A read-only view of a step. Per-head n×m steps are computed into a cache that holds one
  // head, so the view stays valid until the next call of View or Copy.
  Status View(std::string_view name, int head, const Matrix** out) const;
  Status Copy(std::string_view name, int head, Matrix* out) const;

  int64_t parameter_count() const { return ParameterCount(config_); }
  Flops flops() const { return CountFlops(config_, n_query(), n_key(), computed_scores()); }
  // The (query, key) pairs whose scores a head computes: the pattern's count with a sparse
  // pattern, n × m otherwise (a dense mask hides scores after computing them all).
  int64_t computed_scores() const {
    return sparse_ ? pattern_.Count() : static_cast<int64_t>(n_query()) * n_key();
  }

 private:
  // The catalogue's source column names the private matrices below, and its computed steps'
  // functions read them.
  friend const std::vector<StepInfo>& StepCatalog();

  // Fills head_* with the n×m steps of `head` unless they already hold them (and, with linear
  // attention, head_linear_weights_: the implied weights are formed only when a view asks).
  void ComputeHead(int head) const;
  // Columns h·dK … h·dK + dK − 1 of a [rows × P] matrix.
  const Matrix& HeadSlice(const Matrix& whole, int head) const;
  // Fills mask_values_ (and mask_) unless they hold the mask already.
  void ComputeMask() const;
  Status FindChecked(std::string_view name, int head, const StepInfo** info) const;

  Config config_;
  bool cross_ = false;
  std::vector<std::string> tokens_, kv_tokens_;
  Matrix x_, pe_, x_pe_;           // [n × dModel]
  Matrix x_kv_, pe_kv_, x_pe_kv_;  // [m × dModel], cross-attention only
  Weights weights_;
  Matrix q_, k_, v_;  // [n × P], [m × P], [m × P]
  // A sparse pattern's key lists (sparse_ only); the dense mask is then drawn only when read.
  bool sparse_ = false;
  SparsePattern pattern_;
  mutable MaskMatrix mask_;       // [n × m]
  mutable Matrix mask_values_;    // the mask as 1.0 / 0.0, for viewing
  Matrix row_max_, row_entropy_;  // [heads × n]: row h is head h's [n × 1] column
  // Linear attention only (empty with softmax): head h in columns h·dK … h·dK + dK − 1.
  Matrix phi_q_, phi_k_;  // φ(Q) [n × P], φ(K) [m × P]
  Matrix kv_summary_;     // [dK × P]: head h's Σ_j φ(k_j) v_jᵀ [dK × dK]
  Matrix key_sum_;        // [1 × P]: head h's Σ_j φ(k_j) [1 × dK]
  Matrix normaliser_;     // [heads × n]: row h is head h's z [n × 1]
  Matrix concat_;         // [n × P]
  Matrix output_;         // [n × dModel]

  // The n×m steps of one head (cached_head_, −1 for none), recomputed by View when asked for.
  mutable int cached_head_ = -1;
  mutable Matrix head_scores_, head_scaled_, head_masked_, head_weights_;  // [n × m]
  mutable Matrix head_linear_weights_;                                     // [n × m], linear
  mutable Matrix scratch_;  // per-head slices and computed steps handed out by View
};

}  // namespace attention
