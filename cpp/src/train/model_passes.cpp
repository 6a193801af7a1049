// Model<T>::Forward and Model<T>::Backward: the passes in order, each op from ops.hpp.
// N = B·T rows, C = dModel, P = heads·dK, F = dFF, V = vocab.
#include <algorithm>
#include <cmath>

#include "attention/train/model.hpp"
#include "finite.hpp"
#include "format.hpp"
#include "model_buffers.hpp"
#include "ops.hpp"

namespace attention::train {
namespace {

template <typename T>
T ScoreScale(const ModelConfig& config) {
  return config.scale ? T(1) / std::sqrt(static_cast<T>(config.ResolvedDK())) : T(1);
}

bool Finite(const float* data, size_t size) {
  return AllFinite(data, static_cast<Eigen::Index>(size));
}
bool Finite(const double* data, size_t size) {
  return std::all_of(data, data + size, [](double x) { return std::isfinite(x); });
}

Status Overflow(const std::string& where, const char* step) {
  return Status(ErrorCode::kNonFinite, "model",
                Format("this model's forward pass overflows at %s (its %s is not a finite "
                       "number): its weights are too large for float arithmetic, so it has no "
                       "answer for any input",
                       where.c_str(), step));
}

}  // namespace

template <typename T>
Status Model<T>::CheckFinite(int first_layer, int last_layer, bool head) const {
  // Whether `step` of `layer` is finite, where the model has it.
  auto finite = [&](const ActivationStep& step, int layer) {
    int width = 0;
    const T* data = Activation(step.name, layer, &width);
    return data == nullptr || Finite(data, static_cast<size_t>(rows(step.width)) * width);
  };
  // In computation order (model.hpp): the first non-finite one is where it overflowed. The
  // model's first step is what the blocks read; the others are the head's, after them.
  const ActivationStep& input = kModelSteps[0];
  if (first_layer < 0 && !finite(input, -1)) return Overflow(input.part, input.name);
  for (int l = std::max(first_layer, 0); l <= last_layer; ++l) {
    for (const ActivationStep& step : kBlockSteps) {
      if (!finite(step, l)) return Overflow(Format("layer %d", l), step.name);
    }
  }
  if (!head) return Status::Ok();
  for (const ActivationStep& step : kModelSteps) {
    if (&step == &input) continue;
    if (!finite(step, -1)) return Overflow(step.part, step.name);
    // The rest (probabilities): a softmax of finite logits is finite, no B·T × V scan needed.
    if (step.width == StepWidth::kVocabulary) break;
  }
  return Status::Ok();
}

template <typename T>
Status Model<T>::ForwardThrough(const Batch& batch, int last_layer, Outputs outputs) {
  Buffers& b = *buffers_;
  b.targets.clear();  // until a Forward succeeds, Backward has nothing to differentiate
  if (outputs == Outputs::kLastPosition && !batch.targets.empty()) {
    return Status(ErrorCode::kInvalidArgument, "targets",
                  "targets need the logits of every position: a forward pass of the last "
                  "position's takes none");
  }
  Status status = ValidateBatch(config_, batch, outputs);
  if (!status.ok()) return status;
  if (last_layer < -1 || last_layer >= config_.layers) {
    return Status(
        ErrorCode::kInvalidArgument, "layer",
        Format("layer (%d) must be an integer from -1 to %d", last_layer, config_.layers - 1));
  }
  Allocate(batch.size, batch.length, outputs);
  b.tokens = batch.tokens;
  b.loss_weights = batch.loss_weights;
  std::fill(b.stats.begin(), b.stats.end(), AttentionStats{});
  // Pass 1: token embedding + positional encoding → [N × C].
  const T* positions = config_.positional == PositionalKind::kLearned
                           ? Param(TensorKind::kPositionEmbedding)
                           : b.positions.data();
  EmbeddingForward(b.acts.embedding, b.tokens.data(), Param(TensorKind::kTokenEmbedding), positions,
                   batch.size * batch.length, batch.length, config_.d_model);
  // Pass 2: the blocks.
  for (int l = 0; l <= last_layer; ++l) ForwardLayer(l);
  // A model read, not trained: say where its numbers stopped being numbers. (Training checks
  // its loss instead, which any non-finite activation makes non-finite.)
  if (batch.targets.empty()) return CheckFinite(-1, last_layer, false);
  return Status::Ok();
}

template <typename T>
Status Model<T>::Forward(const Batch& batch, Outputs outputs) {
  Status status = ForwardThrough(batch, config_.layers - 1, outputs);
  if (!status.ok()) return status;
  Buffers& b = *buffers_;
  Activations<T>& a = b.acts;
  const int n = batch.size * batch.length;
  const int c = config_.d_model;
  const int v = config_.vocab_size;
  // Pass 3: final LayerNorm, logits = final · Uᵀ [N × V] (U = token embedding when tied).
  const T* last = LayerInput(config_.layers);
  const T* final_in = last;
  if (config_.has_layer_norm()) {
    LayerNormForward(a.ln_final.out, a.ln_final.mean, a.ln_final.rstd, last,
                     Param(TensorKind::kLnFinalGain), Param(TensorKind::kLnFinalBias), n, c);
    final_in = a.ln_final.out;
  }
  const T* unembedding =
      Param(config_.tied_embeddings ? TensorKind::kTokenEmbedding : TensorKind::kUnembedding);
  if (outputs == Outputs::kLastPosition) {
    // Row T − 1 of each sequence: [B × C] rows T·C apart.
    const T* lasts = final_in + static_cast<size_t>(batch.length - 1) * c;
    Product<T>(ViewOf(a.logits, batch.size, v, v), ViewOf(lasts, batch.size, c, batch.length * c),
               ViewOf(unembedding, v, c, c), Transpose::kB, Write::kAssign);
    CrossEntropyForward<T>(a.probabilities, a.logits, nullptr, nullptr, batch.size, v);
    loss_ = 0;
    return CheckFinite(config_.layers, config_.layers - 1, true);
  }
  Product<T>(ViewOf(a.logits, n, v, v), ViewOf(final_in, n, c, c), ViewOf(unembedding, v, c, c),
             Transpose::kB, Write::kAssign);
  // Pass 4: probabilities and the loss.
  loss_ = CrossEntropyForward(a.probabilities, a.logits,
                              batch.targets.empty() ? nullptr : batch.targets.data(),
                              b.loss_weights.empty() ? nullptr : b.loss_weights.data(), n, v);
  if (batch.targets.empty()) {
    status = CheckFinite(config_.layers, config_.layers - 1, true);
    if (!status.ok()) return status;
  }
  if (!std::isfinite(static_cast<double>(loss_))) {
    return Status(ErrorCode::kNonFinite, "loss",
                  "the loss is not finite: training diverged; lower the learning rate");
  }
  b.targets = batch.targets;
  return Status::Ok();
}

// One pre-LN block: x → LN₁ → attention → (+x) → LN₂ → FFN → (+residual₁).
template <typename T>
void Model<T>::ForwardLayer(int l) {
  Buffers& b = *buffers_;
  LayerActivations<T>& a = b.acts.layers[static_cast<size_t>(l)];
  const int n = b.batch * b.length;
  const int c = config_.d_model;
  const int p = config_.ProjectionWidth();
  const int f = config_.ResolvedDFF();
  using K = TensorKind;
  const T* in = LayerInput(l);
  const T* attention_in = in;
  if (config_.has_layer_norm()) {
    LayerNormForward(a.ln1.out, a.ln1.mean, a.ln1.rstd, in, Param(K::kLn1Gain, l),
                     Param(K::kLn1Bias, l), n, c);
    attention_in = a.ln1.out;
  }
  MatmulForward(a.q, attention_in, Param(K::kWQ, l), Param(K::kBQ, l), n, c, p);
  MatmulForward(a.k, attention_in, Param(K::kWK, l), Param(K::kBK, l), n, c, p);
  MatmulForward(a.v, attention_in, Param(K::kWV, l), Param(K::kBV, l), n, c, p);
  b.core.Forward(a.concat, a.attention_weights, a.q, a.k, a.v, b.batch, b.length, config_.heads,
                 config_.ResolvedDK(), config_.causal, ScoreScale<T>(config_),
                 &b.stats[static_cast<size_t>(l)]);
  MatmulForward(a.attention, a.concat, Param(K::kWO, l), Param(K::kBO, l), n, p, c);
  if (config_.residual) {
    ResidualForward(a.residual1, in, a.attention, n * c);
  } else {
    std::copy(a.attention, a.attention + static_cast<size_t>(n) * c, a.residual1);
  }
  if (!config_.has_ffn()) return;
  LayerNormForward(a.ln2.out, a.ln2.mean, a.ln2.rstd, a.residual1, Param(K::kLn2Gain, l),
                   Param(K::kLn2Bias, l), n, c);
  MatmulForward(a.ffn_hidden, a.ln2.out, Param(K::kW1, l), Param(K::kB1, l), n, c, f);
  GeluForward(a.ffn_activation, a.ffn_hidden, n * f);
  MatmulForward(a.ffn_out, a.ffn_activation, Param(K::kW2, l), Param(K::kB2, l), n, f, c);
  if (config_.residual) {
    ResidualForward(a.residual2, a.residual1, a.ffn_out, n * c);
  } else {
    std::copy(a.ffn_out, a.ffn_out + static_cast<size_t>(n) * c, a.residual2);
  }
}

template <typename T>
Status Model<T>::Backward() {
  Buffers& b = *buffers_;
  if (b.batch == 0 || b.targets.empty()) {
    return Status(ErrorCode::kInvalidArgument, "targets",
                  "Backward needs a successful Forward with targets before it");
  }
  AllocateGradients();  // zeros, as ZeroGradients leaves them, for a model never trained yet
  Activations<T>& a = b.acts;
  Scratch<T>& s = b.scratch;
  const int n = b.batch * b.length;
  const int c = config_.d_model;
  const int v = config_.vocab_size;
  using K = TensorKind;

  // Pass 1: cross-entropy → dlogits [N × V].
  CrossEntropyBackward(s.dlogits, a.probabilities, b.targets.data(),
                       b.loss_weights.empty() ? nullptr : b.loss_weights.data(), n, v);
  // Pass 2: logits = final · Uᵀ: dfinal = dlogits · U [N × C]; dU += dlogitsᵀ · final [V × C].
  const T* last = LayerInput(config_.layers);
  const bool norm = config_.has_layer_norm();
  const T* final_in = norm ? a.ln_final.out : last;
  const K unembedding = config_.tied_embeddings ? K::kTokenEmbedding : K::kUnembedding;
  T* dfinal = norm ? s.dnorm : s.dstream;
  const ConstView<T> dlogits = ViewOf(static_cast<const T*>(s.dlogits), n, v, v);
  Product<T>(ViewOf(dfinal, n, c, c), dlogits, ViewOf(Param(unembedding), v, c, c),
             Transpose::kNone, Write::kAssign);
  Product<T>(ViewOf(Grad(unembedding), v, c, c), dlogits, ViewOf(final_in, n, c, c), Transpose::kA,
             Write::kAccumulate);
  // Pass 3: final LayerNorm → dstream, ∂L/∂ the last layer's output [N × C].
  if (norm) {
    std::fill(s.dstream, s.dstream + static_cast<size_t>(n) * c, T(0));
    LayerNormBackward(s.dstream, Grad(K::kLnFinalGain), Grad(K::kLnFinalBias), s.dnorm, last,
                      Param(K::kLnFinalGain), a.ln_final.mean, a.ln_final.rstd, n, c);
  }
  // Pass 4: the blocks, last to first.
  for (int l = config_.layers - 1; l >= 0; --l) BackwardLayer(l);
  // Pass 5: embedding and learned positions.
  EmbeddingBackward(Grad(K::kTokenEmbedding), Grad(K::kPositionEmbedding), s.dstream,
                    b.tokens.data(), n, b.length, c);
  return Status::Ok();
}

// On entry s.dstream = ∂L/∂(this layer's output); on exit ∂L/∂(its input).
template <typename T>
void Model<T>::BackwardLayer(int l) {
  Buffers& b = *buffers_;
  LayerActivations<T>& a = b.acts.layers[static_cast<size_t>(l)];
  Scratch<T>& s = b.scratch;
  const int n = b.batch * b.length;
  const int c = config_.d_model;
  const int p = config_.ProjectionWidth();
  const int f = config_.ResolvedDFF();
  const size_t nc = static_cast<size_t>(n) * c;
  using K = TensorKind;
  const T* in = LayerInput(l);
  if (config_.has_ffn()) {
    // FFN: dstream is ∂L/∂ffnOut (and, through the residual, part of ∂L/∂residual1).
    MatmulBackward(s.dactivation, Write::kAssign, Grad(K::kW2, l), Grad(K::kB2, l), s.dstream,
                   a.ffn_activation, Param(K::kW2, l), n, f, c);
    GeluBackward(s.dhidden, a.ffn_hidden, s.dactivation, n * f);
    MatmulBackward(s.dnorm, Write::kAssign, Grad(K::kW1, l), Grad(K::kB1, l), s.dhidden, a.ln2.out,
                   Param(K::kW1, l), n, c, f);
    if (!config_.residual) std::fill(s.dstream, s.dstream + nc, T(0));
    LayerNormBackward(s.dstream, Grad(K::kLn2Gain, l), Grad(K::kLn2Bias, l), s.dnorm, a.residual1,
                      Param(K::kLn2Gain, l), a.ln2.mean, a.ln2.rstd, n, c);
  }
  // Attention: dstream is now ∂L/∂residual1 = ∂L/∂attention (+ ∂L/∂input via the residual).
  MatmulBackward(s.dconcat, Write::kAssign, Grad(K::kWO, l), Grad(K::kBO, l), s.dstream, a.concat,
                 Param(K::kWO, l), n, p, c);
  b.core.Backward(s.dq, s.dk, s.dv, s.dconcat, a.attention_weights, a.q, a.k, a.v, b.batch,
                  b.length, config_.heads, config_.ResolvedDK(), config_.causal,
                  ScoreScale<T>(config_), &b.stats[static_cast<size_t>(l)]);
  const bool norm = config_.has_layer_norm();
  const T* attention_in = norm ? a.ln1.out : in;
  MatmulBackward(s.dnorm, Write::kAssign, Grad(K::kWQ, l), Grad(K::kBQ, l), s.dq, attention_in,
                 Param(K::kWQ, l), n, c, p);
  MatmulBackward(s.dnorm, Write::kAccumulate, Grad(K::kWK, l), Grad(K::kBK, l), s.dk, attention_in,
                 Param(K::kWK, l), n, c, p);
  MatmulBackward(s.dnorm, Write::kAccumulate, Grad(K::kWV, l), Grad(K::kBV, l), s.dv, attention_in,
                 Param(K::kWV, l), n, c, p);
  if (!config_.residual) std::fill(s.dstream, s.dstream + nc, T(0));
  if (norm) {
    LayerNormBackward(s.dstream, Grad(K::kLn1Gain, l), Grad(K::kLn1Bias, l), s.dnorm, in,
                      Param(K::kLn1Gain, l), a.ln1.mean, a.ln1.rstd, n, c);
  } else {
    for (size_t i = 0; i < nc; ++i) s.dstream[i] += s.dnorm[i];
  }
}

#define ATTENTION_TRAIN_PASSES(T)                                       \
  template Status Model<T>::ForwardThrough(const Batch&, int, Outputs); \
  template Status Model<T>::Forward(const Batch&, Outputs);             \
  template Status Model<T>::CheckFinite(int, int, bool) const;          \
  template void Model<T>::ForwardLayer(int);                            \
  template Status Model<T>::Backward();                                 \
  template void Model<T>::BackwardLayer(int);

ATTENTION_TRAIN_PASSES(float)
ATTENTION_TRAIN_PASSES(double)

}  // namespace attention::train
