// The parameters of one attention layer, generated from the seed or supplied by the caller.
#pragma once

#include "attention/config.hpp"
#include "attention/matrix.hpp"
#include "attention/random.hpp"

namespace attention {

struct Weights {
  Matrix w_q, w_k, w_v;  // [dModel × P]
  Matrix w_o;            // [P × dModel]
  Matrix b_q, b_k, b_v;  // [1 × P]
  Matrix b_o;            // [1 × dModel]
};

// Draws, from `stream`, W_Q, W_K, W_V, W_O, b_Q, b_K, b_V, b_O in that order (always all of
// them, so toggling biases or W_O never changes the others), scales them for Init::kScaled,
// then replaces any matrix the caller supplied in `given`.
Weights MakeWeights(const Config& config, const GivenMatrices& given, RandomState* stream);

// MakeWeights with nothing given, remembering the last layer it drew: a learner's keystrokes
// change the sentence, not the layer, and redrawing 4·dModel·P normals per keystroke costs
// about 1.7 ms at dModel 128 in WebAssembly. `prior_draws` is how many normals the stream gave
// before the weights (X and X_kv in "stream" mode), which the weights depend on. The cache
// holds one layer's weights (4·dModel·P + 3P + dModel floats) until a different layer is drawn.
Weights GeneratedWeights(const Config& config, int64_t prior_draws, RandomState* stream);

}  // namespace attention
