// The C++ model against the NumPy reference (tests/reference/train_reference.py): the same
// weights and batch give the same loss, logits and every parameter gradient, within 1e-4
// normwise relative error in float (what trains), and 1e-6 in double (whose only float32 part
// is the engine's sinusoid table).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "attention/train/model.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

using nlohmann::json;

template <typename T>
void CompareWithReference(const std::string& name) {
  const json fixture = testing::LoadJson("train/" + name + ".json");
  const ModelConfig config = testing::ReadModelConfig(fixture.at("config"));
  ASSERT_TRUE(ValidateModelConfig(config).ok());
  Model<T> model(config);
  // The layout must be the reference's, tensor by tensor; then load its weights.
  const json& params = fixture.at("parameters");
  ASSERT_EQ(params.size(), model.layout().size());
  for (size_t i = 0; i < params.size(); ++i) {
    const TensorInfo& info = model.layout()[i];
    ASSERT_EQ(params[i].at("name").get<std::string>(), info.name);
    ASSERT_EQ(params[i].at("shape").at(0).get<int>(), info.rows) << info.name;
    ASSERT_EQ(params[i].at("shape").at(1).get<int>(), info.cols) << info.name;
    const std::vector<double> data = params[i].at("data").get<std::vector<double>>();
    std::transform(data.begin(), data.end(), model.parameter(i),
                   [](double v) { return static_cast<T>(v); });
  }
  const Status status = model.Forward(testing::ReadBatch(fixture.at("batch")));
  ASSERT_TRUE(status.ok()) << status.message();
  model.ZeroGradients();
  ASSERT_TRUE(model.Backward().ok());

  const double expected_loss = fixture.at("loss").get<double>();
  const double loss_error = std::abs(model.loss() - expected_loss) / std::abs(expected_loss);
  // The bar: 1e-4 relative for float; double is held to 1e-6.
  const double bar = sizeof(T) == 4 ? 1e-4 : 1e-6;
  EXPECT_LT(loss_error, bar) << "loss " << model.loss() << " vs " << expected_loss;
  int width = 0;
  const double logits_error =
      testing::RelativeError(model.Activation("logits", -1, &width),
                             fixture.at("logits").at("data").get<std::vector<double>>());
  EXPECT_LT(logits_error, bar);
  double worst = std::max(loss_error, logits_error);
  std::string worst_name = loss_error > logits_error ? "loss" : "logits";
  double bk_worst = 0.0;
  const json& grads = fixture.at("gradients");
  // b_K's gradient is 0 (a constant added to a row of scores leaves its softmax unchanged):
  // both sides hold rounding noise there, measured against 1e-3 of the largest gradient.
  double largest = 0.0;
  for (const json& g : grads) {
    largest = std::max(largest, testing::MaxAbs(g.at("data").get<std::vector<double>>()));
  }
  for (size_t i = 0; i < grads.size(); ++i) {
    const TensorInfo& info = model.layout()[i];
    const double error = testing::RelativeError(
        model.gradients() + info.offset, grads[i].at("data").get<std::vector<double>>(),
        info.kind == TensorKind::kBK ? 1e-3 * largest : 0.0);
    EXPECT_LT(error, bar) << info.name;
    if (info.kind == TensorKind::kBK) {
      bk_worst = std::max(bk_worst, error);
    } else if (error > worst) {
      worst = error;
      worst_name = info.name;
    }
  }
  // What StepMetrics reports (the √dK experiment's curves): the mean softmax entropy and
  // ‖∂L/∂(q·kᵀ)‖₂, which the reference computes through softmax's full Jacobian.
  const AttentionSummary summary = SummarizeAttention(model.attention_stats());
  const double entropy = fixture.at("attentionEntropy").get<double>();
  const double dscores = fixture.at("scoreGradientNorm").get<double>();
  EXPECT_LT(std::abs(summary.entropy - entropy) / entropy, bar)
      << "entropy " << summary.entropy << " vs " << entropy;
  EXPECT_LT(std::abs(summary.score_gradient_norm - dscores) / dscores, bar)
      << "score gradient norm " << summary.score_gradient_norm << " vs " << dscores;
  std::printf("train/%s (%s): largest relative error %.2e (%s); b_K noise %.2e\n", name.c_str(),
              sizeof(T) == 4 ? "float" : "double", worst, worst_name.c_str(), bk_worst);
}

class TrainReference : public ::testing::TestWithParam<std::string> {};

TEST_P(TrainReference, FloatMatches) { CompareWithReference<float>(GetParam()); }
TEST_P(TrainReference, DoubleMatches) { CompareWithReference<double>(GetParam()); }

INSTANTIATE_TEST_SUITE_P(NumPy, TrainReference,
                         ::testing::Values("full_tied_causal", "attention_only",
                                           "untied_learned_noscale_masked"));

}  // namespace
}  // namespace attention::train
