// The shipped models learned. Each committed model (models/*.model) is loaded and
// scored on its committed held-out sample (models/heldout/*.txt), a text it never trained on;
// its loss is recomputed here, not read back, and must be well below the unigram and bigram
// baselines of the same sample. The baselines come from the training text, which is not
// committed: models/*.report.json records them (build-scripts/train-models.sh writes it).
// Labelled "learning" with the other training runs (a few seconds; skipped under sanitizers).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "attention/train/corpus.hpp"
#include "attention/train/model_io.hpp"
#include "attention/train/vocabulary.hpp"

namespace attention::train {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Shipped {
  LoadedModel loaded;
  Vocabulary vocabulary;
  nlohmann::json report;
  std::string sample;
};

void Load(const std::string& name, Shipped* shipped) {
  const std::string dir = ATTENTION_MODEL_DIR;
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(ReadFileBytes(dir + "/" + name + ".model", &bytes).ok()) << name;
  const Status status = LoadModel(bytes.data(), bytes.size(), &shipped->loaded);
  ASSERT_TRUE(status.ok()) << status.message();
  std::string level_name;
  ASSERT_TRUE(shipped->loaded.config.GetString("vocabulary", &level_name).ok());
  VocabularyLevel level;
  ASSERT_TRUE(ParseVocabularyLevel(level_name, &level).ok());
  ASSERT_TRUE(
      Vocabulary::FromSymbols(shipped->loaded.vocabulary, level, &shipped->vocabulary).ok());
  shipped->report = nlohmann::json::parse(ReadAll(dir + "/" + name + ".report.json"));
  shipped->sample = ReadAll(dir + "/heldout/" + name + ".txt");
  ASSERT_GT(shipped->sample.size(), 10000u);
}

// The held-out loss at least `margin` below the interpolated modified Kneser–Ney
// 5-gram of the same split (0.40 nats for 唐诗, 0.35 for English).
void ExpectBeatsBaselines(const std::string& name, double margin) {
  Shipped shipped;
  Load(name, &shipped);
  if (::testing::Test::HasFatalFailure()) return;
  std::vector<int> ids;
  ASSERT_TRUE(shipped.vocabulary.Encode(shipped.sample, &ids).ok());
  double loss = 0.0;
  ASSERT_TRUE(HeldOutLoss(shipped.loaded.model.get(), ids, &loss).ok());
  const double unigram = shipped.report["sampleUnigramLoss"].get<double>();
  const double bigram = shipped.report["sampleBigramLoss"].get<double>();
  std::printf("%s: %zu held-out tokens, loss %.4f nats/token; unigram %.4f, bigram %.4f\n",
              name.c_str(), ids.size(), loss, unigram, bigram);
  // The same number the trainer measured on this sample from the saved file: the committed
  // sample, model and report belong together.
  EXPECT_NEAR(loss, shipped.report["sampleLoss"].get<double>(), 1e-3);
  EXPECT_LT(loss, unigram - 1.0);
  EXPECT_LT(loss, bigram - 0.25);
  // The model file's own record of the whole held-out split says the same.
  double held_out = 0, file_bigram = 0;
  ASSERT_TRUE(shipped.loaded.config.GetNumber("heldOutLoss", &held_out).ok());
  ASSERT_TRUE(shipped.loaded.config.GetNumber("bigramLoss", &file_bigram).ok());
  EXPECT_LT(held_out, file_bigram - 0.25);
  // The Kneser–Ney 5-gram, counted by the trainer on the training text (not committed): on the
  // whole held-out split (the file's record and the report agree), and on the committed sample,
  // where the model's loss is the one recomputed above.
  double kn5 = 0;
  ASSERT_TRUE(shipped.loaded.config.GetNumber("kn5Loss", &kn5).ok());
  EXPECT_NEAR(kn5, shipped.report["kn5Loss"].get<double>(), 1e-9);
  EXPECT_NEAR(held_out, shipped.report["heldOutLoss"].get<double>(), 1e-9);
  std::printf("%s: held-out %.4f against the KN 5-gram's %.4f (%.3f)\n", name.c_str(), held_out,
              kn5, held_out - kn5);
  EXPECT_LT(held_out, kn5 - margin);
  EXPECT_LT(loss, shipped.report["sampleKn5Loss"].get<double>() - 0.2);
}

TEST(ShippedModels, TangHeldOutLossIsWellBelowTheBaselines) { ExpectBeatsBaselines("tang", 0.40); }
TEST(ShippedModels, BrownHeldOutLossIsWellBelowTheBaselines) {
  ExpectBeatsBaselines("brown", 0.35);
}

// Greedy next ids after `prefix`, never a special token (<pad>, <unk>, <bos>, <eos>): what the
// page's "continue" does with greedy decoding.
std::vector<int> Greedy(Model<float>* model, std::vector<int> ids, int count) {
  std::vector<int> added;
  for (int n = 0; n < count; ++n) {
    Batch batch;
    batch.size = 1;
    batch.length = static_cast<int>(ids.size());
    batch.tokens = ids;
    EXPECT_TRUE(model->Forward(batch).ok());
    int width = 0;
    const float* logits = model->Activation("logits", -1, &width);
    const float* last = logits + static_cast<size_t>(ids.size() - 1) * width;
    int best = Vocabulary::kSpecialCount;
    for (int j = best + 1; j < width; ++j) {
      if (last[j] > last[best]) best = j;
    }
    ids.push_back(best);
    added.push_back(best);
  }
  return added;
}

TEST(ShippedModels, TangContinuesAHeldOutLinePrefixDeterministically) {
  Shipped shipped;
  Load("tang", &shipped);
  if (::testing::Test::HasFatalFailure()) return;
  // The first five characters of the first held-out poem (a five-character line, e.g.
  // 高轩临碧渚), which the model never saw.
  std::vector<int> poem;
  ASSERT_TRUE(
      shipped.vocabulary.Encode(shipped.sample.substr(0, shipped.sample.find('\n')), &poem).ok());
  const std::vector<int> prefix(poem.begin(), poem.begin() + 5);
  for (int id : prefix) EXPECT_NE(id, Vocabulary::kUnknown);
  const std::vector<int> first = Greedy(shipped.loaded.model.get(), prefix, 12);
  const std::vector<int> second = Greedy(shipped.loaded.model.get(), prefix, 12);
  EXPECT_EQ(first, second);
  for (int id : first) {
    EXPECT_GE(id, Vocabulary::kSpecialCount);
    EXPECT_LT(id, shipped.vocabulary.size());
  }
  std::string text, continuation;
  ASSERT_TRUE(shipped.vocabulary.Decode(prefix, &text).ok());
  ASSERT_TRUE(shipped.vocabulary.Decode(first, &continuation).ok());
  std::printf("%s → %s\n", text.c_str(), continuation.c_str());
  // A learned habit of the corpus: a five-character line ends with a comma.
  EXPECT_EQ(shipped.vocabulary.symbols()[static_cast<size_t>(first[0])], "，") << continuation;
}

}  // namespace
}  // namespace attention::train
