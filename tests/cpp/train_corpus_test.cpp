// The corpus language model's data path — seeded training windows, the held-out
// windows, the held-out loss and the n-gram baselines (against values worked out by hand).
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "attention/train/corpus.hpp"
#include "attention/train/corpus_trainer.hpp"
#include "attention/train/model_io.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

std::vector<int> Iota(int n) {
  std::vector<int> ids(static_cast<size_t>(n));
  std::iota(ids.begin(), ids.end(), 0);
  return ids;
}

TEST(CorpusStream, WindowsAreContiguousInRangeAndSeeded) {
  // ids[i] = i, so a window's first token is its start and every later one is start + t.
  const std::vector<int> ids = Iota(100);
  CorpusStream stream(&ids, 8, 7);
  const Batch batch = stream.Take(500);
  ASSERT_EQ(batch.size, 500);
  ASSERT_EQ(batch.length, 8);
  ASSERT_EQ(batch.tokens.size(), 4000u);
  ASSERT_EQ(batch.targets.size(), 4000u);
  EXPECT_TRUE(batch.loss_weights.empty());  // every position counts
  int lowest = 1000, highest = -1;
  for (int b = 0; b < 500; ++b) {
    const int start = batch.tokens[static_cast<size_t>(b) * 8];
    lowest = std::min(lowest, start);
    highest = std::max(highest, start);
    for (int t = 0; t < 8; ++t) {
      EXPECT_EQ(batch.tokens[static_cast<size_t>(b) * 8 + t], start + t);
      EXPECT_EQ(batch.targets[static_cast<size_t>(b) * 8 + t], start + t + 1);
    }
  }
  // Starts 0 … 91 (the last target is id 99); 500 draws reach both ends.
  EXPECT_EQ(lowest, 0);
  EXPECT_EQ(highest, 91);

  CorpusStream again(&ids, 8, 7), other(&ids, 8, 8);
  EXPECT_EQ(again.Take(500).tokens, batch.tokens);
  EXPECT_NE(other.Take(500).tokens, batch.tokens);
}

TEST(CorpusStream, RepeatSpansCopiesASpanOfTheWindowToALaterPlaceInTheirShareOfWindows) {
  // ids[i] = i: a window is start, start + 1, …, except where a span was copied over.
  const std::vector<int> ids = Iota(1000);
  const int length = 32;
  CorpusStream stream(&ids, length, 3, 0.25);
  const int count = 4000;
  const Batch batch = stream.Take(count);
  int repeated = 0;
  std::vector<int> offsets;
  for (int b = 0; b < count; ++b) {
    // The window's T + 1 ids: its tokens, then its last target.
    std::vector<int> w(batch.tokens.begin() + b * length, batch.tokens.begin() + (b + 1) * length);
    w.push_back(batch.targets[static_cast<size_t>(b + 1) * length - 1]);
    for (int t = 0; t < length; ++t) {
      EXPECT_EQ(batch.targets[static_cast<size_t>(b) * length + t], w[static_cast<size_t>(t) + 1]);
    }
    const int start = w[0];
    std::vector<int> changed;
    for (int t = 0; t <= length; ++t) {
      if (w[static_cast<size_t>(t)] != start + t) changed.push_back(t);
    }
    if (changed.empty()) continue;
    ++repeated;
    // One run of L = T/8 … T/4 ids, each equal to the id `offset` places before it, which
    // was not changed: a copy of the window's own earlier text.
    const int to = changed.front(), span = changed.back() - to + 1;
    EXPECT_EQ(static_cast<int>(changed.size()), span);
    EXPECT_GE(span, length / 8);
    EXPECT_LE(span, length / 4);
    const int offset = to - (w[static_cast<size_t>(to)] - start);
    EXPECT_GE(offset, span);
    for (int t = to; t < to + span; ++t) {
      EXPECT_EQ(w[static_cast<size_t>(t)], start + t - offset);
    }
    offsets.push_back(offset);
  }
  // A quarter of the windows (± 4 standard deviations), at offsets that vary.
  EXPECT_NEAR(repeated, count / 4, 4 * std::sqrt(count * 0.25 * 0.75));
  EXPECT_LE(*std::min_element(offsets.begin(), offsets.end()), length / 4);
  EXPECT_GE(*std::max_element(offsets.begin(), offsets.end()), length - length / 4);
  // Skip passes over what Take draws: the next windows are the same.
  CorpusStream taken(&ids, length, 9, 0.25), skipped(&ids, length, 9, 0.25);
  taken.Take(37);
  skipped.Skip(37);
  EXPECT_EQ(taken.Take(5).tokens, skipped.Take(5).tokens);
}

