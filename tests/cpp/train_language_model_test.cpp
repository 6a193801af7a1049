// A corpus language model's text, next-token logits, sampler and generation
// (attention/train/language_model.hpp), natively: what the JS API's encode, predict and generate
// call through the bindings.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "attention/train/language_model.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

const std::vector<std::string> kSymbols = {"<pad>", "<unk>", "<bos>", "<eos>", "床",
                                           "前",    "明",    "月",    "光",    "\n"};

TextReader Characters() {
  TextReader reader;
  EXPECT_TRUE(
      Vocabulary::FromSymbols(kSymbols, VocabularyLevel::kCharacter, &reader.vocabulary).ok());
  return reader;
}

TEST(TrainLanguageModel, EncodeTextReadsCodePointsFlagsUnknownsAndCutsAtTheContext) {
  const TextReader reader = Characters();
  EncodedText e;
  ASSERT_TRUE(EncodeText(reader, "床前x明月光", false, 4, &e).ok());
  EXPECT_EQ(e.symbols, (std::vector<std::string>{"床", "前", "x", "明"}));
  EXPECT_EQ(e.ids, (std::vector<int>{4, 5, Vocabulary::kUnknown, 6}));
  EXPECT_EQ(e.unknown, (std::vector<bool>{false, false, true, false}));
  EXPECT_EQ(e.total, 6);
  EXPECT_EQ(e.cut, 2);
  ASSERT_TRUE(EncodeText(reader, "床前x明月光", true, 4, &e).ok());  // keep the end
  EXPECT_EQ(e.ids, (std::vector<int>{Vocabulary::kUnknown, 6, 7, 8}));
  EXPECT_EQ(EncodeText(reader, "\xff", false, 4, &e).code(), ErrorCode::kInvalidUtf8);
}

TEST(TrainLanguageModel, EncodeTextReadsTheDocumentStartBeforeATextThatStartsADocument) {
  TextReader reader = Characters();
  reader.document_start = "\n";  // id 9
  EncodedText e;
  // Keep the start: the line break, then context − 1 of the text's symbols.
  ASSERT_TRUE(EncodeText(reader, "床前明月光", false, 4, &e).ok());
  EXPECT_TRUE(e.started);
  EXPECT_EQ(e.symbols, (std::vector<std::string>{"\n", "床", "前", "明"}));
  EXPECT_EQ(e.ids, (std::vector<int>{9, 4, 5, 6}));
  EXPECT_EQ(e.unknown, (std::vector<bool>{false, false, false, false}));
  EXPECT_EQ(e.total, 5);  // the text's own symbols
  EXPECT_EQ(e.cut, 2);
  // Keep the end: the start only when the whole text fits after it.
  ASSERT_TRUE(EncodeText(reader, "床前明", true, 4, &e).ok());
  EXPECT_TRUE(e.started);
  EXPECT_EQ(e.ids, (std::vector<int>{9, 4, 5, 6}));
  EXPECT_EQ(e.cut, 0);
  ASSERT_TRUE(EncodeText(reader, "床前明月", true, 4, &e).ok());
  EXPECT_FALSE(e.started);
  EXPECT_EQ(e.ids, (std::vector<int>{4, 5, 6, 7}));
  ASSERT_TRUE(EncodeText(reader, "床前明月光", true, 4, &e).ok());
  EXPECT_FALSE(e.started);
  EXPECT_EQ(e.ids, (std::vector<int>{5, 6, 7, 8}));
  EXPECT_EQ(e.cut, 1);
  // A text that begins with it, an empty text, a context of one: nothing added.
  ASSERT_TRUE(EncodeText(reader, "\n床", false, 4, &e).ok());
  EXPECT_FALSE(e.started);
  EXPECT_EQ(e.ids, (std::vector<int>{9, 4}));
  ASSERT_TRUE(EncodeText(reader, "", false, 4, &e).ok());
  EXPECT_FALSE(e.started);
  EXPECT_TRUE(e.ids.empty());
  ASSERT_TRUE(EncodeText(reader, "床前", false, 1, &e).ok());
  EXPECT_FALSE(e.started);
  EXPECT_EQ(e.ids, (std::vector<int>{4}));
}

TEST(TrainLanguageModel, LoadTextReaderReadsTheDocumentStartAndRefusesOneNotInTheVocabulary) {
  TextReader reader;
  FlatJson json;
  json.SetString("vocabulary", "character");
  json.SetString("documentStart", "\n");
  ASSERT_TRUE(LoadTextReader(json, kSymbols, &reader).ok());
  EXPECT_EQ(reader.document_start, "\n");
  for (const char* bad : {"x", "<bos>", ""}) {
    json.SetString("documentStart", bad);
    const Status status = LoadTextReader(json, kSymbols, &reader);
    EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument) << bad;
    EXPECT_EQ(status.field(), "model.config.documentStart") << bad;
  }
  json.SetNumber("documentStart", 10);
  EXPECT_EQ(LoadTextReader(json, kSymbols, &reader).field(), "model.config.documentStart");
}

TEST(TrainLanguageModel, PickNextIsGreedyOnTheLowestIdAndNeverAMarker) {
  RandomState random(1);
  Sampling greedy;
  // The markers <pad> <unk> <bos> have the largest logits: never picked.
  const std::vector<float> z = {9, 9, 9, 1, 2, 5, 5, 0, -1};
  EXPECT_EQ(PickNext(z.data(), 9, greedy, &random), 5);  // 5 and 6 tie: the lower id
  Sampling one;
  one.greedy = false;
  one.top_k = 1;
  for (int i = 0; i < 20; ++i) EXPECT_EQ(PickNext(z.data(), 9, one, &random), 5);
}

