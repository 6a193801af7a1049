// A trainable transformer language model (model_config.hpp): parameters, gradients (made when
// first needed: a model only read has none) and the activations of the last forward pass, each
// in one contiguous buffer, and a hand-written backward pass. Templated on the scalar: Model<float>
// trains, Model<double> exists so that the gradients can be checked by finite differences
// (tests/cpp/train_gradient_test.cpp).
//
//   Model<float> model(config);        // config must pass ValidateModelConfig
//   model.InitParameters(seed);
//   model.Forward(batch);              // loss in model.loss()
//   model.ZeroGradients(); model.Backward();   // gradients in model.gradients()
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "attention/status.hpp"
#include "attention/train/model_config.hpp"
#include "attention/train/parameters.hpp"

namespace attention::train {

// B sequences of length T, row-major [B × T].
struct Batch {
  int size = 0;             // B
  int length = 0;           // T, 1 … contextLength
  std::vector<int> tokens;  // [B × T], each 0 … V − 1
  // [B × T] next tokens, each 0 … V − 1; empty: no loss (forward only, e.g. to trace).
  std::vector<int> targets;
  // [B × T] weight of each position in the loss (e.g. 1 on the answer half of a toy task, 0
  // elsewhere); empty: every position weighs 1. The loss is Σ w·(−ln p) / Σ w.
  std::vector<float> loss_weights;
};

// Which positions a forward pass computes the logits and probabilities of: every one ([N × V],
// what the loss and Backward need), or the last of each sequence ([B × V], what predicting and
// generating the next token need: with a large vocabulary N × V is most of a pass's memory).
// A kLastPosition pass keeps no backward scratch and takes no targets.
enum class Outputs { kEveryPosition, kLastPosition };

// What an activation is as wide as: dModel, P (heads · dK), dFF or the vocabulary V.
enum class StepWidth { kModel, kProjection, kFfn, kVocabulary };

// A width's key where it crosses to JS: a step's colsAxis in a model trace's summary and a row's
// width in the engine's catalog (cpp/bindings/catalog.cpp) are this one name.
constexpr const char* WidthKey(StepWidth width) {
  switch (width) {
    case StepWidth::kProjection:
      return "projection";
    case StepWidth::kFfn:
      return "ffn";
    case StepWidth::kVocabulary:
      return "vocabulary";
    default:
      return "model";
  }
}

// One activation a forward pass keeps, by its name (Model::Activation).
struct ActivationStep {
  const char* name;
  StepWidth width;
  // A step of a trained model's trace (model_trace.hpp); "q", "k", "v" and "concat" are there
  // as the attention layer's own steps (the explorer's Trace).
  bool traced;
  // An attention-only model (ModelConfig::attention_only: no LayerNorm, no FFN) keeps it too.
  bool attention_only;
  // Where a forward pass that overflows here overflowed, in its error (the model's own steps;
  // a block's step says its layer).
  const char* part = nullptr;
};

// The one list of a block's activations, in computation order: the first that is not finite is
// where a pass overflowed. "attention" is the attention layer's output (W_O applied).
inline constexpr ActivationStep kBlockSteps[] = {
    {"ln1", StepWidth::kModel, true, false},
    {"q", StepWidth::kProjection, false, true},
    {"k", StepWidth::kProjection, false, true},
    {"v", StepWidth::kProjection, false, true},
    {"concat", StepWidth::kProjection, false, true},
    {"attention", StepWidth::kModel, true, true},
    {"residual1", StepWidth::kModel, true, true},
    {"ln2", StepWidth::kModel, true, false},
    {"ffnHidden", StepWidth::kFfn, true, false},
    {"ffnActivation", StepWidth::kFfn, true, false},
    {"ffnOut", StepWidth::kModel, true, false},
    {"residual2", StepWidth::kModel, true, false},
};
// The model's own activations, in computation order (layer −1 of Model::Activation): the first
// is what the blocks read, the others are the head's, after the last block.
inline constexpr ActivationStep kModelSteps[] = {
    {"embedding", StepWidth::kModel, true, true, "its embedding"},
    {"lnFinal", StepWidth::kModel, true, false, "its final LayerNorm"},
    {"logits", StepWidth::kVocabulary, true, true, "its output layer"},
    {"probabilities", StepWidth::kVocabulary, true, true, "its output layer"},
};

// The row of kModelSteps named `name`, or nullptr.
constexpr const ActivationStep* FindModelStep(std::string_view name) {
  for (const ActivationStep& step : kModelSteps) {
    if (name == step.name) return &step;
  }
  return nullptr;
}

// Checks a batch against a valid config; errors name the field, e.g. "tokens[5]". A batch
// whose activations would take more than kMaxActivationBytes (float) is refused ("batch", or
// "tokens" for one sequence).
inline constexpr int64_t kMaxActivationBytes = int64_t{1} << 30;
Status ValidateBatch(const ModelConfig& config, const Batch& batch,
                     Outputs outputs = Outputs::kEveryPosition);

// Bytes one model needs for a batch of B × T, by buffer (the benchmark prints them).
struct MemoryUse {
  int64_t parameters = 0;   // the weights
  int64_t gradients = 0;    // as many as the weights (a model only read has none)
  int64_t activations = 0;  // kept from forward to backward: O(layers · B · T · d)
  int64_t scratch = 0;      // backward's activation gradients (one layer) + one head's T × T
};
MemoryUse EstimateMemory(const ModelConfig& config, int batch, int length, int scalar_bytes,
                         Outputs outputs = Outputs::kEveryPosition);

// Softmax statistics of one layer, summed over every row of every head and sequence of the
// last Forward (and Backward): what the √dK experiment logs.
struct AttentionStats {
  double entropy_sum = 0.0;  // Σ over rows of −Σⱼ aⱼ·ln aⱼ (nats)
  int64_t rows = 0;          // rows summed: B · heads · T
  double max_weight = 0.0;   // the largest attention weight anywhere
  // Σ (∂L/∂scores)² over every entry of every head, scores = q·kᵀ before scaling; set by
  // Backward.
  double dscores_sq_sum = 0.0;
};

// What StepMetrics (trainer.hpp) reports of a model's last Forward and Backward: the mean of the
// entropy over every softmax row of every layer (Σ entropy_sum / Σ rows; 0 without rows) and √(Σ
// dscores_sq_sum) over the layers.
struct AttentionSummary {
  double entropy = 0.0;
  double score_gradient_norm = 0.0;
};
AttentionSummary SummarizeAttention(const std::vector<AttentionStats>& stats);

template <typename T>
class Model {
 public:
  // `config` must pass ValidateModelConfig. Parameters start at zero: call InitParameters or
  // fill parameters().
  explicit Model(const ModelConfig& config);
  ~Model();
  Model(Model&&) noexcept;
  Model& operator=(Model&&) noexcept;

