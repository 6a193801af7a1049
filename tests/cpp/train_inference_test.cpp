// A model read rather than trained: a forward pass of the last position's
// logits only ([B × V], no backward arrays) gives exactly the last rows of a full one in a
// fraction of the memory; a pass that overflows float is refused, naming where.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "attention/train/model.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

ModelConfig Config() {
  ModelConfig c = testing::SizedConfig(40, 8, 12, 3, 2);
  c.init_std = 0.3;
  return c;
}

Batch TwoSequences() {
  Batch b;
  b.size = 2;
  b.length = 6;
  b.tokens = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8};
  return b;
}

std::vector<float> Rows(const Model<float>& m, const char* step, int first, int count) {
  int width = 0;
  const float* data = m.Activation(step, -1, &width);
  return std::vector<float>(data + static_cast<size_t>(first) * width,
                            data + static_cast<size_t>(first + count) * width);
}

TEST(TrainInference, TheLastPositionsLogitsAreTheFullPassesLastRows) {
  Model<float> full(Config()), last(Config());
  full.InitParameters(5);
  last.InitParameters(5);
  ASSERT_TRUE(full.Forward(TwoSequences()).ok());
  ASSERT_TRUE(last.Forward(TwoSequences(), Outputs::kLastPosition).ok());
  EXPECT_EQ(full.logits_rows(), 12);
  EXPECT_EQ(last.logits_rows(), 2);
  for (const char* step : {"logits", "probabilities"}) {
    for (int b = 0; b < 2; ++b) {
      // Row T − 1 of sequence b: the same products, bit for bit.
      EXPECT_EQ(Rows(last, step, b, 1), Rows(full, step, b * 6 + 5, 1)) << step << " " << b;
    }
  }
  // Nothing to differentiate, and no targets taken.
  EXPECT_EQ(last.Backward().field(), "targets");
  Batch with_targets = TwoSequences();
  with_targets.targets = with_targets.tokens;
  EXPECT_EQ(last.Forward(with_targets, Outputs::kLastPosition).field(), "targets");
  // The full pass after it lays its buffers out again.
  ASSERT_TRUE(last.Forward(TwoSequences()).ok());
  EXPECT_EQ(Rows(last, "logits", 0, 12), Rows(full, "logits", 0, 12));
}

TEST(TrainInference, TheLastPositionsPassNeedsNoNTimesVArrays) {
  ModelConfig c = Config();
  c.vocab_size = 65536;
  c.context_length = 2048;
  c.d_model = 4;
  c.heads = 1;
  c.layers = 1;
  const MemoryUse every = EstimateMemory(c, 1, 1250, 4);
  const MemoryUse last = EstimateMemory(c, 1, 1250, 4, Outputs::kLastPosition);
  const int64_t tv = int64_t{1250} * 65536 * 4;          // one [T × V] float array
  EXPECT_GE(every.activations + every.scratch, 3 * tv);  // logits, probabilities, dlogits
  EXPECT_LT(last.activations + last.scratch, tv / 4);
  Batch one;
  one.size = 1;
  one.length = 2048;
  one.tokens.assign(2048, 7);
  // A full pass of 2,048 tokens is refused, naming the tokens; the last position's is not.
  const Status refused = ValidateBatch(c, one);
  EXPECT_EQ(refused.field(), "tokens");
  EXPECT_NE(refused.message().find("2048 tokens"), std::string::npos) << refused.message();
  EXPECT_TRUE(ValidateBatch(c, one, Outputs::kLastPosition).ok());
}

// Every parameter ±3.4e38: finite, but any sum of two overflows.
void Overflowing(Model<float>* model) {
  float* p = model->parameters();
  for (size_t i = 0; i < model->parameter_count(); ++i) p[i] = i % 2 ? -3.4e38f : 3.4e38f;
}

TEST(TrainInference, AnOverflowingForwardPassIsRefusedNamingWhere) {
  Model<float> model(Config());
  Overflowing(&model);
  for (Outputs outputs : {Outputs::kEveryPosition, Outputs::kLastPosition}) {
    const Status status = model.Forward(TwoSequences(), outputs);
    EXPECT_EQ(status.code(), ErrorCode::kNonFinite);
    EXPECT_EQ(status.field(), "model");
    EXPECT_EQ(status.message().rfind("this model's forward pass overflows at layer 0 (its ", 0), 0)
        << status.message();
  }
  EXPECT_EQ(model.ForwardThrough(TwoSequences(), 0).field(), "model");
  // Training keeps its own message: the loss is what diverged.
  Batch with_targets = TwoSequences();
  with_targets.targets = with_targets.tokens;
  EXPECT_EQ(model.Forward(with_targets).field(), "loss");
}

TEST(TrainInference, AnOverflowAfterTheBlocksIsNamedThere) {
  Model<float> model(Config());
  model.InitParameters(5);
  // The blocks as drawn; a final LayerNorm gain of 3.4e38 takes its output beyond float.
  const TensorInfo* gain = model.FindTensor("lnFinalGain");
  ASSERT_NE(gain, nullptr);
  std::fill(model.parameters() + gain->offset, model.parameters() + gain->offset + gain->size(),
            3.4e38f);
  const Status status = model.Forward(TwoSequences(), Outputs::kLastPosition);
  EXPECT_EQ(status.field(), "model");
  EXPECT_NE(status.message().find("at its final LayerNorm (its lnFinal is not"), std::string::npos)
      << status.message();
  // The blocks were fine: a pass through them is not refused.
  EXPECT_TRUE(model.ForwardThrough(TwoSequences(), 1).ok());
}

}  // namespace
}  // namespace attention::train
