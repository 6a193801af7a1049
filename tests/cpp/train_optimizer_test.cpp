// AdamW, the learning-rate schedule, clipping, and determinism of whole training runs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "attention/random.hpp"
#include "attention/train/model.hpp"
#include "attention/train/optimizer.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

TEST(TrainSchedule, WarmupThenCosineToTheFloor) {
  AdamWConfig c;
  c.learning_rate = 1e-3;
  c.min_learning_rate = 1e-4;
  c.warmup_steps = 10;
  c.total_steps = 110;
  EXPECT_DOUBLE_EQ(LearningRateAt(c, 0), 1e-4);  // 1/10 of the peak
  EXPECT_DOUBLE_EQ(LearningRateAt(c, 4), 5e-4);
  EXPECT_DOUBLE_EQ(LearningRateAt(c, 9), 1e-3);
  EXPECT_DOUBLE_EQ(LearningRateAt(c, 10), 1e-3);      // cosine at 0
  EXPECT_NEAR(LearningRateAt(c, 60), 5.5e-4, 1e-15);  // halfway: the mean of peak and floor
  EXPECT_DOUBLE_EQ(LearningRateAt(c, 110), 1e-4);
  EXPECT_DOUBLE_EQ(LearningRateAt(c, 500), 1e-4);
  c.total_steps = 0;
  EXPECT_DOUBLE_EQ(LearningRateAt(c, 500), 1e-3);
}

TEST(TrainAdamW, BadFieldsAreNamed) {
  const std::pair<const char*, void (*)(AdamWConfig*)> cases[] = {
      {"learningRate", [](AdamWConfig* c) { c->learning_rate = 0.0; }},
      {"beta1", [](AdamWConfig* c) { c->beta1 = 1.0; }},
      {"beta2", [](AdamWConfig* c) { c->beta2 = NAN; }},
      {"epsilon", [](AdamWConfig* c) { c->epsilon = -1.0; }},
      {"weightDecay", [](AdamWConfig* c) { c->weight_decay = -0.1; }},
      {"clipNorm", [](AdamWConfig* c) { c->clip_norm = INFINITY; }},
      {"warmupSteps", [](AdamWConfig* c) { c->warmup_steps = -1; }},
      {"totalSteps", [](AdamWConfig* c) { c->total_steps = -5; }},
  };
  EXPECT_TRUE(ValidateAdamWConfig(AdamWConfig{}).ok());
  for (const auto& [field, spoil] : cases) {
    AdamWConfig c;
    spoil(&c);
    const Status status = ValidateAdamWConfig(c);
    EXPECT_EQ(status.field(), field) << status.message();
  }
}

// Two tensors of 2 values: a decayed matrix and a bias.
std::vector<TensorInfo> TwoTensors() {
  return {{TensorKind::kWQ, 0, "w", 1, 2, 0, true, InitRule::kNormal},
          {TensorKind::kBQ, 0, "b", 1, 2, 2, false, InitRule::kZeros}};
}

TEST(TrainAdamW, FirstStepByHand) {
  AdamWConfig c;
  c.learning_rate = 0.1;
  c.weight_decay = 0.5;
  c.clip_norm = 0.0;
  AdamW<double> adam(c, TwoTensors());
  std::vector<double> p = {1.0, -2.0, 3.0, 4.0};
  const std::vector<double> g = {0.5, -0.25, 0.0, 2.0};
  const StepReport report = adam.Step(p.data(), g.data());
  EXPECT_NEAR(report.gradient_norm, std::sqrt(0.25 + 0.0625 + 4.0), 1e-15);
  EXPECT_FALSE(report.clipped);
  // Step 1: m̂ = g, v̂ = g², so the Adam part is lr · g / (|g| + ε) ≈ lr · sign(g); the matrix
  // also loses lr · wd · p, the bias does not.
  EXPECT_NEAR(p[0], 1.0 - 0.1 * (1.0 + 0.5 * 1.0), 1e-7);
  EXPECT_NEAR(p[1], -2.0 - 0.1 * (-1.0 + 0.5 * -2.0), 1e-7);
  EXPECT_DOUBLE_EQ(p[2], 3.0);  // no gradient, no decay
  EXPECT_NEAR(p[3], 4.0 - 0.1, 1e-7);
  EXPECT_NEAR(adam.first_moment()[3], 0.1 * 2.0, 1e-15);
  EXPECT_NEAR(adam.second_moment()[3], 0.05 * 4.0, 1e-15);
}

