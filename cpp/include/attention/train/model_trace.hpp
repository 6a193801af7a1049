// The named forward pass of one sequence through a model: every layer's attention steps exactly
// as the explorer's Trace names and computes them (q, k, v, scores, scaled, masked, weights,
// headOutput, concat, output, …: the attention layer IS an attention::Trace, run on the
// layer's LayerNorm output with the layer's weights), the block's own steps, and the model's.
//
//   ModelTrace trace;
//   Status s = TraceModel(&model, {3, 1, 4, 1}, {}, &trace);
//   Matrix w;
//   s = trace.Copy("weights", /*layer=*/1, /*head=*/0, &w);   // [T × T]
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "attention/matrix.hpp"
#include "attention/status.hpp"
#include "attention/trace.hpp"
#include "attention/train/model.hpp"

namespace attention::train {

// The block's steps, per layer, in order (each [T × width]): the traced rows of kBlockSteps
// (model.hpp); "attention" is the attention layer's "output". LayerNorm and FFN steps are absent
// from attention-only models.
const std::vector<const char*>& BlockStepNames();  // ln1 … residual2
// The model-wide steps, kModelSteps: "embedding" first, then "lnFinal", "logits", "probabilities".
const std::vector<const char*>& ModelStepNames();

class ModelTrace {
 public:
  int layers() const { return static_cast<int>(attention_.size()); }
  int length() const { return length_; }
  // Layer `layer`'s attention, with every step and head of the explorer's trace.
  const Trace& attention(int layer) const { return attention_[static_cast<size_t>(layer)]; }

  // A step by name: an attention step (StepCatalog(), per head or not) or a block step of
  // `layer` (0 … layers − 1), or a model-wide step with layer −1. `head` is 0 for steps that
  // are not per head. Errors (kUnknownStep) name what exists.
  Status Copy(std::string_view name, int layer, int head, Matrix* out) const;

 private:
  friend Status TraceModel(Model<float>*, const std::vector<int>&, const std::vector<std::string>&,
                           ModelTrace*);
  struct Step {
    std::string name;
    int layer;  // −1: model-wide
    Matrix value;
  };
  std::vector<Step> steps_;
  std::vector<Trace> attention_;
  int length_ = 0;
};

// What layer `layer`'s attention reads in the model's last Forward (or ForwardThrough that
// layer): its LN₁ output, or without LayerNorm the layer's input, [T × width]; nullptr before one.
const float* AttentionInput(const Model<float>& model, int layer, int* width);

// The explorer's configuration and inputs for layer `layer` (0 … layers − 1) of the model's last
// Forward or ForwardThrough(layer) of one sequence of `labels.size()` tokens: given x [T × dModel]
// (AttentionInput: the positions are already in the residual stream, so no positional encoding)
// and every weight and bias of kGivenSlots from the layer's tensors ("layers.<l>.wQ", …), biases
// and W_O on, the model's mask and scaling. The one place a trained layer becomes a trace: the
// model traces, the engine's JS API (layerOptions) and so the page all read it. Errors:
// kInvalidArgument "layer"; kUnknownStep "model" when no forward pass reached the layer.
Status LayerTraceInputs(const Model<float>& model, int layer,
                        const std::vector<std::string>& labels, Config* config, Input* input);

// Trace::Run of LayerTraceInputs: layer `layer`'s attention as the explorer computes it. A
// recomputation that overflows float (the explorer forms q·kᵀ before scaling it) is the model's
// fault, named as Forward names it (kNonFinite, field "model"), never by an internal step.
// With a `pool`, Trace::Run's own rule (SpreadsProjections, SpreadsHeads) decides whether Q, K, V
// and the heads run at once: a short trace stays on the calling thread.
Status TraceLayer(const Model<float>& model, int layer, const std::vector<std::string>& labels,
                  Trace* out, ThreadPool* pool = nullptr);

// Runs `tokens` (1 … contextLength ids) through `model` and records every step. `labels` are
// the tokens' texts for the attention traces (empty: the ids in decimal). Overwrites the
// model's activations of its last Forward (do not call between Forward and Backward).
Status TraceModel(Model<float>* model, const std::vector<int>& tokens,
                  const std::vector<std::string>& labels, ModelTrace* out);

}  // namespace attention::train
