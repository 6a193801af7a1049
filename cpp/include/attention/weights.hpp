// The parameters of one attention layer, generated from the seed or supplied by the caller.
#pragma once

#include <cstdint>
#include <optional>

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
// then replaces any matrix the caller supplied in `given` (the weight rows of kGivenSlots, in
// their order).
Weights MakeWeights(const Config& config, const GivenMatrices& given, RandomState* stream);

// The layer MakeWeights draws with nothing given, remembered by whoever owns the engine
// instance (the bindings' Engine holds one per WebAssembly instance, a test its own): a
// learner's keystrokes change the sentence, not the layer, and redrawing 4·dModel·P normals
// per keystroke costs about 1.7 ms at dModel 128 in WebAssembly. It holds one layer
// (4·dModel·P + 3P + dModel floats) until a different layer is asked for. Not thread-safe:
// one owner, one thread.
class WeightCache {
 public:
  // MakeWeights(config, {}, stream), or the remembered layer when the seed, the sizes, init and
  // `prior_draws` are those it was drawn for. `prior_draws` is how many normals the stream
  // gave before the weights (X and X_kv in "stream" mode), which the weights depend on. On a
  // hit `stream` is not advanced.
  const Weights& Generated(const Config& config, int64_t prior_draws, RandomState* stream);
  // How many layers it has drawn: a hit leaves it unchanged.
  int64_t draws() const { return draws_; }

 private:
  struct Key {
    uint32_t seed;
    int d_model, projection_width;
    Init init;
    int64_t prior_draws;
    bool operator==(const Key& o) const;
  };
  std::optional<Key> key_;
  Weights weights_;
  int64_t draws_ = 0;
};

}  // namespace attention
