// Checkpoints (checkpoint.hpp): a run stopped and resumed is the run that never stopped, bit for
// bit; a checkpoint that is not this run's is refused, naming why.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <memory>
#include <string_view>
#include <vector>

#include "attention/random.hpp"
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

TrainerConfig Config(int threads, int d_model = 16) {
  TrainerConfig config;
  config.model = testing::SizedConfig(6, 8, d_model, 2, 2);
  config.batch_size = 5;
  config.seed = 3;
  config.threads = threads;
  config.optimizer.learning_rate = 1e-2;
  config.optimizer.warmup_steps = 4;
  config.optimizer.total_steps = 20;
  return config;
}

std::unique_ptr<CorpusTrainer> Make(const TrainerConfig& config) {
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
                           const TrainerConfig& config) {
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
  EXPECT_NE(refused(cut, "run A", Config(1)).find("it is damaged"), std::string::npos);
  std::vector<uint8_t> other = bytes;
  other[0] = 'X';
  EXPECT_EQ(refused(other, "run A", Config(1)),
            "checkpoint: checkpoint: not a checkpoint (it must start with AECKPT02)");
  EXPECT_NE(refused({}, "run A", Config(1)).find("not a checkpoint"), std::string::npos);
  other = bytes;
  std::copy_n("AECKPT01", 8, other.begin());
  EXPECT_NE(refused(other, "run A", Config(1)).find("an older format (AECKPT01"),
            std::string::npos);
}

// The checkpoint `bytes` with its header replaced by `header` or a float changed, and its
// checksum made again: what a bug, or a hand, could write.
std::vector<uint8_t> Rewritten(const std::vector<uint8_t>& bytes, const std::string& header,
                               size_t float_index = SIZE_MAX, float value = 0) {
  uint32_t old_header = 0;
  for (int i = 0; i < 4; ++i) old_header |= static_cast<uint32_t>(bytes[8 + i]) << (8 * i);
  std::vector<uint8_t> out(bytes.begin(), bytes.begin() + 8);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(header.size() >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), bytes.begin() + 12 + old_header, bytes.end() - 8);
  if (float_index != SIZE_MAX) {
    std::memcpy(out.data() + 12 + header.size() + 4 * float_index, &value, 4);
  }
  const uint64_t checksum =
      Fnv1a64(std::string_view(reinterpret_cast<const char*>(out.data()), out.size()));
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(checksum >> (8 * i)));
  return out;
}

TEST(TrainCheckpoint, ADamagedOrImpossibleCheckpointIsRefusedAsSuch) {
  auto trainer = Make(Config(1));
  StepMetrics m;
  ASSERT_TRUE(trainer->Step(2, &m).ok());
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(trainer->SaveCheckpoint({"run A", 3, 1}, &bytes).ok());
  const size_t count = trainer->model().parameter_count();
  const auto resumed = [&](const std::vector<uint8_t>& b) {
    auto fresh = Make(Config(1));
    CheckpointState state;
    const Status status = fresh->Resume(b, "run A", &state);
    if (!status.ok()) EXPECT_EQ(fresh->steps(), 0) << "nothing restored";
    return status.ok() ? std::string("accepted") : status.message();
  };
  ASSERT_EQ(resumed(bytes), "accepted");
  // Every bit matters: one flipped anywhere is refused (weights, moments, header alike).
  for (size_t at : {size_t{20}, bytes.size() / 2, bytes.size() - 9, bytes.size() - 1}) {
    std::vector<uint8_t> flipped = bytes;
    flipped[at] ^= 0x10;
    EXPECT_NE(resumed(flipped).find("it is damaged"), std::string::npos) << "byte " << at;
  }
  const std::string header = [&] {
    uint32_t n = 0;
    for (int i = 0; i < 4; ++i) n |= static_cast<uint32_t>(bytes[8 + i]) << (8 * i);
    return std::string(bytes.begin() + 12, bytes.begin() + 12 + n);
  }();
  ASSERT_EQ(resumed(Rewritten(bytes, header)), "accepted") << "the test's rewriting is sound";
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string text = header;
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from << " in " << text;
    return resumed(Rewritten(bytes, text.replace(at, from.size(), to)));
  };
  // Resuming replays the stream of windows to `steps`: 2^31 − 1 of them would take hours.
  EXPECT_EQ(
      with("\"steps\":2", "\"steps\":2147483647"),
      "checkpoint: steps (2147483647) must be an integer from 0 to the run's totalSteps (20)");
  EXPECT_NE(with("\"steps\":2", "\"steps\":-1").find("steps (-1) must be an integer"),
            std::string::npos);
  EXPECT_NE(with("\"steps\":2", "\"steps\":2.5").find("steps (2.5) must be an integer"),
            std::string::npos);
  EXPECT_NE(with("\"sittings\":1", "\"sittings\":2147483647").find("sittings (2147483647)"),
            std::string::npos);
  EXPECT_NE(with("\"seconds\":3", "\"seconds\":-3").find("seconds (-3) must be a number"),
            std::string::npos);
  // NaN weights are a damaged file, not a diverged run.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(resumed(Rewritten(bytes, header, 5, nan)),
            "checkpoint: it is damaged: weight [5] is nan; delete it to start the run again");
  EXPECT_NE(resumed(Rewritten(bytes, header, count + 1, inf)).find("first moment [1] is inf"),
            std::string::npos);
  EXPECT_NE(resumed(Rewritten(bytes, header, 2 * count, -1.0f)).find("second moment [0] is -1"),
            std::string::npos);
}

}  // namespace
}  // namespace attention::train
