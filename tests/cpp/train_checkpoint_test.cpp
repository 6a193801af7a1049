// Checkpoints (checkpoint.hpp): a run stopped and resumed is the run that never stopped, bit for
// bit; a checkpoint that is not this run's is refused, naming why.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "attention/train/checkpoint.hpp"
#include "attention/train/corpus_trainer.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

const std::vector<int>& Ids() {
  static const std::vector<int> ids = [] {
    std::vector<int> v;
    for (int i = 0; i < 400; ++i) v.push_back((i * 7 + i / 3) % 6);
    return v;
  }();
  return ids;
}

CorpusTrainerConfig Config(int threads, int d_model = 16) {
  CorpusTrainerConfig config;
  config.model = testing::SizedConfig(6, 8, d_model, 2, 2);
  config.batch_size = 5;
  config.seed = 3;
  config.threads = threads;
  config.optimizer.learning_rate = 1e-2;
  config.optimizer.warmup_steps = 4;
  config.optimizer.total_steps = 20;
  return config;
}

std::unique_ptr<CorpusTrainer> Make(const CorpusTrainerConfig& config) {
  std::unique_ptr<CorpusTrainer> trainer;
  EXPECT_TRUE(CorpusTrainer::Create(config, &Ids(), &trainer).ok());
  return trainer;
}

std::vector<float> Weights(CorpusTrainer& trainer) {
  const float* p = trainer.model().parameters();
  return std::vector<float>(p, p + trainer.model().parameter_count());
}

TEST(TrainCheckpoint, AResumedRunIsTheRunThatNeverStopped) {
  for (int threads : {1, 2}) {
    auto whole = Make(Config(threads));
    StepMetrics m;
    ASSERT_TRUE(whole->Step(20, &m).ok());

    auto first = Make(Config(threads));
    ASSERT_TRUE(first->Step(8, &m).ok());
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(first->SaveCheckpoint({"run A", 12.5, 1}, &bytes).ok());

    auto second = Make(Config(threads));
    CheckpointState state;
    const Status status = second->Resume(bytes, "run A", &state);
    ASSERT_TRUE(status.ok()) << status.message();
    EXPECT_EQ(second->steps(), 8);
    EXPECT_EQ(state.seconds, 12.5);
    EXPECT_EQ(state.sittings, 1);
    ASSERT_TRUE(second->Step(12, &m).ok());
    EXPECT_EQ(Weights(*second), Weights(*whole)) << threads << " threads";
  }
}

TEST(TrainCheckpoint, AnotherRunsOrABrokenCheckpointIsRefused) {
  auto trainer = Make(Config(1));
  StepMetrics m;
  ASSERT_TRUE(trainer->Step(2, &m).ok());
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(trainer->SaveCheckpoint({"run A", 0, 1}, &bytes).ok());
  const auto refused = [&](const std::vector<uint8_t>& b, const std::string& run,
                           const CorpusTrainerConfig& config) {
    auto fresh = Make(config);
    CheckpointState state;
    const Status status = fresh->Resume(b, run, &state);
    EXPECT_EQ(fresh->steps(), 0) << "nothing restored";
    return status.ok() ? std::string("accepted") : status.field() + ": " + status.message();
  };
  EXPECT_NE(refused(bytes, "run B", Config(1)).find("another run"), std::string::npos);
  EXPECT_NE(refused(bytes, "run A", Config(1, 24)).find("parameters; this model has"),
            std::string::npos);
  std::vector<uint8_t> cut(bytes.begin(), bytes.end() - 4);
  EXPECT_NE(refused(cut, "run A", Config(1)).find("bytes; its header and"), std::string::npos);
  std::vector<uint8_t> other = bytes;
  other[0] = 'X';
  EXPECT_EQ(refused(other, "run A", Config(1)),
            "checkpoint: checkpoint: not a checkpoint (it must start with AECKPT01)");
  EXPECT_NE(refused({}, "run A", Config(1)).find("not a checkpoint"), std::string::npos);
}

}  // namespace
}  // namespace attention::train
