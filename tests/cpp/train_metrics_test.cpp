// What the training playground reads from a trainer: the attention entropy and score
// gradient of each step, head scores on held-out examples, one example's attention snapshot and
// the model's greedy answer to a typed input. The NumPy check of the entropy and ‖∂L/∂scores‖
// is in train_reference_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "attention/train/head_scores.hpp"
#include "attention/train/trainer.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

TrainerConfig Small(TaskKind kind) {
  TrainerConfig config;
  config.task.kind = kind;
  config.task.length = 4;
  config.task.alphabet = 6;
  config.task.modulus = 7;
  config.model.d_model = 16;
  config.model.layers = 2;
  config.model.heads = 2;
  config.model.init_std = 0.3;  // weights large enough for attention that is not uniform
  config.batch_size = 5;
  config.seed = 9;
  return config;
}

// The mean over every row of every head of every layer and sequence of −Σⱼ wⱼ·ln wⱼ, from
// HeadWeights (recomputed in double from q and k) of `model`'s last Forward.
double MeanEntropy(const Model<float>& model, int batch, int length) {
  const ModelConfig& c = model.config();
  double sum = 0.0;
  for (int l = 0; l < c.layers; ++l) {
    for (int h = 0; h < c.heads; ++h) {
      for (int b = 0; b < batch; ++b) {
        const Matrix w = HeadWeights(model, length, l, h, b);
        for (int i = 0; i < length; ++i) {
          for (int j = 0; j < length; ++j) {
            if (w(i, j) > 0) sum -= w(i, j) * std::log(static_cast<double>(w(i, j)));
          }
        }
      }
    }
  }
  return sum / (static_cast<double>(c.layers) * c.heads * batch * length);
}

TEST(TrainMetrics, StepReportsTheLastBatchsEntropyAndScoreGradient) {
  for (bool scale : {true, false}) {
    TrainerConfig config = Small(TaskKind::kSort);
    config.model.scale = scale;
    auto trainer = testing::MakeTrainer(config);
    // A replay of the trainer's third step: its weights after two steps, its third batch.
    auto replay = testing::MakeTrainer(config);
    StepMetrics metrics;
    ASSERT_TRUE(replay->Step(2, &metrics).ok());
    ASSERT_TRUE(trainer->Step(3, &metrics).ok());
    TaskStream stream(config.task, config.seed, Split::kTrain);
    stream.Take(2 * config.batch_size);
    const Batch batch = MakeBatch(stream.Take(config.batch_size));
    Model<float>& model = replay->model();
    ASSERT_TRUE(model.Forward(batch).ok());
    EXPECT_NEAR(metrics.attention_entropy, MeanEntropy(model, batch.size, batch.length), 1e-5);
    EXPECT_GT(metrics.attention_entropy, 0.1) << "not one-hot";
    EXPECT_LT(metrics.attention_entropy, std::log(8.0)) << "below uniform over 8 keys";
    model.ZeroGradients();
    ASSERT_TRUE(model.Backward().ok());
    EXPECT_NEAR(metrics.score_gradient_norm,
                SummarizeAttention(model.attention_stats()).score_gradient_norm,
                1e-6 * metrics.score_gradient_norm);
    EXPECT_GT(metrics.score_gradient_norm, 0.0);
    EXPECT_DOUBLE_EQ(metrics.softmax_gradient_norm,
                     scale ? metrics.score_gradient_norm * std::sqrt(8.0)  // dK = 16 / 2
                           : metrics.score_gradient_norm);
  }
}

TEST(TrainMetrics, HeadScoresDoNotDependOnTheBatching) {
  auto trainer = testing::MakeTrainer(Small(TaskKind::kInduction));
  StepMetrics metrics;
  ASSERT_TRUE(trainer->Step(3, &metrics).ok());
  const auto examples = TaskStream(trainer->config().task, 9, Split::kHeldOut).Take(13);
  const HeadScores whole = ScoreHeads(&trainer->model(), examples, 100);
  const HeadScores parts = ScoreHeads(&trainer->model(), examples, 4);
  const HeadScores held_out = trainer->ScoreHeldOutHeads(13);  // batches of 5
  EXPECT_GE(whole.induction_positions, 13) << "every example has answers with a source";
  EXPECT_EQ(parts.induction_positions, whole.induction_positions);
  for (int l = 0; l < 2; ++l) {
    for (int h = 0; h < 2; ++h) {
      EXPECT_NEAR(parts.induction[l][h], whole.induction[l][h], 1e-12);
      EXPECT_NEAR(parts.previous_token[l][h], whole.previous_token[l][h], 1e-12);
      EXPECT_NEAR(held_out.induction[l][h], whole.induction[l][h], 1e-12);
      EXPECT_GT(whole.induction[l][h], 0.0);
      EXPECT_LT(whole.induction[l][h], 1.0);
    }
  }
  auto modular = testing::MakeTrainer(Small(TaskKind::kModularAddition));
  EXPECT_EQ(modular->ScoreHeldOutHeads(10).induction_positions, 0) << "no answer has a source";
}

