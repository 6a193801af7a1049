// Shared by the training suites (tests/cpp/train_*_test.cpp).
#pragma once

#include "attention/train/model_config.hpp"

namespace attention::train::testing {

// The sizes a test cares about; every other field keeps its default.
inline ModelConfig SizedConfig(int vocab_size, int context_length, int d_model, int heads,
                               int layers) {
  ModelConfig c;
  c.vocab_size = vocab_size;
  c.context_length = context_length;
  c.d_model = d_model;
  c.heads = heads;
  c.layers = layers;
  return c;
}

}  // namespace attention::train::testing
