// The training loop and the head scores, on tiny runs (the long runs: learning_test.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "attention/train/corpus_trainer.hpp"
#include "attention/train/head_scores.hpp"
#include "attention/train/trainer.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

TrainerConfig Tiny() {
  TrainerConfig config;
  config.task.kind = TaskKind::kSort;
  config.task.length = 4;
  config.task.alphabet = 6;
  config.model.d_model = 16;
  config.model.layers = 1;
  config.model.heads = 2;
  config.batch_size = 8;
  config.seed = 5;
  return config;
}

std::vector<float> Parameters(Trainer& trainer) {
  const float* p = trainer.model().parameters();
  return std::vector<float>(p, p + trainer.model().parameter_count());
}

TEST(TrainTrainer, TheTaskSetsVocabularyAndContext) {
  auto trainer = testing::MakeTrainer(Tiny());
  EXPECT_EQ(trainer->config().model.vocab_size, 7) << "6 symbols and the separator";
  EXPECT_EQ(trainer->config().model.context_length, 8);
  EXPECT_EQ(trainer->layout().symbols[6], "|");
}

TEST(TrainTrainer, SameSeedSameRunOtherSeedOtherRun) {
  auto a = testing::MakeTrainer(Tiny()), b = testing::MakeTrainer(Tiny());
  TrainerConfig other = Tiny();
  other.seed = 6;
  auto c = testing::MakeTrainer(other);
  StepMetrics ma, mb, mc;
  ASSERT_TRUE(a->Step(5, &ma).ok());
  ASSERT_TRUE(b->Step(3, &mb).ok());
  ASSERT_TRUE(b->Step(2, &mb).ok());
  ASSERT_TRUE(c->Step(5, &mc).ok());
  EXPECT_EQ(Parameters(*a), Parameters(*b)) << "bit-identical, however the steps are split";
  EXPECT_NE(Parameters(*a), Parameters(*c));
  EXPECT_EQ(ma.step, 5);
  EXPECT_EQ(mb.step, 5);
}

TEST(TrainTrainer, MetricsDescribeTheSteps) {
  TrainerConfig config = Tiny();
  config.optimizer.learning_rate = 3e-3;
  config.optimizer.warmup_steps = 10;
  auto trainer = testing::MakeTrainer(config);
  StepMetrics first, later;
  ASSERT_TRUE(trainer->Step(1, &first).ok());
  // Untrained, the loss is about ln V (7 symbols) and the accuracy about chance.
  EXPECT_NEAR(first.loss, std::log(7.0), 0.3);
  EXPECT_DOUBLE_EQ(first.learning_rate, LearningRateAt(config.optimizer, 0));
  EXPECT_GT(first.gradient_norm, 0.0);
  EXPECT_GT(first.tokens_per_second, 0.0);
  ASSERT_TRUE(trainer->Step(60, &later).ok());
  EXPECT_EQ(later.step, 61);
  EXPECT_DOUBLE_EQ(later.learning_rate, LearningRateAt(config.optimizer, 60));
  EXPECT_LT(later.loss, first.loss - 0.3) << "60 steps already teach something";
  EXPECT_GT(later.accuracy, 0.3);
  EXPECT_LE(later.accuracy, 1.0);
}

TEST(TrainTrainer, EvaluateScoresTheModelsOwnPredictions) {
  auto trainer = testing::MakeTrainer(Tiny());
  const Accuracy a = trainer->Evaluate(200);
  EXPECT_EQ(a.examples, 200);
  EXPECT_EQ(a.exact_match, 0.0) << "untrained";
  // The predictor gives one arg-max per position, each a token of the vocabulary.
  const Predictor predict = trainer->MakePredictor();
  const auto out = predict({{0, 1, 2, 6, 3}, {5, 5, 4, 3, 6}});
  ASSERT_EQ(out.size(), 2u);
  for (const auto& row : out) {
    ASSERT_EQ(row.size(), 5u);
    for (int t : row) EXPECT_TRUE(t >= 0 && t < 7);
  }
}