TEST(CorpusStream, ShortestCorpusGivesTheOnlyWindow) {
  const std::vector<int> ids = Iota(9);
  CorpusStream stream(&ids, 8, 1);
  const Batch batch = stream.Take(3);
  for (int b = 0; b < 3; ++b) EXPECT_EQ(batch.tokens[static_cast<size_t>(b) * 8], 0);
}

TEST(HeldOutWindows, EveryIdButTheFirstIsATargetOnce) {
  const std::vector<Window> windows = HeldOutWindows(Iota(10), 4);
  ASSERT_EQ(windows.size(), 3u);
  EXPECT_EQ(windows[0].tokens, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(windows[0].targets, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(windows[1].tokens, (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(windows[1].targets, (std::vector<int>{5, 6, 7, 8}));
  EXPECT_EQ(windows[2].tokens, (std::vector<int>{8}));
  EXPECT_EQ(windows[2].targets, (std::vector<int>{9}));
  EXPECT_TRUE(HeldOutWindows({5}, 4).empty());
  EXPECT_EQ(HeldOutWindows(Iota(9), 4).size(), 2u);  // 8 targets in two full windows
}

// train 0 1 0 1 0 2 (V = 3): counts 3, 2, 1 of N = 6, so unigram p = 4/9, 3/9, 2/9; as bigram
// contexts 0 occurs 3 times and 1 twice (the final 2 has no successor), c(0 1) = 2, c(1 0) = 2,
// c(0 2) = 1. Held-out 0 1 2: targets 1 (after 0) and 2 (after 1).
const std::vector<int> kTrain = {0, 1, 0, 1, 0, 2};
const std::vector<int> kHeldOut = {0, 1, 2};

double HandBigram(double lambda) {
  const double p1 = lambda * 2.0 / 3.0 + (1 - lambda) * 3.0 / 9.0;
  const double p2 = lambda * 0.0 + (1 - lambda) * 2.0 / 9.0;
  return -(std::log(p1) + std::log(p2)) / 2;
}

TEST(NgramBaselines, MatchHandComputedValues) {
  EXPECT_NEAR(BigramLoss(kTrain, kHeldOut, 3, 64, 0.5), -(std::log(0.5) + std::log(1.0 / 9)) / 2,
              1e-12);
  EXPECT_NEAR(BigramLoss(kTrain, kHeldOut, 3, 64, 0.3), HandBigram(0.3), 1e-12);
  const NgramBaselines base = ComputeBaselines(kTrain, kHeldOut, 3, 64);
  EXPECT_EQ(base.targets, 2);
  EXPECT_NEAR(base.unigram, -(std::log(3.0 / 9) + std::log(2.0 / 9)) / 2, 1e-12);
  double best = 1e9, best_lambda = 0;
  for (int k = 1; k <= 19; ++k) {
    if (HandBigram(0.05 * k) < best) best = HandBigram(0.05 * k), best_lambda = 0.05 * k;
  }
  EXPECT_NEAR(base.bigram, best, 1e-12);
  EXPECT_NEAR(base.bigram_lambda, best_lambda, 1e-12);
}

TEST(NgramBaselines, ScoreTheSameTargetsAsTheHeldOutWindows) {
  // Window length 1: windows (0→1) and (1→2), the same two targets as one window of 2.
  EXPECT_NEAR(BigramLoss(kTrain, kHeldOut, 3, 1, 0.4), HandBigram(0.4), 1e-12);
  // An unseen context (2 never precedes anything in training) falls back to the unigram.
  const double p0 = (1 - 0.4) * 4.0 / 9;
  EXPECT_NEAR(BigramLoss(kTrain, {2, 0}, 3, 8, 0.4), -std::log(p0), 1e-12);
}

TEST(HeldOutLoss, IsTheTargetWeightedMeanOverEveryWindow) {
  Model<float> model(testing::SizedConfig(7, 4, 16, 2, 1));
  model.InitParameters(3);
  const std::vector<int> ids = {1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4};  // windows of 4, 4 and 2
  double loss = 0.0;
  ASSERT_TRUE(HeldOutLoss(&model, ids, &loss, /*batch=*/1).ok());
  double sum = 0.0;
  for (const Window& w : HeldOutWindows(ids, 4)) {
    Batch b;
    b.size = 1;
    b.length = static_cast<int>(w.tokens.size());
    b.tokens = w.tokens;
    b.targets = w.targets;
    ASSERT_TRUE(model.Forward(b).ok());
    sum += static_cast<double>(model.loss()) * w.targets.size();
  }
  EXPECT_NEAR(loss, sum / 10, 1e-6);
  double batched = 0.0;
  ASSERT_TRUE(HeldOutLoss(&model, ids, &batched, 32).ok());
  EXPECT_NEAR(batched, loss, 1e-6);

  const Status status = HeldOutLoss(&model, {3}, &loss);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.field(), "heldOut");
}

TEST(CorpusTrainer, RefusesBadIdsAndSizesNamingTheField) {
  TrainerConfig config;
  config.model = testing::SizedConfig(5, 8, 16, 2, 1);
  std::unique_ptr<CorpusTrainer> trainer;
  const std::vector<int> few = Iota(8);
  Status status = CorpusTrainer::Create(config, &few, &trainer);
  EXPECT_EQ(status.field(), "train");
  EXPECT_NE(status.message().find("contextLength + 1"), std::string::npos) << status.message();
  const std::vector<int> out_of_range = {0, 1, 2, 3, 4, 5, 0, 1, 2, 3};
  status = CorpusTrainer::Create(config, &out_of_range, &trainer);
  EXPECT_EQ(status.field(), "train");
  EXPECT_NE(status.message().find("train[5] (5)"), std::string::npos) << status.message();
  config.batch_size = 0;
  const std::vector<int> fine = {0, 1, 2, 3, 4, 0, 1, 2, 3, 4};
  EXPECT_EQ(CorpusTrainer::Create(config, &fine, &trainer).field(), "batchSize");
  config.batch_size = 4;
  config.corpus.repeat_spans = 1.5;
  const Status spans = CorpusTrainer::Create(config, &fine, &trainer);
  EXPECT_EQ(spans.field(), "repeatSpans");
  EXPECT_EQ(spans.message().rfind("repeatSpans (1.5) must be a number from 0 to 1", 0), 0u)
      << spans.message();
  EXPECT_EQ(trainer, nullptr);
}

TEST(CorpusModelFile, RecordsTheSharedKeys) {
  Vocabulary vocabulary;
  ASSERT_TRUE(Vocabulary::Build("ab ba", {}, &vocabulary).ok());
  Model<float> model(testing::SizedConfig(vocabulary.size(), 8, 16, 2, 1));
  model.InitParameters(1);
  CorpusModelInfo info;
  info.corpus = "test corpus";
  info.title = "Test";
  info.title_zh = "测试";
  info.trained_steps = 12;
  info.lowercase = true;
  info.held_out_loss = 1.5;
  info.baselines.unigram = 2.5;
  info.baselines.bigram = 2.0;
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(SaveCorpusModel(model, vocabulary, info, TensorType::kFloat16, &bytes).ok());
  LoadedModel loaded;
  ASSERT_TRUE(LoadModel(bytes.data(), bytes.size(), &loaded).ok());
  std::string text;
  double number = 0;
  ASSERT_TRUE(loaded.config.GetString("vocabulary", &text).ok());
  EXPECT_EQ(text, "character");
  ASSERT_TRUE(loaded.config.GetString("titleZh", &text).ok());
  EXPECT_EQ(text, "测试");
  ASSERT_TRUE(loaded.config.GetNumber("trainedSteps", &number).ok());
  EXPECT_EQ(number, 12);
  ASSERT_TRUE(loaded.config.GetNumber("bigramLoss", &number).ok());
  EXPECT_EQ(number, 2.0);
  bool lowercase = false;
  ASSERT_TRUE(loaded.config.GetBool("lowercase", &lowercase).ok());
  EXPECT_TRUE(lowercase);
  EXPECT_EQ(loaded.vocabulary, vocabulary.symbols());
}

}  // namespace
}  // namespace attention::train

namespace attention::train {
namespace {

// What the page's model line needs is in the file's configuration when known.
TEST(TrainCorpusModelJson, RecordsTheKneserNeyLossTokensSeenAndTheCanonWhenKnown) {
  CorpusModelInfo info;
  info.corpus = "c";
  FlatJson plain = CorpusModelJson(info);
  EXPECT_FALSE(plain.Has("kn5Loss"));
  EXPECT_FALSE(plain.Has("tokensSeen"));
  EXPECT_FALSE(plain.Has("canonWeighted"));
  info.kn5_loss = 5.1585;
  info.tokens_seen = 41943040;
  info.canon_weighted = true;
  const FlatJson json = CorpusModelJson(info);
  double kn5 = 0, seen = 0;
  bool canon = false;
  ASSERT_TRUE(json.GetNumber("kn5Loss", &kn5).ok());
  ASSERT_TRUE(json.GetNumber("tokensSeen", &seen).ok());
  ASSERT_TRUE(json.GetBool("canonWeighted", &canon).ok());
  EXPECT_EQ(kn5, 5.1585);
  EXPECT_EQ(seen, 41943040);
  EXPECT_TRUE(canon);
}

}  // namespace
}  // namespace attention::train