  const ModelConfig& config() const { return config_; }
  const std::vector<TensorInfo>& layout() const { return layout_; }
  size_t parameter_count() const { return params_.size(); }

  // Draws every tensor from RandomState(seed), in layout order, each row by row as
  // randn(rows, cols) · std (InitRule; zeros and ones draw nothing).
  void InitParameters(uint32_t seed);

  T* parameters() { return params_.data(); }
  const T* parameters() const { return params_.data(); }
  // As many gradients as parameters, made (zeros) by the first gradients(), ZeroGradients or
  // Backward: a model that is only read (loaded to trace) never holds them, half its memory.
  T* gradients() {
    AllocateGradients();
    return grads_.data();
  }
  // nullptr until the gradients are made.
  const T* gradients() const { return grads_.empty() ? nullptr : grads_.data(); }
  bool has_gradients() const { return !grads_.empty(); }
  // One tensor's row-major data, by its layout index or name (nullptr if absent).
  T* parameter(size_t index) { return params_.data() + layout_[index].offset; }
  const TensorInfo* FindTensor(std::string_view name) const;

  // Runs the model on `batch` (checked by ValidateBatch) and keeps what Backward needs. With
  // targets, loss() is the weighted mean cross-entropy; a non-finite loss is an error
  // (kNonFinite, field "loss"): training diverged. Without targets (a model read, not trained),
  // a non-finite activation is an error naming where the pass overflows (kNonFinite, field
  // "model"): weights too large for float, which no input of the caller's can fix. kLastPosition:
  // the logits and probabilities of each sequence's last position only, [B × V].
  Status Forward(const Batch& batch, Outputs outputs = Outputs::kEveryPosition);
  // Forward's first passes only: the embedding and blocks 0 … last_layer (−1: the embedding
  // only), whose activations are then readable as after Forward. No logits over the vocabulary
  // and no loss; Backward has nothing to differentiate until the next Forward. For what reads
  // one layer's input: the explorer on a trained model's layer, a keystroke at a time.
  // `outputs` sizes the buffers as a Forward with them would (kLastPosition: no [N × V] ones).
  Status ForwardThrough(const Batch& batch, int last_layer,
                        Outputs outputs = Outputs::kEveryPosition);
  T loss() const { return loss_; }
  // Sets every gradient to 0 (making them, the first time).
  void ZeroGradients();
  // Adds ∂loss/∂parameter of the last Forward to gradients(). An error (field "targets") when
  // there was no successful Forward with targets since the model was made.
  Status Backward();

  // Of the last Forward, each [B·T × width], row b·T + t: position t of sequence b ("logits" and
  // "probabilities" [B × V] after a kLastPosition Forward: logits_rows() says which).
  // Steps: kBlockSteps for layer 0 … layers − 1, kModelSteps for any other layer (−1). nullptr
  // if the step does not exist in this model (LayerNorm and FFN steps in attention-only models)
  // or before the first Forward.
  const T* Activation(std::string_view step, int layer, int* width) const;
  // Softmax statistics per layer of the last Forward (and Backward: ∂L/∂scores).
  const std::vector<AttentionStats>& attention_stats() const;
  // Rows of Activation("logits") and ("probabilities"): B·T, or B after kLastPosition.
  int logits_rows() const;
  // Rows of an activation of `width`: logits_rows() for the vocabulary's, B·T for the others.
  int rows(StepWidth width) const;

  MemoryUse memory() const;

 private:
  struct Buffers;
  void Allocate(int batch, int length, Outputs outputs);
  void AllocateGradients() {
    if (grads_.empty()) grads_.assign(params_.size(), T(0));
  }
  // The first non-finite activation of blocks first_layer … last_layer (−1: the embedding too)
  // and, with `head`, of the model steps after the blocks (the final LayerNorm, the logits, the
  // probabilities), as a kNonFinite Status naming it.
  Status CheckFinite(int first_layer, int last_layer, bool head) const;
  // A tensor's parameters or gradients by kind and layer (−1: model-wide); nullptr if absent.
  const T* Param(TensorKind kind, int layer = -1) const;
  T* Grad(TensorKind kind, int layer = -1);
  // What layer l reads ([N × C]): the embedding, or the previous layer's last residual.
  const T* LayerInput(int layer) const;
  void ForwardLayer(int layer);
  void BackwardLayer(int layer);

  ModelConfig config_;
  std::vector<TensorInfo> layout_;
  std::vector<T> params_, grads_;
  std::unique_ptr<Buffers> buffers_;
  T loss_ = 0;
};

extern template class Model<float>;
extern template class Model<double>;

}  // namespace attention::train
