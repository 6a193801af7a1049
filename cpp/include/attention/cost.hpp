// What a layer costs: parameters and floating-point operations per step.
#pragma once

#include <cstdint>

#include "attention/config.hpp"

namespace attention {

// Trainable parameters: 3·dModel·P (+ 3P with biases), plus P·dModel (+ dModel) for W_O.
// dModel 512, 8 heads, biases, W_O: 1,050,624.
int64_t ParameterCount(const Config& config);

// FLOPs of each step for n queries and m keys (a multiply-add counts 2). Attention proper
// (scores, softmax, A·V) grows as n·m·dK; the projections as n·dModel·P.
struct Flops {
  int64_t q_projection = 0;
  int64_t k_projection = 0;
  int64_t v_projection = 0;
  int64_t scores = 0;
  int64_t scaling = 0;
  int64_t mask = 0;
  int64_t softmax = 0;  // max, subtract, exp, sum, divide: 5 per entry
  int64_t weighted_sum = 0;
  int64_t output_projection = 0;

  int64_t Total() const {
    return q_projection + k_projection + v_projection + scores + scaling + mask + softmax +
           weighted_sum + output_projection;
  }
};

Flops CountFlops(const Config& config, int n_query, int n_key);

}  // namespace attention
