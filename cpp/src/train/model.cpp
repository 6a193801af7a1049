// Model<T>: construction, initialisation, buffers and accessors. The passes: model_passes.cpp.
#include "attention/train/model.hpp"

#include <cmath>
#include <string>

#include "attention/embedding.hpp"
#include "attention/random.hpp"
#include "format.hpp"
#include "model_buffers.hpp"

namespace attention::train {

namespace {

// Hands out consecutive arrays of `base` (or only counts, when base is null).
template <typename T>
struct Carver {
  T* base;
  size_t used = 0;
  T* operator()(size_t count) {
    T* at = base != nullptr ? base + used : nullptr;
    used += count;
    return at;
  }
};

// Scalars of the [N × width] arrays.
struct Widths {
  size_t n, nc, np, nf, nv;
  Widths(const ModelConfig& config, int rows)
      : n(static_cast<size_t>(rows)),
        nc(n * config.d_model),
        np(n * config.ProjectionWidth()),
        nf(n * config.ResolvedDFF()),
        nv(n * config.vocab_size) {}
};

// The activation named `step` of `steps` (kBlockSteps or kModelSteps), `data` in the same order
// (one pointer per row: the array sizes must agree), and its width from `widths` (by StepWidth).
template <typename T, size_t N>
const T* NamedStep(const ActivationStep (&steps)[N], const T* const (&data)[N],
                   std::string_view step, const int* widths, int* width) {
  for (size_t i = 0; i < N; ++i) {
    if (step == steps[i].name && data[i] != nullptr) {
      *width = widths[static_cast<int>(steps[i].width)];
      return data[i];
    }
  }
  return nullptr;
}

}  // namespace

bool KeepsAttentionWeights(const ModelConfig& config, int batch, int length) {
  const int64_t t = length;
  return int64_t{config.layers} * batch * config.heads * t * t <= kMaxKeptAttentionWeights;
}

template <typename T>
size_t PlaceActivations(const ModelConfig& config, int batch, int length, Outputs outputs, T* base,
                        Activations<T>* a) {
  Carver<T> place{base};
  const Widths w(config, batch * length);
  const bool keep = KeepsAttentionWeights(config, batch, length);
  const size_t kept = static_cast<size_t>(batch) * config.heads * length * length;
  const size_t nc = w.nc, np = w.np, nf = w.nf, nv = w.nv;
  auto place_norm = [&] { return NormActivations<T>{place(nc), place(w.n), place(w.n)}; };
  a->embedding = place(nc);
  a->layers.assign(static_cast<size_t>(config.layers), LayerActivations<T>{});
  for (LayerActivations<T>& l : a->layers) {
    if (config.has_layer_norm()) {
      l.ln1 = place_norm();
    }
    l.q = place(np);
    l.k = place(np);
    l.v = place(np);
    l.concat = place(np);
    l.attention_weights = keep ? place(kept) : nullptr;
    l.attention = place(nc);
    l.residual1 = place(nc);
    if (config.has_ffn()) {
      l.ln2 = place_norm();
      l.ffn_hidden = place(nf);
      l.ffn_activation = place(nf);
      l.ffn_out = place(nc);
      l.residual2 = place(nc);
    }
  }
  if (config.has_layer_norm()) {
    a->ln_final = place_norm();
  }
  const size_t logits =
      outputs == Outputs::kLastPosition ? static_cast<size_t>(batch) * config.vocab_size : nv;
  a->logits = place(logits);
  a->probabilities = place(logits);
  return place.used;
}

template <typename T>
size_t PlaceScratch(const ModelConfig& config, int rows, T* base, Scratch<T>* s) {
  Carver<T> place{base};
  const Widths w(config, rows);
  const size_t nc = w.nc, np = w.np, nf = w.nf;
  s->dlogits = place(w.nv);
  s->dstream = place(nc);
  s->dnorm = place(nc);
  if (config.has_ffn()) {
    s->dhidden = place(nf);
    s->dactivation = place(nf);
  }
  s->dq = place(np);
  s->dk = place(np);
  s->dv = place(np);
  s->dconcat = place(np);
  return place.used;
}

MemoryUse EstimateMemory(const ModelConfig& config, int batch, int length, int scalar_bytes,
                         Outputs outputs) {
  const int n = batch * length;
  Activations<float> a;
  Scratch<float> s;
  const int64_t params = static_cast<int64_t>(ParameterCount(ParameterLayout(config)));
  const int64_t t = static_cast<int64_t>(length);
  MemoryUse use;
  use.parameters = params * scalar_bytes;
  use.gradients = params * scalar_bytes;
  use.activations =
      static_cast<int64_t>(PlaceActivations<float>(config, batch, length, outputs, nullptr, &a)) *
      scalar_bytes;
  // + one head's scores, weights and their gradient [T × T], and the mask (bytes); the
  // backward's arrays only for a pass that can be differentiated.
  const int64_t backward =
      outputs == Outputs::kEveryPosition ? PlaceScratch<float>(config, n, nullptr, &s) : 0;
  use.scratch = backward * scalar_bytes + 3 * t * t * scalar_bytes + t * t;
  return use;
}

Status ValidateBatch(const ModelConfig& config, const Batch& batch, Outputs outputs) {
  if (batch.size < 1 || batch.size > 65536) {
    return Status(ErrorCode::kInvalidArgument, "batch",
                  Format("batch (%d) must be an integer from 1 to 65536", batch.size));
  }
  if (batch.length < 1 || batch.length > config.context_length) {
    return Status(ErrorCode::kInvalidArgument, "length",
                  Format("length (%d) must be an integer from 1 to contextLength (%d)",
                         batch.length, config.context_length));
  }
  const size_t n = static_cast<size_t>(batch.size) * static_cast<size_t>(batch.length);
  const MemoryUse use = EstimateMemory(config, batch.size, batch.length, 4, outputs);
  if (use.activations + use.scratch > kMaxActivationBytes && batch.size == 1) {
    return Status(
        ErrorCode::kLimitExceeded, "tokens",
        Format("%d tokens need %lld MB of activations in this model (vocabulary %d); "
               "at most %lld MB: give fewer tokens",
               batch.length, static_cast<long long>((use.activations + use.scratch) >> 20),
               config.vocab_size, static_cast<long long>(kMaxActivationBytes >> 20)));
  }
  if (use.activations + use.scratch > kMaxActivationBytes) {
    return Status(ErrorCode::kLimitExceeded, "batch",
                  Format("batch · length (%d · %d) needs %lld MB of activations for this model; "
                         "at most %lld MB: use a smaller batch",
                         batch.size, batch.length,
                         static_cast<long long>((use.activations + use.scratch) >> 20),
                         static_cast<long long>(kMaxActivationBytes >> 20)));
  }
  auto check_ids = [&](const std::vector<int>& ids, const char* field) {
    if (ids.size() != n) {
      return Status(
          ErrorCode::kShapeMismatch, field,
          Format("%s must hold batch · length = %zu values, got %zu", field, n, ids.size()));
    }
    for (size_t i = 0; i < n; ++i) {
      if (ids[i] < 0 || ids[i] >= config.vocab_size) {
        const std::string name = Format("%s[%zu]", field, i);
        return Status(ErrorCode::kInvalidArgument, name,
                      Format("%s (%d) must be a token id from 0 to %d", name.c_str(), ids[i],
                             config.vocab_size - 1));
      }
    }
    return Status::Ok();
  };
  Status status = check_ids(batch.tokens, "tokens");
  if (!status.ok() || batch.targets.empty()) return status;
  status = check_ids(batch.targets, "targets");
  if (!status.ok() || batch.loss_weights.empty()) return status;
  if (batch.loss_weights.size() != n) {
    return Status(ErrorCode::kShapeMismatch, "lossWeights",
                  Format("lossWeights must be empty or hold batch · length = %zu values, got %zu",
                         n, batch.loss_weights.size()));
  }
  for (size_t i = 0; i < n; ++i) {
    const float w = batch.loss_weights[i];
    if (!(std::isfinite(w) && w >= 0.0f)) {
      const std::string name = Format("lossWeights[%zu]", i);
      return Status(ErrorCode::kInvalidArgument, name,
                    Format("%s (%g) must be a finite number ≥ 0", name.c_str(), w));
    }
  }
  return Status::Ok();
}

template <typename T>
Model<T>::Model(const ModelConfig& config)
    : config_(config), layout_(ParameterLayout(config)), buffers_(std::make_unique<Buffers>()) {
  params_.assign(ParameterCount(layout_), T(0));
  Buffers& b = *buffers_;
  std::array<int, kTensorKinds> none;
  none.fill(-1);
  b.index.assign(static_cast<size_t>(config.layers) + 1, none);
  for (size_t i = 0; i < layout_.size(); ++i) {
    b.index[static_cast<size_t>(layout_[i].layer + 1)][static_cast<int>(layout_[i].kind)] =
        static_cast<int>(i);
  }
  if (config.positional == PositionalKind::kSinusoidal) {
    b.positions = PositionalEncoding(config.context_length, config.d_model).cast<T>();
  }
  b.stats.resize(static_cast<size_t>(config.layers));
}

AttentionSummary SummarizeAttention(const std::vector<AttentionStats>& stats) {
  double entropy = 0.0, squares = 0.0;
  int64_t rows = 0;
  for (const AttentionStats& s : stats) {
    entropy += s.entropy_sum;
    rows += s.rows;
    squares += s.dscores_sq_sum;
  }
  AttentionSummary summary;
  summary.entropy = rows > 0 ? entropy / static_cast<double>(rows) : 0.0;
  summary.score_gradient_norm = std::sqrt(squares);
  return summary;
}

template <typename T>
Model<T>::~Model() = default;
template <typename T>
Model<T>::Model(Model&&) noexcept = default;
template <typename T>
Model<T>& Model<T>::operator=(Model&&) noexcept = default;

template <typename T>
void Model<T>::InitParameters(uint32_t seed) {
  RandomState stream(seed);
  const double residual_std = config_.init_std / std::sqrt(2.0 * config_.layers);
  for (const TensorInfo& info : layout_) {
    T* p = params_.data() + info.offset;
    const size_t size = info.size();
    switch (info.init) {
      case InitRule::kNormal:
      case InitRule::kNormalResidual: {
        double std = info.init == InitRule::kNormal ? config_.init_std : residual_std;
        if (info.kind == TensorKind::kWQ || info.kind == TensorKind::kWK) {
          std *= config_.query_key_init;
        }
        for (size_t i = 0; i < size; ++i) p[i] = static_cast<T>(stream.Randn() * std);
        break;
      }
      case InitRule::kZeros:
        std::fill(p, p + size, T(0));
        break;
      case InitRule::kOnes:
        std::fill(p, p + size, T(1));
        break;
    }
  }
}

template <typename T>
const TensorInfo* Model<T>::FindTensor(std::string_view name) const {
  for (const TensorInfo& info : layout_) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

template <typename T>
const T* Model<T>::Param(TensorKind kind, int layer) const {
  const int i = buffers_->index[static_cast<size_t>(layer + 1)][static_cast<int>(kind)];
  return i < 0 ? nullptr : params_.data() + layout_[static_cast<size_t>(i)].offset;
}

template <typename T>
T* Model<T>::Grad(TensorKind kind, int layer) {
  const int i = buffers_->index[static_cast<size_t>(layer + 1)][static_cast<int>(kind)];
  return i < 0 ? nullptr : grads_.data() + layout_[static_cast<size_t>(i)].offset;
}

template <typename T>
void Model<T>::ZeroGradients() {
  grads_.assign(params_.size(), T(0));
}

template <typename T>
void Model<T>::Allocate(int batch, int length, Outputs outputs) {
  Buffers& b = *buffers_;
  if (b.batch == batch && b.length == length && b.outputs == outputs) return;
  const int n = batch * length;
  // resize never shrinks capacity: alternating shapes do not reallocate.
  b.activation_data.resize(PlaceActivations<T>(config_, batch, length, outputs, nullptr, &b.acts));
  PlaceActivations<T>(config_, batch, length, outputs, b.activation_data.data(), &b.acts);
  // A pass that cannot be differentiated needs no backward arrays (their [N × V] dlogits).
  if (outputs == Outputs::kEveryPosition) {
    b.scratch_data.resize(PlaceScratch<T>(config_, n, nullptr, &b.scratch));
    PlaceScratch<T>(config_, n, b.scratch_data.data(), &b.scratch);
  }
  b.batch = batch;
  b.length = length;
  b.outputs = outputs;
}

template <typename T>
const T* Model<T>::LayerInput(int layer) const {
  const Activations<T>& a = buffers_->acts;
  if (layer == 0) return a.embedding;
  const LayerActivations<T>& prev = a.layers[static_cast<size_t>(layer - 1)];
  return config_.has_ffn() ? prev.residual2 : prev.residual1;
}

template <typename T>
const T* Model<T>::Activation(std::string_view step, int layer, int* width) const {
  const Buffers& b = *buffers_;
  if (b.batch == 0) return nullptr;
  const int c = config_.d_model;
  const int p = config_.ProjectionWidth();
  const int f = config_.ResolvedDFF();
  const int v = config_.vocab_size;
  const int widths[] = {c, p, f, v};  // by StepWidth
  const Activations<T>& a = b.acts;
  if (layer >= 0 && layer < config_.layers) {
    const LayerActivations<T>& l = a.layers[static_cast<size_t>(layer)];
    const T* const data[] = {l.ln1.out,   l.q,         l.k,       l.v,          l.concat,
                             l.attention, l.residual1, l.ln2.out, l.ffn_hidden, l.ffn_activation,
                             l.ffn_out,   l.residual2};
    return NamedStep(kBlockSteps, data, step, widths, width);
  }
  const T* const data[] = {a.embedding, a.ln_final.out, a.logits, a.probabilities};
  return NamedStep(kModelSteps, data, step, widths, width);
}

template <typename T>
const std::vector<AttentionStats>& Model<T>::attention_stats() const {
  return buffers_->stats;
}

template <typename T>
int Model<T>::logits_rows() const {
  const Buffers& b = *buffers_;
  return b.outputs == Outputs::kLastPosition ? b.batch : b.batch * b.length;
}

template <typename T>
int Model<T>::rows(StepWidth width) const {
  return width == StepWidth::kVocabulary ? logits_rows() : buffers_->batch * buffers_->length;
}

template <typename T>
MemoryUse Model<T>::memory() const {
  const Buffers& b = *buffers_;
  MemoryUse use =
      EstimateMemory(config_, b.batch, b.length, static_cast<int>(sizeof(T)), b.outputs);
  use.activations = static_cast<int64_t>(b.activation_data.size() * sizeof(T));
  use.gradients = static_cast<int64_t>(grads_.size() * sizeof(T));
  return use;
}

template class Model<float>;
template class Model<double>;

}  // namespace attention::train
