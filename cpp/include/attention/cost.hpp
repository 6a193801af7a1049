// What a layer costs: parameters and floating-point operations per step.
#pragma once

#include <cstdint>

#include "attention/config.hpp"

namespace attention {

// Trainable parameters: 3·dModel·P (+ 3P with biases), plus P·dModel (+ dModel) for W_O.
// dModel 512, 8 heads, biases, W_O: 1,050,624.
int64_t ParameterCount(const Config& config);

// FLOPs of each step for n queries and m keys (a multiply-add counts 2). Attention proper
// (scores, softmax, A·V) grows as n·m·dK; the projections as n·dModel·P; linear attention as
// (n + m)·dK² (its implied weights, a display step, are not counted).
struct Flops {
  int64_t q_projection = 0;
  int64_t k_projection = 0;
  int64_t v_projection = 0;
  int64_t scores = 0;
  int64_t scaling = 0;
  int64_t mask = 0;
  int64_t softmax = 0;       // max, subtract, exp, sum, divide: 5 per entry
  int64_t weighted_sum = 0;  // softmax: A·V; linear: φ(q_i)ᵀS and the division by z_i
  // Linear attention only (0 with softmax, whose scores … softmax are 0 with linear):
  int64_t feature_map = 0;  // φ = elu + 1 on Q and K: 1 per entry
  int64_t summary = 0;      // Σ_j φ(k_j) v_jᵀ and Σ_j φ(k_j) (running sums when causal)
  int64_t normaliser = 0;   // z_i = φ(q_i)ᵀΣφ(k)
  int64_t output_projection = 0;

  int64_t Total() const {
    return q_projection + k_projection + v_projection + scores + scaling + mask + softmax +
           weighted_sum + feature_map + summary + normaliser + output_projection;
  }
};

// computed_scores: the (query, key) pairs whose scores are computed (Trace::computed_scores);
// −1 works it out (n·m, or the sparse pattern's count). With a sparse pattern the scores,
// scaling, softmax and A·V count only those pairs, and nothing is masked (mask 0).
Flops CountFlops(const Config& config, int n_query, int n_key, int64_t computed_scores = -1);

}  // namespace attention
