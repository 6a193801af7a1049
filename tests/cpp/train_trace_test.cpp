// The named trace of a model: the explorer's attention steps per layer and head, the block's
// steps, and agreement with the batched forward pass.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "attention/train/model_trace.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

ModelConfig Small(bool attention_only) {
  ModelConfig c = testing::SizedConfig(9, 8, 12, 3, 2);
  c.attention_only = attention_only;
  c.init_std = 0.3;
  return c;
}

Matrix Step(const ModelTrace& trace, const char* name, int layer, int head = 0) {
  Matrix m;
  const Status status = trace.Copy(name, layer, head, &m);
  EXPECT_TRUE(status.ok()) << name << " layer " << layer << ": " << status.message();
  return m;
}

float MaxAbsDiff(const Matrix& a, const Matrix& b) {
  EXPECT_EQ(a.rows(), b.rows());
  EXPECT_EQ(a.cols(), b.cols());
  if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
  return (a - b).cwiseAbs().maxCoeff();
}

const std::vector<int> kTokens = {3, 1, 4, 1, 5, 8};

TEST(TrainTrace, EveryStepOfAFullModel) {
  Model<float> model(Small(false));
  model.InitParameters(2);
  ModelTrace trace;
  ASSERT_TRUE(TraceModel(&model, kTokens, {}, &trace).ok());
  const int t = static_cast<int>(kTokens.size());
  for (int l = 0; l < 2; ++l) {
    for (const char* name : BlockStepNames()) EXPECT_EQ(Step(trace, name, l).rows(), t) << name;
    // The explorer's attention output is the block's attention step.
    EXPECT_LT(MaxAbsDiff(Step(trace, "output", l), Step(trace, "attention", l)), 1e-6f);
    EXPECT_LT(MaxAbsDiff(Step(trace, "residual1", l),
                         (l == 0 ? Step(trace, "embedding", -1) : Step(trace, "residual2", l - 1)) +
                             Step(trace, "attention", l)),
              1e-6f);
    EXPECT_LT(MaxAbsDiff(Step(trace, "residual2", l),
                         Step(trace, "residual1", l) + Step(trace, "ffnOut", l)),
              1e-6f);
    for (int h = 0; h < 3; ++h) {
      const Matrix w = Step(trace, "weights", l, h);
      ASSERT_EQ(w.rows(), t);
      for (int i = 0; i < t; ++i) {
        EXPECT_NEAR(w.row(i).sum(), 1.0f, 1e-6f);
        for (int j = i + 1; j < t; ++j) EXPECT_EQ(w(i, j), 0.0f);  // causal
      }
      EXPECT_EQ(Step(trace, "scores", l, h).cols(), t);
      EXPECT_EQ(Step(trace, "headOutput", l, h).cols(), 4);
    }
  }
  const Matrix p = Step(trace, "probabilities", -1);
  ASSERT_EQ(p.cols(), 9);
  for (int i = 0; i < t; ++i) EXPECT_NEAR(p.row(i).sum(), 1.0f, 1e-6f);
  EXPECT_EQ(Step(trace, "lnFinal", -1).cols(), 12);
  EXPECT_EQ(Step(trace, "logits", -1).rows(), t);
}

TEST(TrainTrace, AttentionOnlyHasNoLayerNormOrFfn) {
  Model<float> model(Small(true));
  model.InitParameters(2);
  ModelTrace trace;
  ASSERT_TRUE(TraceModel(&model, kTokens, {"a", "b", "c", "b", "d", "e"}, &trace).ok());
  EXPECT_EQ(trace.attention(1).tokens()[2], "c");
  Matrix m;
  for (const char* name : {"ln1", "ln2", "ffnHidden", "residual2"}) {
    const Status status = trace.Copy(name, 0, 0, &m);
    EXPECT_EQ(status.code(), ErrorCode::kUnknownStep) << name;
    EXPECT_EQ(status.field(), "step");
  }
  EXPECT_EQ(trace.Copy("lnFinal", -1, 0, &m).code(), ErrorCode::kUnknownStep);
  // Layer 2's attention reads layer 1's residual stream directly.
  EXPECT_LT(MaxAbsDiff(Step(trace, "x", 1), Step(trace, "residual1", 0)), 1e-7f);
  EXPECT_EQ(trace.Copy("weights", 0, 3, &m).field(), "head");
  EXPECT_EQ(trace.Copy("logits", -1, 1, &m).field(), "head");
  EXPECT_EQ(trace.Copy("q", 2, 0, &m).field(), "layer");
}

TEST(TrainTrace, ASequenceAloneEqualsItsRowsInABatch) {
  Model<float> model(Small(false));
  model.InitParameters(4);
  ModelTrace trace;
  ASSERT_TRUE(TraceModel(&model, kTokens, {}, &trace).ok());
  const Matrix alone = Step(trace, "logits", -1);
  Batch batch;
  batch.size = 2;
  batch.length = static_cast<int>(kTokens.size());
  batch.tokens = {7, 7, 0, 2, 6, 5};
  batch.tokens.insert(batch.tokens.end(), kTokens.begin(), kTokens.end());
  ASSERT_TRUE(model.Forward(batch).ok());
  int width = 0;
  const float* logits = model.Activation("logits", -1, &width);
  const Matrix second = Eigen::Map<const Matrix>(logits + kTokens.size() * width,
                                                 static_cast<Eigen::Index>(kTokens.size()), width);
  EXPECT_LT(MaxAbsDiff(second, alone), 1e-5f);
}

TEST(TrainTrace, BadTokensAndLabelsAreRefused) {
  Model<float> model(Small(false));
  ModelTrace trace;
  Status status = TraceModel(&model, {1, 9}, {}, &trace);
  EXPECT_EQ(status.field(), "tokens[1]");
  status = TraceModel(&model, {1, 2}, {"x"}, &trace);
  EXPECT_EQ(status.field(), "labels");
  status = TraceModel(&model, std::vector<int>(9, 0), {}, &trace);
  EXPECT_EQ(status.field(), "length");
}

}  // namespace
}  // namespace attention::train
