// One sequence through a trained model, every step readable by name, layer and head: the
// block's own steps from the model's activations, and its attention layer as the explorer's
// Trace (the same step names as a run(): x, wQ, q, scores, weights, output, …) recomputed
// from the layer's attention input and the layer's trained weights.
#pragma once

#include <emscripten/val.h>

#include <string>
#include <vector>

#include "attention/status.hpp"
#include "attention/trace.hpp"
#include "attention/train/model.hpp"
#include "attention/train/model_trace.hpp"

namespace attention::bindings {

class ModelTrace {
 public:
  // Runs `model` forward on one sequence `tokens` [T] (ids 0 … V − 1, T ≤ contextLength)
  // labelled `labels` [T], and builds each layer's attention Trace. The model's activations
  // are read later by Step: the caller must not run the model again while it reads.
  // kEveryPosition: the steps logits and probabilities [T × V], an explicit request refused
  // past kMaxTracedLogits values (kLimitExceeded, "tokens"); kLastPosition: neither step, the
  // last position's logits only (NextLogits).
  Status Run(train::Model<float>* model, const std::vector<int>& tokens,
             const std::vector<std::string>& labels,
             train::Outputs outputs = train::Outputs::kEveryPosition);

  // The last position's logits [V] of the last Run, valid until the next call; null before one.
  emscripten::val NextLogits() const;

  // { tokens: string[], layers, heads, dModel, dK, dFF, vocabSize,
  //   modelSteps: [{ name, rowsAxis, colsAxis }],
  //   layerSteps: [{ name, perHead, rowsAxis, colsAxis }] }
  // Axes: query, key, model, projection, headDim, one, ffn, vocabulary.
  emscripten::val Summary() const;

  // A VIEW { rows, cols, data } of step `name` (layer −1 for the model-wide steps embedding,
  // lnFinal, logits, probabilities), valid until the next call; null with `status` on error.
  emscripten::val Step(const std::string& name, int layer, int head, Status* status) const;

  void Clear();

 private:
  const train::Model<float>* model_ = nullptr;
  std::vector<std::string> labels_;
  std::vector<Trace> layers_;  // [layers] the attention layer of each block
};

// The most values (tokens × vocabulary) a trace's logits, and again its probabilities, may hold:
// 64 MiB each. The page and predict() need the last position's only.
inline constexpr int64_t kMaxTracedLogits = int64_t{1} << 24;

}  // namespace attention::bindings
