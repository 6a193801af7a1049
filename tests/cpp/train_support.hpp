// Shared by the training suites (tests/cpp/train_*_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "attention/train/model_config.hpp"
#include "attention/train/trainer.hpp"

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

// A trainer for a configuration the test expects to be valid.
inline std::unique_ptr<Trainer> MakeTrainer(const TrainerConfig& config) {
  std::unique_ptr<Trainer> trainer;
  const Status status = Trainer::Create(config, &trainer);
  EXPECT_TRUE(status.ok()) << status.message();
  return trainer;
}

}  // namespace attention::train::testing
