// The model's API around the passes: batch validation, refused misuse, softmax statistics.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "attention/train/model.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

ModelConfig Small() { return testing::SizedConfig(6, 5, 8, 2, 2); }

Batch Valid() {
  Batch b;
  b.size = 2;
  b.length = 5;
  b.tokens = {0, 1, 2, 3, 4, 5, 4, 3, 2, 1};
  b.targets = {1, 2, 3, 4, 5, 4, 3, 2, 1, 0};
  return b;
}

TEST(TrainModel, BadBatchesNameTheField) {
  const ModelConfig c = Small();
  EXPECT_TRUE(ValidateBatch(c, Valid()).ok());
  const std::pair<const char*, void (*)(Batch*)> cases[] = {
      {"batch", [](Batch* b) { b->size = 0; }},
      {"length", [](Batch* b) { b->length = 6; }},
      {"tokens", [](Batch* b) { b->tokens.pop_back(); }},
      {"tokens[3]", [](Batch* b) { b->tokens[3] = -1; }},
      {"targets", [](Batch* b) { b->targets.push_back(0); }},
      {"targets[9]", [](Batch* b) { b->targets[9] = 6; }},
      {"lossWeights", [](Batch* b) { b->loss_weights = {1.0f}; }},
      {"lossWeights[2]",
       [](Batch* b) {
         b->loss_weights.assign(10, 1.0f);
         b->loss_weights[2] = NAN;
       }},
      {"lossWeights[0]", [](Batch* b) { b->loss_weights.assign(10, -1.0f); }},
  };
  for (const auto& [field, spoil] : cases) {
    Batch b = Valid();
    spoil(&b);
    const Status status = ValidateBatch(c, b);
    EXPECT_EQ(status.field(), field) << status.message();
  }
}

