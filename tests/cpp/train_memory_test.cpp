// What a model keeps for backward: O(layers · B · T · d), and each head's T × T weights when they
// are small (KeepsAttentionWeights).
#include <gtest/gtest.h>

#include "attention/train/model.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

// The playground's reference configuration.
ModelConfig Reference() {
  ModelConfig c = testing::SizedConfig(16, 32, 64, 4, 2);
  c.positional = PositionalKind::kLearned;
  return c;
}

TEST(TrainMemory, ReferenceConfiguration) {
  const ModelConfig c = Reference();
  // About 103k parameters, learned positions included.
  EXPECT_EQ(ParameterCount(ParameterLayout(c)), 103168u);
  const int64_t n = 32 * 32;  // B · T
  const int64_t d = 64, p = 64, f = 256, v = 16;
  // Per layer: ln1 (+ mean, rstd), q, k, v, concat, attention, residual1, ln2 (+ mean, rstd),
  // ffnHidden, ffnActivation, ffnOut, residual2, and the attention weights B · heads · T × T
  // (= N · heads · T). Then embedding, lnFinal (+ 2), logits, probs.
  const int64_t per_layer =
      n * (d + 2) + 4 * n * p + n * 4 * 32 + 2 * n * d + n * (d + 2) + 2 * n * f + 2 * n * d;
  const int64_t floats = 2 * per_layer + n * d + n * (d + 2) + 2 * n * v;
  const MemoryUse use = EstimateMemory(c, 32, 32, 4);
  EXPECT_EQ(use.activations, floats * 4);
  EXPECT_EQ(use.parameters, 103168 * 4);
  EXPECT_EQ(use.gradients, use.parameters);
  // One head's T × T (scores, weights, their gradient) and the mask is all the scratch adds.
  const int64_t scratch_floats = n * v + 2 * n * d + 2 * n * f + 4 * n * p;
  EXPECT_EQ(use.scratch, scratch_floats * 4 + 3 * 32 * 32 * 4 + 32 * 32);
}

TEST(TrainMemory, ModelAllocatesWhatTheEstimateSays) {
  ModelConfig c = Reference();
  c.vocab_size = 5;
  c.d_model = 16;
  c.context_length = 6;
  Model<float> model(c);
  Batch batch;
  batch.size = 3;
  batch.length = 6;
  batch.tokens.assign(18, 1);
  ASSERT_TRUE(model.Forward(batch).ok());
  EXPECT_EQ(model.memory().activations, EstimateMemory(c, 3, 6, 4).activations);
  // Twice the layers, twice the layer part; twice B·T, twice everything.
  const int64_t one = EstimateMemory(c, 3, 6, 4).activations;
  EXPECT_EQ(EstimateMemory(c, 6, 6, 4).activations, 2 * one);
  c.layers = 4;
  EXPECT_GT(EstimateMemory(c, 3, 6, 4).activations, one);
}

}  // namespace
}  // namespace attention::train
