// Training on shards of the batch, one per thread (training_loop.hpp): the gradient is the
// whole batch's, the run is reproducible, and the corpus trainer takes the same setting.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "attention/train/corpus_trainer.hpp"
#include "attention/train/trainer.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

TrainerConfig Small(int threads) {
  TrainerConfig config;
  config.task.kind = TaskKind::kSort;
  config.task.length = 5;
  config.task.alphabet = 7;
  config.model.d_model = 16;
  config.model.layers = 2;
  config.model.heads = 2;
  config.batch_size = 9;  // shards of 5 + 4 (2 threads), 3 + 3 + 3 (3)
  config.seed = 11;
  config.threads = threads;
  return config;
}

std::vector<float> Copy(const float* data, size_t count) {
  return std::vector<float>(data, data + count);
}

// The largest |a − b| over the largest |b|.
double RelativeError(const std::vector<float>& a, const std::vector<float>& b) {
  double diff = 0.0, scale = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::fabs(static_cast<double>(a[i]) - b[i]));
    scale = std::max(scale, std::fabs(static_cast<double>(b[i])));
  }
  return diff / scale;
}

TEST(TrainThreads, TheShardsGradientIsTheWholeBatchs) {
  auto whole = testing::MakeTrainer(Small(1));
  StepMetrics one;
  ASSERT_TRUE(whole->Step(1, &one).ok());
  const size_t n = whole->model().parameter_count();
  for (int threads : {2, 3, 9}) {
    auto split = testing::MakeTrainer(Small(threads));
    StepMetrics m;
    ASSERT_TRUE(split->Step(1, &m).ok());
    // The same first batch and weights: after the update, the gradient buffer holds it.
    EXPECT_LT(
        RelativeError(Copy(split->model().gradients(), n), Copy(whole->model().gradients(), n)),
        1e-5)
        << threads << " shards";
    EXPECT_NEAR(m.loss, one.loss, 1e-6 * one.loss) << threads << " shards";
    EXPECT_DOUBLE_EQ(m.accuracy, one.accuracy) << threads << " shards";
    EXPECT_NEAR(m.attention_entropy, one.attention_entropy, 1e-6 * one.attention_entropy);
    EXPECT_NEAR(m.score_gradient_norm, one.score_gradient_norm, 1e-4 * one.score_gradient_norm);
  }
}

TEST(TrainThreads, TheSameSeedAndThreadsGiveTheSameWeights) {
  // Four shards on however many cores: the order the shards finish in must not matter.
  auto a = testing::MakeTrainer(Small(4)), b = testing::MakeTrainer(Small(4));
  StepMetrics m;
  ASSERT_TRUE(a->Step(30, &m).ok());
  ASSERT_TRUE(b->Step(30, &m).ok());
  const size_t n = a->model().parameter_count();
  EXPECT_EQ(Copy(a->model().parameters(), n), Copy(b->model().parameters(), n));
}

TEST(TrainThreads, AShardedRunLearnsAsTheSingleOneDoes) {
  auto one = testing::MakeTrainer(Small(1)), two = testing::MakeTrainer(Small(2));
  StepMetrics m1, m2;
  ASSERT_TRUE(one->Step(150, &m1).ok());
  ASSERT_TRUE(two->Step(150, &m2).ok());
  EXPECT_NEAR(m2.loss, m1.loss, 0.1 * m1.loss + 0.02);
  EXPECT_EQ(two->steps(), 150);
}

TEST(TrainThreads, ThreadsOutsideItsRangeNameTheField) {
  for (int threads : {0, -1, TrainerConfig::kMaxThreads + 1}) {
    std::unique_ptr<Trainer> trainer;
    const Status status = Trainer::Create(Small(threads), &trainer);
    EXPECT_EQ(status.field(), "threads");
    EXPECT_NE(status.message().find("an integer from 1 to 64"), std::string::npos)
        << status.message();
  }
  TrainerConfig corpus;
  corpus.model = testing::SizedConfig(5, 8, 16, 2, 1);
  corpus.threads = 0;
  std::vector<int> ids(100, 1);
  std::unique_ptr<CorpusTrainer> trainer;
  EXPECT_EQ(CorpusTrainer::Create(corpus, &ids, &trainer).field(), "threads");
}

TEST(TrainThreads, TheCorpusTrainerSplitsItsBatchToo) {
  TrainerConfig config;
  config.model = testing::SizedConfig(5, 8, 16, 2, 1);
  config.batch_size = 6;
  std::vector<int> ids;
  for (int i = 0; i < 300; ++i) ids.push_back((i * 7 + i / 5) % 5);
  std::unique_ptr<CorpusTrainer> one, two;
  ASSERT_TRUE(CorpusTrainer::Create(config, &ids, &one).ok());
  config.threads = 2;
  ASSERT_TRUE(CorpusTrainer::Create(config, &ids, &two).ok());
  StepMetrics a, b;
  ASSERT_TRUE(one->Step(1, &a).ok());
  ASSERT_TRUE(two->Step(1, &b).ok());
  EXPECT_NEAR(b.loss, a.loss, 1e-6 * a.loss);
  const size_t n = one->model().parameter_count();
  EXPECT_LT(RelativeError(Copy(two->model().gradients(), n), Copy(one->model().gradients(), n)),
            1e-5);
}

}  // namespace
}  // namespace attention::train
