// The named trace of a model: the explorer's attention steps per layer and head, the block's
// steps, and agreement with the batched forward pass.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "attention/given.hpp"
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

// The step tables say which steps an attention-only model keeps (the page asks a trace for those
// alone, models/steps.js) and how many rows a step of each width has after either pass.
TEST(TrainTrace, TheStepRowsSayWhatAnAttentionOnlyModelKeepsAndHowManyRows) {
  for (const bool attention_only : {false, true}) {
    Model<float> model(Small(attention_only));
    model.InitParameters(2);
    Batch batch;
    batch.size = 1;
    batch.length = static_cast<int>(kTokens.size());
    batch.tokens = kTokens;
    for (const Outputs outputs : {Outputs::kEveryPosition, Outputs::kLastPosition}) {
      ASSERT_TRUE(model.Forward(batch, outputs).ok());
      int width = 0;
      for (const ActivationStep& step : kBlockSteps) {
        const bool kept = model.Activation(step.name, 0, &width) != nullptr;
        EXPECT_EQ(kept, !attention_only || step.attention_only) << step.name;
        EXPECT_EQ(model.rows(step.width), batch.length) << step.name;
      }
      for (const ActivationStep& step : kModelSteps) {
        const bool kept = model.Activation(step.name, -1, &width) != nullptr;
        EXPECT_EQ(kept, !attention_only || step.attention_only) << step.name;
        EXPECT_EQ(FindModelStep(step.name), &step);
        const bool last = outputs == Outputs::kLastPosition && step.width == StepWidth::kVocabulary;
        EXPECT_EQ(model.rows(step.width), last ? 1 : batch.length) << step.name;
      }
    }
  }
  EXPECT_EQ(FindModelStep("residual1"), nullptr);
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

// LayerTraceInputs, the one place a trained layer becomes the explorer's inputs: x is what the
// layer's attention reads, every weight of kGivenSlots is the layer's tensor of that name, and
// the explorer's run of them is the model's own attention output.
TEST(TrainTrace, LayerTraceInputsAreTheLayersInputAndEveryGivenWeight) {
  for (const bool attention_only : {false, true}) {
    Model<float> model(Small(attention_only));
    model.InitParameters(4);
    Config config;
    Input input;
    const std::vector<std::string> labels = {"a", "b", "c", "d", "e", "f"};
    EXPECT_EQ(LayerTraceInputs(model, 0, labels, &config, &input).field(), "model");  // no pass
    Batch batch;
    batch.size = 1;
    batch.length = static_cast<int>(kTokens.size());
    batch.tokens = kTokens;
    for (int l = 0; l < 2; ++l) {
      ASSERT_TRUE(model.ForwardThrough(batch, l, Outputs::kLastPosition).ok());
      ASSERT_TRUE(LayerTraceInputs(model, l, labels, &config, &input).ok());
      EXPECT_EQ(config.d_model, 12);
      EXPECT_EQ(config.heads, 3);
      EXPECT_EQ(config.mask.type, MaskType::kCausal);
      EXPECT_FALSE(config.positional_encoding);
      EXPECT_EQ(config.embedding, EmbeddingSource::kGiven);
      EXPECT_EQ(input.tokens, labels);
      int width = 0;
      const float* x = AttentionInput(model, l, &width);
      EXPECT_EQ(*input.given.x, Eigen::Map<const Matrix>(x, 6, width));
      EXPECT_FALSE(input.given.x_kv.has_value());
      for (const GivenSlot& slot : kGivenSlots) {
        if (slot.weight == nullptr) continue;
        const TensorInfo* info = model.FindTensor("layers." + std::to_string(l) + "." + slot.name);
        ASSERT_NE(info, nullptr) << slot.name;
        EXPECT_EQ(
            *(input.given.*slot.given),
            Eigen::Map<const Matrix>(model.parameters() + info->offset, info->rows, info->cols))
            << slot.name << " of layer " << l;
      }
      Trace trace;
      ASSERT_TRUE(Trace::Run(config, input, &trace).ok());
      Matrix output;
      ASSERT_TRUE(trace.Copy("output", 0, &output).ok());
      const float* attention = model.Activation("attention", l, &width);
      EXPECT_LT(MaxAbsDiff(output, Eigen::Map<const Matrix>(attention, 6, width)), 1e-6f);
    }
    EXPECT_EQ(LayerTraceInputs(model, 2, labels, &config, &input).field(), "layer");
  }
}

}  // namespace
}  // namespace attention::train
