// What a trained model's attention heads do, measured on examples (issue 10 §4): the attention
// weights of every head, recomputed from the q and k of the model's last forward pass, and two
// scores from the induction-head literature (Olsson et al., 2022):
//   induction score:      the mean weight from each answer position of an induction example to
//                         the token that followed the current token's earlier occurrence
//                         (Example::source), the key an induction head attends to;
//   previous-token score: the mean weight from each position t ≥ 1 to t − 1.
#pragma once

#include <vector>

#include "attention/matrix.hpp"
#include "attention/train/model.hpp"
#include "attention/train/tasks.hpp"

namespace attention::train {

// The weights [T × T] of head `head` of layer `layer` for sequence `sequence` of the model's
// last Forward, which ran on sequences of `length` tokens: softmax(α · q_h · k_hᵀ) with
// α = 1/√dK when the model scales, and the causal mask when it is causal. Empty before the
// first Forward.
Matrix HeadWeights(const Model<float>& model, int length, int layer, int head, int sequence);

struct HeadScores {
  std::vector<std::vector<double>> induction;       // [layers][heads]
  std::vector<std::vector<double>> previous_token;  // [layers][heads]
};

// Runs the model on `examples` (all of one length) and scores every head.
HeadScores ScoreHeads(Model<float>* model, const std::vector<Example>& examples);

}  // namespace attention::train
