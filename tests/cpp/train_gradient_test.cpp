// Every gradient of the hand-written backward pass against central finite differences, in
// double, for every parameter tensor of small models with each switch on and off.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "attention/random.hpp"
#include "attention/train/model.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

struct GradientCase {
  const char* name;
  std::function<void(ModelConfig*)> change;
  bool loss_mask = false;  // weights 0, 1 and 2.5 on the positions instead of all 1
};

ModelConfig SmallConfig() {
  ModelConfig c = testing::SizedConfig(5, 4, 6, 2, 2);
  c.init_std = 0.5;  // far from 0.02, so that softmax, GELU and LayerNorm are not near-linear
  return c;
}

Batch RandomBatch(const ModelConfig& config, bool loss_mask, uint32_t seed) {
  RandomState rng(seed);
  Batch batch;
  batch.size = 2;
  batch.length = config.context_length;
  const int n = batch.size * batch.length;
  for (int i = 0; i < n; ++i) {
    batch.tokens.push_back(static_cast<int>(rng.NextUint32() % config.vocab_size));
    batch.targets.push_back(static_cast<int>(rng.NextUint32() % config.vocab_size));
  }
  if (loss_mask) {
    const float weights[] = {0.0f, 1.0f, 0.0f, 2.5f};
    for (int i = 0; i < n; ++i) batch.loss_weights.push_back(weights[i % 4]);
  }
  return batch;
}

double Loss(Model<double>* model, const Batch& batch) {
  const Status status = model->Forward(batch);
  EXPECT_TRUE(status.ok()) << status.message();
  return model->loss();
}

class GradientCheck : public ::testing::TestWithParam<GradientCase> {};

TEST_P(GradientCheck, EveryTensorMatchesFiniteDifferences) {
  ModelConfig config = SmallConfig();
  GetParam().change(&config);
  ASSERT_TRUE(ValidateModelConfig(config).ok());
  Model<double> model(config);
  model.InitParameters(7);
  // Break the initial symmetries (zero biases, unit gains), so that their gradients are generic.
  RandomState jitter(11);
  for (size_t i = 0; i < model.parameter_count(); ++i) {
    model.parameters()[i] += 0.1 * jitter.Randn();
  }
  const Batch batch = RandomBatch(config, GetParam().loss_mask, 3);
  Loss(&model, batch);
  model.ZeroGradients();
  ASSERT_TRUE(model.Backward().ok());
  const std::vector<double> analytic(model.gradients(),
                                     model.gradients() + model.parameter_count());

  const double h = 1e-5;
  double worst = 0.0;
  std::string worst_name;
  for (const TensorInfo& info : model.layout()) {
    double max_error = 0.0, max_grad = 0.0;
    for (size_t i = info.offset; i < info.offset + info.size(); ++i) {
      double* p = model.parameters() + i;
      const double saved = *p;
      *p = saved + h;
      const double up = Loss(&model, batch);
      *p = saved - h;
      const double down = Loss(&model, batch);
      *p = saved;
      const double numeric = (up - down) / (2 * h);
      max_error = std::max(max_error, std::abs(numeric - analytic[i]));
      max_grad = std::max({max_grad, std::abs(analytic[i]), std::abs(numeric)});
    }
    // Normwise relative error; the floor covers b_K, whose gradient is exactly 0 (adding a
    // constant to every key's score of a row does not change its softmax).
    const double error = max_error / std::max(max_grad, 1e-3);
    EXPECT_LT(error, 1e-6) << info.name << ": max |numeric − analytic| " << max_error
                           << ", max |gradient| " << max_grad;
    if (info.kind != TensorKind::kBK) {
      EXPECT_GT(max_grad, 1e-6) << info.name << " has no gradient: the check would be empty";
      if (error > worst) {
        worst = error;
        worst_name = info.name;
      }
    }
  }
  std::printf("%s: %zu parameters, largest relative error %.2e (%s, b_K aside)\n", GetParam().name,
              model.parameter_count(), worst, worst_name.c_str());
}

const GradientCase kCases[] = {
    {"full", [](ModelConfig*) {}},
    {"attentionOnly", [](ModelConfig* c) { c->attention_only = true; }},
    {"noResidual", [](ModelConfig* c) { c->residual = false; }},
    {"attentionOnlyNoResidual",
     [](ModelConfig* c) {
       c->attention_only = true;
       c->residual = false;
     }},
    {"noScaling", [](ModelConfig* c) { c->scale = false; }},
    {"untied", [](ModelConfig* c) { c->tied_embeddings = false; }},
    {"learnedPositions", [](ModelConfig* c) { c->positional = PositionalKind::kLearned; }},
    {"bidirectional", [](ModelConfig* c) { c->causal = false; }},
    {"lossMask", [](ModelConfig*) {}, true},
    {"wideHeads",  // P = 3 · 4 ≠ dModel, dFF given
     [](ModelConfig* c) {
       c->heads = 3;
       c->d_k = 4;
       c->d_ff = 10;
     }},
    {"oneLayerLearnedUntiedBidirectionalMasked",
     [](ModelConfig* c) {
       c->layers = 1;
       c->positional = PositionalKind::kLearned;
       c->tied_embeddings = false;
       c->causal = false;
     },
     true},
};

INSTANTIATE_TEST_SUITE_P(Train, GradientCheck, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<GradientCase>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace attention::train