TEST(TrainTrainer, BadConfigurationsNameTheirField) {
  struct Case {
    void (*spoil)(TrainerConfig*);
    const char* field;
  } cases[] = {
      {[](TrainerConfig* c) { c->task.length = 0; }, "length"},
      {[](TrainerConfig* c) { c->model.d_model = 0; }, "dModel"},
      {[](TrainerConfig* c) { c->optimizer.beta2 = 1.5; }, "beta2"},
      {[](TrainerConfig* c) { c->batch_size = 0; }, "batchSize"},
  };
  for (const Case& c : cases) {
    TrainerConfig config = Tiny();
    c.spoil(&config);
    std::unique_ptr<Trainer> trainer;
    const Status status = Trainer::Create(config, &trainer);
    EXPECT_EQ(status.field(), c.field) << status.message();
    EXPECT_EQ(trainer, nullptr);
  }
  auto trainer = testing::MakeTrainer(Tiny());
  StepMetrics metrics;
  EXPECT_EQ(trainer->Step(0, &metrics).field(), "count");
}

// The binding's memory cap runs inside Create: after Create's own checks, on the model with the
// task's vocabulary and length, and its refusal leaves no trainer.
TEST(TrainTrainer, TheCheckBeforeAllocationSeesTheResolvedModelAfterCreatesOwnChecks) {
  const TrainerConfig config = Tiny();
  int calls = 0;
  ModelConfig seen;
  int seen_batch = 0;
  const BeforeAllocation refuse = [&](const ModelConfig& model, int batch_size) {
    ++calls;
    seen = model;
    seen_batch = batch_size;
    return Status(ErrorCode::kLimitExceeded, "batchSize", "too large");
  };
  std::unique_ptr<Trainer> trainer;
  EXPECT_EQ(Trainer::Create(config, &trainer, refuse).field(), "batchSize");
  EXPECT_EQ(trainer, nullptr);
  EXPECT_EQ(calls, 1);
  const TaskLayout layout = LayoutOf(config.task);
  EXPECT_EQ(seen.vocab_size, layout.vocab_size);
  EXPECT_EQ(seen.context_length, layout.sequence_length);
  EXPECT_EQ(seen_batch, config.batch_size);
  TrainerConfig bad = config;
  bad.model.d_model = 0;
  EXPECT_EQ(Trainer::Create(bad, &trainer, refuse).field(), "dModel");
  EXPECT_EQ(calls, 1) << "not called for a configuration Create refuses";
  const BeforeAllocation allow = [](const ModelConfig&, int) { return Status::Ok(); };
  EXPECT_TRUE(Trainer::Create(config, &trainer, allow).ok());
  EXPECT_NE(trainer, nullptr);
}

TEST(TrainHeadScores, RecomputedWeightsReproduceTheModelsAttentionOutput) {
  for (bool causal : {true, false}) {
    for (bool scale : {true, false}) {
      ModelConfig config;
      config.vocab_size = 11;
      config.context_length = 9;
      config.d_model = 12;
      config.heads = 3;
      config.layers = 2;
      config.causal = causal;
      config.scale = scale;
      config.init_std = 0.3;
      Model<float> model(config);
      model.InitParameters(4);
      EXPECT_EQ(HeadWeights(model, 9, 0, 0, 0).size(), 0) << "no Forward yet";
      Batch batch;
      batch.size = 2;
      batch.length = 9;
      for (int i = 0; i < 18; ++i) batch.tokens.push_back((i * 7) % 11);
      ASSERT_TRUE(model.Forward(batch).ok());
      for (int layer = 0; layer < 2; ++layer) {
        int p = 0;
        const float* v = model.Activation("v", layer, &p);
        const float* concat = model.Activation("concat", layer, &p);
        for (int b = 0; b < 2; ++b) {
          for (int h = 0; h < 3; ++h) {
            const Matrix w = HeadWeights(model, 9, layer, h, b);
            for (int i = 0; i < 9; ++i) {
              EXPECT_NEAR(w.row(i).sum(), 1.0f, 1e-5f);
              for (int j = i + 1; j < 9 && causal; ++j) EXPECT_EQ(w(i, j), 0.0f);
              // concat_h[i] = Σⱼ w(i, j) · v_h[j], the model's own attention output.
              for (int c = 0; c < 4; ++c) {
                double sum = 0.0;
                for (int j = 0; j < 9; ++j) sum += w(i, j) * v[(b * 9 + j) * p + h * 4 + c];
                EXPECT_NEAR(sum, concat[(b * 9 + i) * p + h * 4 + c], 1e-5)
                    << causal << scale << layer << b << h << i << c;
              }
            }
          }
        }
      }
    }
  }
}

