// What a trained model's attention heads do, measured on examples: the attention
// weights of every head, recomputed from the q and k of the model's last forward pass, and two
// scores from the induction-head literature (Olsson et al., 2022):
//   induction score:      the mean weight from each answer position of an induction example to
//                         the token that followed the current token's earlier occurrence
//                         (Example::source), the key an induction head attends to;
//   previous-token score: the mean weight from each position t ≥ 1 to t − 1.
#pragma once

#include <cstdint>
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
  // Answer positions with a source that the induction score averages over; 0 (all scores 0)
  // when the examples have none (modular addition).
  int64_t induction_positions = 0;
};

// Runs the model on `examples` (all of one length), `batch_size` sequences per Forward, and
// scores every head. On examples of copy, reverse and sort the "induction" score is the mean
// weight from each answer position to the input position holding its answer (Example::source).
HeadScores ScoreHeads(Model<float>* model, const std::vector<Example>& examples,
                      int batch_size = 256);

// Every head's weights for one sequence `tokens` [T] (valid ids, T ≤ contextLength), after
// running the model on it: [layers × heads × T × T] row-major, HeadWeights of each in turn.
// Empty if the model refuses the sequence (ValidateBatch).
std::vector<float> AttentionSnapshot(Model<float>* model, const std::vector<int>& tokens);

}  // namespace attention::train