TEST(TrainModel, ABatchTooLargeForMemoryIsRefused) {
  ModelConfig c = Small();
  c.context_length = 2048;
  c.d_model = 512;
  c.heads = 8;
  Batch b;
  b.size = 4096;
  b.length = 2048;
  const Status status = ValidateBatch(c, b);
  EXPECT_EQ(status.code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(status.field(), "batch");
}

TEST(TrainModel, BackwardNeedsAForwardWithTargets) {
  Model<float> model(Small());
  EXPECT_EQ(model.Backward().field(), "targets");
  Batch b = Valid();
  b.targets.clear();
  ASSERT_TRUE(model.Forward(b).ok());
  EXPECT_EQ(model.Backward().field(), "targets");
  ASSERT_TRUE(model.Forward(Valid()).ok());
  EXPECT_TRUE(model.Backward().ok());
  b = Valid();
  b.tokens[0] = 99;
  EXPECT_FALSE(model.Forward(b).ok());
  EXPECT_EQ(model.Backward().field(), "targets");  // the failed Forward left nothing to use
}

// ForwardThrough(l) runs Forward's passes up to block l: the same activations there, bit for
// bit; nothing of the later blocks or the logits; nothing for Backward; a bad layer refused.
TEST(TrainModel, ForwardThroughALayerIsForwardsFirstPasses) {
  const ModelConfig c = Small();
  Model<float> full(c);
  full.InitParameters(7);
  ASSERT_TRUE(full.Forward(Valid()).ok());
  const int n = 2 * 5;
  auto copy = [n](const Model<float>& m, const char* step, int layer) {
    int width = 0;
    const float* data = m.Activation(step, layer, &width);
    return data == nullptr ? std::vector<float>() : std::vector<float>(data, data + n * width);
  };
  for (int last = -1; last < c.layers; ++last) {
    Model<float> part(c);
    part.InitParameters(7);
    // Marks in the buffers: what ForwardThrough does not compute keeps them.
    ASSERT_TRUE(part.Forward(Valid()).ok());
    Batch other = Valid();
    for (int& t : other.tokens) t = (t + 1) % 6;
    ASSERT_TRUE(part.ForwardThrough(other, last).ok());
    Model<float> reference(c);
    reference.InitParameters(7);
    ASSERT_TRUE(reference.Forward(other).ok());
    EXPECT_EQ(copy(part, "embedding", -1), copy(reference, "embedding", -1));
    for (int l = 0; l <= last; ++l) {
      for (const char* step :
           {"ln1", "q", "concat", "attention", "residual1", "ffnOut", "residual2"}) {
        EXPECT_EQ(copy(part, step, l), copy(reference, step, l)) << step << " of layer " << l;
      }
    }
    // The logits are the first Forward's still: ForwardThrough computed none.
    EXPECT_EQ(copy(part, "logits", -1), copy(full, "logits", -1)) << "through layer " << last;
    EXPECT_EQ(part.Backward().field(), "targets");
  }
  Model<float> model(c);
  EXPECT_EQ(model.ForwardThrough(Valid(), c.layers).field(), "layer");
  EXPECT_EQ(model.ForwardThrough(Valid(), -2).field(), "layer");
  Batch bad = Valid();
  bad.tokens[0] = 99;
  EXPECT_EQ(model.ForwardThrough(bad, 0).field(), "tokens[0]");
}

TEST(TrainModel, UniformAttentionAtTinyWeights) {
  ModelConfig c = Small();
  c.init_std = 1e-6;  // scores ≈ 0: every visible key weighs 1 / (i + 1)
  Model<float> model(c);
  model.InitParameters(3);
  ASSERT_TRUE(model.Forward(Valid()).ok());
  EXPECT_NEAR(model.loss(), std::log(6.0f), 1e-4f);
  double expected_entropy = 0.0;
  for (int i = 0; i < 5; ++i) expected_entropy += std::log(i + 1.0);
  for (const AttentionStats& s : model.attention_stats()) {
    EXPECT_EQ(s.rows, 2 * 2 * 5);  // B · heads · T
    EXPECT_NEAR(s.entropy_sum, 2 * 2 * expected_entropy, 1e-3);
    EXPECT_FLOAT_EQ(s.max_weight, 1.0);  // row 0 sees only itself
    EXPECT_EQ(s.dscores_sq_sum, 0.0);
  }
  ASSERT_TRUE(model.Backward().ok());
  for (const AttentionStats& s : model.attention_stats()) EXPECT_GT(s.dscores_sq_sum, 0.0);
}

// The √dK experiment's control: W_Q and W_K drawn dK^(−1/4) as large make an unscaled model
// compute at step 0 what the scaled one does (the same draws, so the same function), while the
// rest of the weights are untouched.
TEST(TrainModel, QueryKeyInitMakesAnUnscaledModelTheScaledOneAtStepZero) {
  ModelConfig scaled = Small();
  scaled.init_std = 0.5;  // scores far from 0, so ÷√dK matters
  ModelConfig control = scaled;
  control.scale = false;
  control.query_key_init = std::pow(static_cast<double>(scaled.ResolvedDK()), -0.25);
  ModelConfig unscaled = scaled;
  unscaled.scale = false;
  Model<float> a(scaled), b(control), c(unscaled);
  a.InitParameters(5);
  b.InitParameters(5);
  c.InitParameters(5);
  for (const TensorInfo& info : a.layout()) {
    const bool qk = info.kind == TensorKind::kWQ || info.kind == TensorKind::kWK;
    for (size_t i = 0; i < info.size(); ++i) {
      const float x = a.parameters()[info.offset + i];
      const float y = b.parameters()[info.offset + i];
      EXPECT_FLOAT_EQ(y, qk ? static_cast<float>(x * control.query_key_init) : x) << info.name;
    }
  }
  ASSERT_TRUE(a.Forward(Valid()).ok());
  ASSERT_TRUE(b.Forward(Valid()).ok());
  ASSERT_TRUE(c.Forward(Valid()).ok());
  EXPECT_NEAR(b.loss(), a.loss(), 1e-5f);
  EXPECT_GT(std::fabs(c.loss() - a.loss()), 1e-3f);  // without the control, another function
  for (size_t l = 0; l < a.attention_stats().size(); ++l) {
    EXPECT_NEAR(b.attention_stats()[l].entropy_sum, a.attention_stats()[l].entropy_sum, 1e-3);
  }
}

}  // namespace
}  // namespace attention::train