TEST(TrainAdamW, ClipsByTheGlobalNorm) {
  AdamWConfig c;
  c.clip_norm = 1.0;
  AdamW<double> adam(c, TwoTensors());
  std::vector<double> p(4, 0.0);
  const std::vector<double> g = {6.0, 0.0, 0.0, 8.0};  // ‖g‖ = 10
  const StepReport report = adam.Step(p.data(), g.data());
  EXPECT_DOUBLE_EQ(report.gradient_norm, 10.0);
  EXPECT_TRUE(report.clipped);
  // m = (1 − β₁) · g · 1/(10 + 1e-6)
  EXPECT_NEAR(adam.first_moment()[0], 0.1 * 0.6, 1e-8);
  EXPECT_NEAR(adam.first_moment()[3], 0.1 * 0.8, 1e-8);
}

ModelConfig TinyConfig() { return testing::SizedConfig(8, 8, 16, 2, 2); }

// A fixed batch: each sequence counts up from a random start, so the next token is learnable.
Batch CountingBatch(const ModelConfig& config, uint32_t seed) {
  RandomState rng(seed);
  Batch b;
  b.size = 8;
  b.length = config.context_length;
  for (int s = 0; s < b.size; ++s) {
    const int start = static_cast<int>(rng.NextUint32() % config.vocab_size);
    for (int t = 0; t < b.length; ++t) {
      b.tokens.push_back((start + t) % config.vocab_size);
      b.targets.push_back((start + t + 1) % config.vocab_size);
    }
  }
  return b;
}

// Trains `steps` steps on fresh counting batches; returns the last loss.
float Train(Model<float>* model, AdamW<float>* adam, int steps) {
  float loss = 0.0f;
  for (int step = 0; step < steps; ++step) {
    const Status status = model->Forward(CountingBatch(model->config(), 100 + step));
    EXPECT_TRUE(status.ok()) << status.message();
    loss = model->loss();
    model->ZeroGradients();
    EXPECT_TRUE(model->Backward().ok());
    adam->Step(model->parameters(), model->gradients());
  }
  return loss;
}

TEST(TrainAdamW, SameSeedSameWeightsBitForBit) {
  AdamWConfig c;
  c.learning_rate = 1e-2;
  c.warmup_steps = 3;
  c.total_steps = 20;
  Model<float> a(TinyConfig()), b(TinyConfig()), other(TinyConfig());
  a.InitParameters(5);
  b.InitParameters(5);
  other.InitParameters(6);
  AdamW<float> adam_a(c, a.layout()), adam_b(c, b.layout()), adam_other(c, other.layout());
  Train(&a, &adam_a, 20);
  Train(&b, &adam_b, 20);
  Train(&other, &adam_other, 20);
  const size_t bytes = a.parameter_count() * sizeof(float);
  EXPECT_EQ(std::memcmp(a.parameters(), b.parameters(), bytes), 0);
  EXPECT_NE(std::memcmp(a.parameters(), other.parameters(), bytes), 0);
}

TEST(TrainAdamW, CountingIsLearned) {
  AdamWConfig c;
  c.learning_rate = 1e-2;
  c.warmup_steps = 10;
  Model<float> model(TinyConfig());
  model.InitParameters(1);
  AdamW<float> adam(c, model.layout());
  ASSERT_TRUE(model.Forward(CountingBatch(model.config(), 1)).ok());
  const float initial = model.loss();
  EXPECT_NEAR(initial, std::log(8.0f), 0.1f);  // uniform over 8 tokens at init
  const float trained = Train(&model, &adam, 150);
  EXPECT_LT(trained, 0.1f) << "from " << initial;
}

}  // namespace
}  // namespace attention::train
