#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "attention/train/model_file.hpp"
#include "attention/train/vocabulary.hpp"

namespace attention::train {
namespace {

using Symbols = std::vector<std::string>;
const Symbols kSpecials = {"<pad>", "<unk>", "<bos>", "<eos>"};

Symbols WithSpecials(const Symbols& symbols) {
  Symbols all = kSpecials;
  all.insert(all.end(), symbols.begin(), symbols.end());
  return all;
}

Vocabulary Build(std::string_view text, VocabularyLevel level, int max_size = 0,
                 int min_count = 1) {
  Vocabulary vocabulary;
  const Status status = Vocabulary::Build(text, {level, max_size, min_count}, &vocabulary);
  EXPECT_TRUE(status.ok()) << status.message();
  return vocabulary;
}

std::vector<int> Encode(const Vocabulary& vocabulary, std::string_view text) {
  std::vector<int> ids;
  const Status status = vocabulary.Encode(text, &ids);
  EXPECT_TRUE(status.ok()) << status.message();
  return ids;
}

std::string Decode(const Vocabulary& vocabulary, const std::vector<int>& ids) {
  std::string text;
  const Status status = vocabulary.Decode(ids, &text);
  EXPECT_TRUE(status.ok()) << status.message();
  return text;
}

TEST(TrainVocabulary, CharactersRankByCountThenByBytes) {
  // a ×5, b ×2, r ×2, c ×1, d ×1.
  const Vocabulary v = Build("abracadabra", VocabularyLevel::kCharacter);
  EXPECT_EQ(v.symbols(), WithSpecials({"a", "b", "r", "c", "d"}));
  EXPECT_EQ(Encode(v, "cab"), (std::vector<int>{7, 4, 5}));
  EXPECT_EQ(Encode(v, "bad!"), (std::vector<int>{5, 4, 8, Vocabulary::kUnknown}));
  EXPECT_EQ(Decode(v, {7, 4, 5, 1}), "cab<unk>");
}

TEST(TrainVocabulary, MinCountAndMaxSizeLeaveRareSymbolsUnknown) {
  EXPECT_EQ(Build("abracadabra", VocabularyLevel::kCharacter, 0, 2).symbols(),
            WithSpecials({"a", "b", "r"}));
  const Vocabulary small = Build("abracadabra", VocabularyLevel::kCharacter, 6);
  EXPECT_EQ(small.symbols(), WithSpecials({"a", "b"}));
  EXPECT_EQ(Encode(small, "bar"), (std::vector<int>{5, 4, Vocabulary::kUnknown}));
}

TEST(TrainVocabulary, CharacterLevelRoundTripsUnicodeExactly) {
  const std::string text =
      "Ünïcödé: 火锅 and 👩‍💻, e\xcc\x81 (combining), مرحبا,\ttabs\nnewlines  "
      "two "
      "spaces";
  const Vocabulary v = Build(text, VocabularyLevel::kCharacter);
  for (size_t i = Vocabulary::kSpecialCount; i < v.symbols().size(); ++i) {
    const std::string& s = v.symbols()[i];
    // One code point: a lead byte, then only continuation bytes.
    for (size_t b = 1; b < s.size(); ++b) EXPECT_EQ(static_cast<uint8_t>(s[b]) & 0xc0, 0x80);
  }
  EXPECT_EQ(v.Id("火"), v.Id("火"));
  EXPECT_NE(v.Id("火"), Vocabulary::kUnknown);
  EXPECT_NE(v.Id("\xf0\x9f\x91\xa9"), Vocabulary::kUnknown) << "👩 is one code point";
  EXPECT_EQ(Decode(v, Encode(v, text)), text);
  EXPECT_EQ(Encode(v, text).size(), 69u) << "code points (Python's len), not the 91 bytes";
}

TEST(TrainVocabulary, WordLevelSplitsLikeTheTokenizerAndJoinsWithSpaces) {
  const Vocabulary v = Build("The cat sat. The cat ran!", VocabularyLevel::kWord);
  EXPECT_EQ(v.symbols(), WithSpecials({"The", "cat", "!", ".", "ran", "sat"}));
  const std::vector<int> ids = Encode(v, "The dog sat!");
  EXPECT_EQ(ids, (std::vector<int>{4, Vocabulary::kUnknown, 9, 6}));
  EXPECT_EQ(Decode(v, ids), "The <unk> sat !");
  EXPECT_EQ(Encode(v, "<unk>"), (std::vector<int>{1, 1, 1})) << "<, unk, > are not symbols";
  const Vocabulary emoji = Build("我爱火锅 👩‍💻 👩‍💻", VocabularyLevel::kWord);
  EXPECT_EQ(emoji.symbols(), WithSpecials({"👩‍💻", "我", "火", "爱", "锅"}));
}

TEST(TrainVocabulary, LongWordLevelTextsAreCutBetweenWords) {
  // 120,000 bytes: Tokenize takes 100,000 at once, and 100,000 is not a multiple of 3, so a
  // naive cut would split an "ab" into "a" and "b".
  std::string text;
  for (int i = 0; i < 40000; ++i) text += "ab ";
  const Vocabulary v = Build(text, VocabularyLevel::kWord);
  EXPECT_EQ(v.symbols(), WithSpecials({"ab"}));
  EXPECT_EQ(Encode(v, text).size(), 40000u);

  const std::string no_space(100001, 'x');
  Vocabulary untouched = Build("q", VocabularyLevel::kCharacter);
  const Status status = Vocabulary::Build(no_space, {VocabularyLevel::kWord, 0, 1}, &untouched);
  EXPECT_EQ(status.code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(status.field(), "text");
  EXPECT_NE(status.message().find("without a space"), std::string::npos) << status.message();
  EXPECT_EQ(untouched.symbols(), WithSpecials({"q"}));
  // The character level has no such limit.
  EXPECT_EQ(Build(no_space, VocabularyLevel::kCharacter).symbols(), WithSpecials({"x"}));
  // A word longer than 1,024 bytes is left out (it encodes as <unk>).
  const std::string long_word = std::string(2000, 'z') + " y";
  EXPECT_EQ(Build(long_word, VocabularyLevel::kWord).symbols(), WithSpecials({"y"}));
}

TEST(TrainVocabulary, InvalidUtf8IsRefusedWithItsByteOffset) {
  Vocabulary v = Build("abc", VocabularyLevel::kCharacter);
  for (VocabularyLevel level : {VocabularyLevel::kCharacter, VocabularyLevel::kWord}) {
    Vocabulary out = v;
    // 火 is e7 81 ab: the space at byte 5 is the bad continuation byte.
    const Status status = Vocabulary::Build("ok \xe7\x81 bad", {level, 0, 1}, &out);
    EXPECT_EQ(status.code(), ErrorCode::kInvalidUtf8);
    EXPECT_EQ(status.field(), "text");
    EXPECT_NE(status.message().find("byte offset 5"), std::string::npos) << status.message();
    EXPECT_EQ(out.symbols(), v.symbols());
  }
  std::vector<int> ids = {42};
  EXPECT_EQ(v.Encode("a\xff", &ids).code(), ErrorCode::kInvalidUtf8);
  EXPECT_EQ(ids, std::vector<int>{42});
}

TEST(TrainVocabulary, BadOptionsAndIdsNameTheirField) {
  Vocabulary v;
  EXPECT_EQ(Vocabulary::Build("a", {VocabularyLevel::kWord, 4, 1}, &v).field(), "maxSize");
  EXPECT_EQ(Vocabulary::Build("a", {VocabularyLevel::kWord, 70000, 1}, &v).field(), "maxSize");
  EXPECT_EQ(Vocabulary::Build("a", {VocabularyLevel::kWord, 0, 0}, &v).field(), "minCount");
  v = Build("ab", VocabularyLevel::kCharacter);
  std::string text = "kept";
  const Status status = v.Decode({4, 6}, &text);
  EXPECT_EQ(status.field(), "ids[1]");
  EXPECT_NE(status.message().find("from 0 to 5"), std::string::npos) << status.message();
  EXPECT_EQ(text, "kept");
  VocabularyLevel level;
  EXPECT_TRUE(ParseVocabularyLevel("word", &level).ok());
  EXPECT_EQ(level, VocabularyLevel::kWord);
  EXPECT_EQ(ParseVocabularyLevel("byte", &level).field(), "level");
}

TEST(TrainVocabulary, SavedSymbolsRebuildTheSameVocabularyThroughAModelFile) {
  const Vocabulary built = Build("to be or not to be, that is", VocabularyLevel::kWord);
  ModelFile file;
  file.vocabulary = built.symbols();
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(WriteModelFile(file, &bytes).ok());
  ModelFile read;
  ASSERT_TRUE(ReadModelFile(bytes, &read).ok());
  Vocabulary loaded;
  ASSERT_TRUE(Vocabulary::FromSymbols(read.vocabulary, VocabularyLevel::kWord, &loaded).ok());
  EXPECT_EQ(loaded.symbols(), built.symbols());
  EXPECT_EQ(Encode(loaded, "to be or not"), Encode(built, "to be or not"));
}

TEST(TrainVocabulary, FromSymbolsChecksEverySymbol) {
  struct Case {
    Symbols symbols;
    VocabularyLevel level;
    const char* field;
    const char* says;
  } cases[] = {
      {{"a", "b"}, VocabularyLevel::kWord, "vocabulary[0]", "must be <pad>"},
      {{"<pad>", "<unk>"}, VocabularyLevel::kWord, "vocabulary", "must start with"},
      {WithSpecials({"a", "a"}), VocabularyLevel::kWord, "vocabulary[5]", "appears twice"},
      {WithSpecials({""}), VocabularyLevel::kWord, "vocabulary[4]", "1 to 1024 bytes"},
      {WithSpecials({"ab"}), VocabularyLevel::kCharacter, "vocabulary[4]", "single character"},
      {WithSpecials({"\xc3"}), VocabularyLevel::kWord, "vocabulary[4]", "UTF-8"},
  };
  for (const Case& c : cases) {
    Vocabulary v;
    const Status status = Vocabulary::FromSymbols(c.symbols, c.level, &v);
    EXPECT_EQ(status.field(), c.field) << status.message();
    EXPECT_NE(status.message().find(c.says), std::string::npos) << status.message();
    EXPECT_EQ(v.size(), Vocabulary::kSpecialCount) << "untouched";
  }
  Vocabulary v;
  EXPECT_TRUE(
      Vocabulary::FromSymbols(WithSpecials({"é", "火"}), VocabularyLevel::kCharacter, &v).ok());
  EXPECT_EQ(v.Id("火"), 5);
}

TEST(TrainVocabulary, BuildsFromATextFile) {
  const std::string path = ::testing::TempDir() + "train_vocabulary_corpus.txt";
  const std::string corpus = "hello world\nhello there\n";
  ASSERT_TRUE(WriteFileBytes(path, std::vector<uint8_t>(corpus.begin(), corpus.end())).ok());
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(ReadFileBytes(path, &bytes).ok());
  std::remove(path.c_str());
  const Vocabulary v =
      Build(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
            VocabularyLevel::kWord);
  EXPECT_EQ(v.symbols(), WithSpecials({"hello", "there", "world"}));
}

}  // namespace
}  // namespace attention::train