TEST(TrainMetrics, AttentionSnapshotHoldsEveryHeadsWeights) {
  auto trainer = testing::MakeTrainer(Small(TaskKind::kSort));
  Model<float>& model = trainer->model();
  const std::vector<int> tokens = {3, 1, 5, 0, 6, 0, 1};  // 3 1 5 0 | 0 1
  const std::vector<float> snapshot = AttentionSnapshot(&model, tokens);
  ASSERT_EQ(snapshot.size(), 2u * 2 * 7 * 7);
  for (int l = 0; l < 2; ++l) {
    for (int h = 0; h < 2; ++h) {
      const Matrix w = HeadWeights(model, 7, l, h, 0);
      const float* block = snapshot.data() + (l * 2 + h) * 49;
      for (int i = 0; i < 7; ++i) {
        for (int j = 0; j < 7; ++j) EXPECT_EQ(block[i * 7 + j], w(i, j)) << l << h << i << j;
      }
    }
  }
  EXPECT_TRUE(AttentionSnapshot(&model, {3, 99}).empty()) << "a token outside the vocabulary";
  EXPECT_TRUE(AttentionSnapshot(&model, std::vector<int>(9, 0)).empty()) << "past the context";
}

// The model's arg-max next token after `tokens`, from one Forward of the whole sequence.
int NextToken(Model<float>& model, const std::vector<int>& tokens) {
  Batch batch;
  batch.size = 1;
  batch.length = static_cast<int>(tokens.size());
  batch.tokens = tokens;
  EXPECT_TRUE(model.Forward(batch).ok());
  int width = 0;
  const float* logits = model.Activation("logits", -1, &width);
  const float* last = logits + (tokens.size() - 1) * width;
  return static_cast<int>(std::max_element(last, last + width) - last);
}

TEST(TrainMetrics, PredictFollowsTheArgMaxChain) {
  struct Case {
    TaskKind kind;
    std::vector<int> input;
    std::vector<int> prompt;  // what the model reads before it answers
    size_t answers;
  } cases[] = {
      {TaskKind::kSort, {3, 1, 5, 0}, {3, 1, 5, 0, 6}, 4},
      {TaskKind::kReverse, {2, 2, 4, 1}, {2, 2, 4, 1, 6}, 4},
      // length 4: a segment of m = 8 − 6 = 2 after 4 filler symbols; the model is given its
      // first symbol again and answers the second.
      {TaskKind::kInduction, {0, 5, 4, 4, 2, 3}, {0, 5, 4, 4, 2, 3, 2}, 1},
      {TaskKind::kInduction, {0, 5, 4, 2}, {0, 5, 4, 2, 0}, 3},
      {TaskKind::kModularAddition, {3, 6}, {3, 7, 6, 8}, 1},
  };
  for (const Case& c : cases) {
    auto trainer = testing::MakeTrainer(Small(c.kind));
    StepMetrics metrics;
    ASSERT_TRUE(trainer->Step(5, &metrics).ok());
    std::vector<int> prompt, answer;
    const Status status = trainer->Predict(c.input, &prompt, &answer);
    ASSERT_TRUE(status.ok()) << status.message();
    EXPECT_EQ(prompt, c.prompt);
    ASSERT_EQ(answer.size(), c.answers);
    std::vector<int> sequence = prompt;
    for (int token : answer) {
      EXPECT_EQ(token, NextToken(trainer->model(), sequence));
      sequence.push_back(token);
    }
  }
}

TEST(TrainMetrics, PredictRefusesInputsTheTaskDoesNotTake) {
  struct Case {
    TaskKind kind;
    std::vector<int> input;
    const char* field;
    const char* message;
  } cases[] = {
      {TaskKind::kSort,
       {3, 1, 5},
       "input",
       "input has 3 symbols; sort takes exactly 4 symbols from 0 to 5"},
      {TaskKind::kSort,
       {3, 1, 6, 2},
       "input[2]",
       "input[2] (\"|\") must be one of the symbols from 0 to 5"},
      {TaskKind::kCopy,
       {3, 1, -1, 2},
       "input[2]",
       "input[2] (-1) must be one of the symbols from 0 to 5"},
      {TaskKind::kInduction,
       {1, 2, 3},
       "input",
       "input has 3 symbols; induction takes 4 to 6 symbols from 0 to 5"},
      {TaskKind::kInduction,
       {1, 2, 3, 4, 5, 0, 1},
       "input",
       "input has 7 symbols; induction takes 4 to 6 symbols from 0 to 5"},
      {TaskKind::kModularAddition,
       {3, 7},
       "input[1]",
       "input[1] (\"+\") must be one of the symbols from 0 to 6"},
      {TaskKind::kModularAddition,
       {},
       "input",
       "input has 0 symbols; modular takes exactly 2 symbols from 0 to 6"},
  };
  for (const Case& c : cases) {
    auto trainer = testing::MakeTrainer(Small(c.kind));
    std::vector<int> prompt, answer;
    const Status status = trainer->Predict(c.input, &prompt, &answer);
    EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
    EXPECT_EQ(status.field(), c.field);
    EXPECT_EQ(status.message(), c.message);
  }
}

}  // namespace
}  // namespace attention::train