// Sampled picks follow softmax(z / T) over the top k, drawn from the engine's generator.
TEST(TrainLanguageModel, PickNextSamplesSoftmaxOverTheTopK) {
  const std::vector<float> z = {0, 0, 0, 0.5f, 1.0f, 2.0f, -1.0f, 0.0f, 1.5f};
  Sampling s;
  s.greedy = false;
  s.temperature = 2.0;
  s.top_k = 3;  // ids 5 (2.0), 8 (1.5), 4 (1.0)
  RandomState random(7);
  std::vector<int> counts(9, 0);
  const int draws = 30000;
  for (int i = 0; i < draws; ++i) ++counts[PickNext(z.data(), 9, s, &random)];
  const double e5 = std::exp(2.0 / 2), e8 = std::exp(1.5 / 2), e4 = std::exp(1.0 / 2);
  const double sum = e5 + e8 + e4;
  EXPECT_NEAR(counts[5] / double(draws), e5 / sum, 0.01);
  EXPECT_NEAR(counts[8] / double(draws), e8 / sum, 0.01);
  EXPECT_NEAR(counts[4] / double(draws), e4 / sum, 0.01);
  EXPECT_EQ(counts[5] + counts[8] + counts[4], draws);
  // The same seed draws the same picks.
  RandomState a(3), b(3);
  for (int i = 0; i < 50; ++i)
    EXPECT_EQ(PickNext(z.data(), 9, s, &a), PickNext(z.data(), 9, s, &b));
}

ModelConfig Small() {
  ModelConfig c = testing::SizedConfig(9, 6, 8, 2, 1);
  c.init_std = 0.8;
  return c;
}

TEST(TrainLanguageModel, GreedyGenerationIsTheArgmaxChainSlidingTheWindow) {
  Model<float> model(Small());
  model.InitParameters(11);
  Sampling greedy;
  std::vector<int> made;
  ASSERT_TRUE(Generate(&model, {4, 5, 6}, 8, greedy, &made).ok());
  ASSERT_FALSE(made.empty());
  std::vector<int> sequence = {4, 5, 6};
  for (size_t i = 0; i < made.size(); ++i) {
    // The last contextLength (6) tokens, as Generate reads them.
    const size_t start = sequence.size() > 6 ? sequence.size() - 6 : 0;
    std::vector<float> logits;
    ASSERT_TRUE(NextLogits(&model, {sequence.begin() + start, sequence.end()}, &logits).ok());
    int best = -1;
    for (int id = 0; id < 9; ++id) {
      if (Generable(id) && (best < 0 || logits[id] > logits[best])) best = id;
    }
    EXPECT_EQ(made[i], best) << "token " << i;
    sequence.push_back(made[i]);
  }
  if (made.size() < 8) EXPECT_EQ(made.back(), Vocabulary::kEnd);  // only an <eos> ends it early
}

TEST(TrainLanguageModel, GenerateRefusesBadOptionsAndAnOverflowingModel) {
  Model<float> model(Small());
  model.InitParameters(11);
  Sampling s;
  std::vector<int> made;
  EXPECT_EQ(Generate(&model, {4}, 0, s, &made).field(), "count");
  s.temperature = 0;
  EXPECT_EQ(Generate(&model, {4}, 1, s, &made).field(), "temperature");
  s = Sampling();
  s.top_k = 10;
  EXPECT_EQ(Generate(&model, {4}, 1, s, &made).field(), "topK");
  s = Sampling();
  EXPECT_EQ(Generate(&model, {}, 1, s, &made).field(), "tokens");
  EXPECT_EQ(Generate(&model, {4, 99}, 1, s, &made).field(), "tokens[1]");
  float* p = model.parameters();
  for (size_t i = 0; i < model.parameter_count(); ++i) p[i] = i % 2 ? -3.4e38f : 3.4e38f;
  made = {42};
  for (const bool greedy : {true, false}) {
    s.greedy = greedy;
    const Status status = Generate(&model, {4, 5}, 3, s, &made);
    EXPECT_EQ(status.code(), ErrorCode::kNonFinite);
    EXPECT_EQ(status.field(), "model");
    EXPECT_EQ(made, std::vector<int>{42}) << "nothing generated";
  }
}

// A task model's rules: every symbol may be picked (its ids 0 … 2 are symbols, not markers), and
// a full context ends the generation, however many tokens were asked for.
TEST(TrainLanguageModel, TaskRulesPickEverySymbolAndStopAtAFullContext) {
  RandomState random(1);
  const std::vector<float> z = {9, 1, 2, 5, 5, 0, -1, 0, 0};
  EXPECT_EQ(PickNext(z.data(), 9, Sampling(), &random, GenerationRules::kTask), 0);
  Model<float> model(Small());
  model.InitParameters(11);
  std::vector<int> made;
  ASSERT_TRUE(Generate(&model, {4, 5}, 100, Sampling(), &made, GenerationRules::kTask).ok());
  EXPECT_EQ(made.size(), 4u);  // contextLength 6 − 2
  ASSERT_TRUE(
      Generate(&model, {4, 5, 6, 7, 8, 4}, 3, Sampling(), &made, GenerationRules::kTask).ok());
  EXPECT_TRUE(made.empty());
}

}  // namespace
}  // namespace attention::train