TEST(TrainHeadScores, AnUntrainedModelHasNoInductionHead) {
  TrainerConfig config;
  config.task.kind = TaskKind::kInduction;
  config.task.length = 8;
  config.task.alphabet = 32;
  config.model.d_model = 16;
  config.model.heads = 2;
  config.model.attention_only = true;
  auto trainer = testing::MakeTrainer(config);
  const auto examples = TaskStream(config.task, 3, Split::kHeldOut).Take(50);
  const HeadScores scores = ScoreHeads(&trainer->model(), examples);
  ASSERT_EQ(scores.induction.size(), 2u);
  ASSERT_EQ(scores.induction[1].size(), 2u);
  // Near-uniform causal attention over 8 … 15 keys gives about 1/11 to each.
  for (const auto& layer : scores.induction) {
    for (double s : layer) EXPECT_LT(s, 0.2);
  }
  for (double s : scores.previous_token[0]) EXPECT_LT(s, 0.3);
}

}  // namespace
}  // namespace attention::train

namespace attention::train {
namespace {

// One loop for both trainers (training_loop.hpp): the corpus trainer's metrics were left at 0.
TEST(TrainingLoop, TheCorpusTrainerFillsEveryMetricAsTheTaskTrainerDoes) {
  TrainerConfig config;
  config.model = testing::SizedConfig(5, 8, 16, 2, 1);
  config.batch_size = 4;
  config.optimizer.learning_rate = 1e-2;
  std::vector<int> ids;
  for (int i = 0; i < 200; ++i) ids.push_back(i % 5);
  std::unique_ptr<CorpusTrainer> trainer;
  ASSERT_TRUE(CorpusTrainer::Create(config, &ids, &trainer).ok());
  StepMetrics m;
  ASSERT_TRUE(trainer->Step(60, &m).ok());
  EXPECT_EQ(m.step, 60);
  EXPECT_GT(m.accuracy, 0.5) << "0 1 2 3 4 0 1 … is learned within 60 steps";
  EXPECT_LE(m.accuracy, 1.0);
  EXPECT_GT(m.attention_entropy, 0.0);
  EXPECT_GT(m.score_gradient_norm, 0.0);
  EXPECT_GT(m.softmax_gradient_norm, m.score_gradient_norm) << "scaled: times √dK";
  EXPECT_GT(m.seconds, 0.0);
  EXPECT_GT(m.tokens_per_second, 0.0);
}

TEST(TrainingLoop, ADivergedTrainerRefusesEveryLaterStepWithTheSameError) {
  TrainerConfig config;
  config.task.length = 4;
  config.task.alphabet = 5;
  config.model.layers = 6;
  config.model.d_model = 32;
  config.model.attention_only = true;
  config.model.residual = false;
  config.model.init_std = 10;
  config.optimizer.learning_rate = 10;
  config.optimizer.clip_norm = 0;
  config.batch_size = 8;
  config.seed = 1;
  auto trainer = testing::MakeTrainer(config);
  StepMetrics m;
  Status first;
  for (int i = 0; i < 50 && first.ok(); ++i) first = trainer->Step(1, &m);
  ASSERT_EQ(first.code(), ErrorCode::kNonFinite) << "six layers without residuals overflow";
  EXPECT_TRUE(trainer->diverged());
  const std::vector<float> before = Parameters(*trainer);
  const int steps = trainer->steps();
  const Status later = trainer->Step(3, &m);
  EXPECT_EQ(later.code(), first.code());
  EXPECT_EQ(later.field(), first.field());
  EXPECT_EQ(later.message(), first.message());
  EXPECT_EQ(trainer->steps(), steps) << "no update after divergence";
  const std::vector<float> after = Parameters(*trainer);
  EXPECT_EQ(std::memcmp(before.data(), after.data(), before.size() * sizeof(float)), 0);
}

}  // namespace
}  // namespace attention::train
