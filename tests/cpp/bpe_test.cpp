// GPT-2's byte-level BPE (attention/bpe.hpp) on small hand-made files whose ids follow from the
// merges by hand, on hostile files, and its pre-tokenizer (GPT-2's pattern) piece by piece. The
// real files are compared with OpenAI's encoder in tests/node/bpe-tokenizer.test.mjs.
#include "attention/bpe.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "bpe_files.hpp"
#include "bpe_pretokenize.hpp"

namespace attention {
namespace {

// A JSON object {"spelling": index, ...} of the spellings in order.
std::string VocabularyJson(const std::vector<std::string>& spellings) {
  std::string json = "{";
  for (std::size_t i = 0; i < spellings.size(); ++i) {
    if (i > 0) json += ",\n";
    json += "\"";
    for (const char c : spellings[i]) {
      if (c == '"' || c == '\\') json += '\\';
      json += c;
    }
    json += "\": " + std::to_string(i);
  }
  return json + "}\n";
}

// The spelling of each of the 256 bytes, byte order (ids 0–255), then `more`.
std::vector<std::string> ByteSpellings(const std::vector<std::string>& more = {}) {
  std::vector<std::string> spellings;
  for (int b = 0; b < 256; ++b) {
    spellings.push_back(bpe::BytesToSpelling(std::string(1, static_cast<char>(b))));
  }
  spellings.insert(spellings.end(), more.begin(), more.end());
  return spellings;
}

BpeTokenizer MustCreate(const std::string& vocabulary, const std::string& merges) {
  BpeTokenizer tokenizer;
  const Status status = BpeTokenizer::Create(vocabulary, merges, {}, &tokenizer);
  EXPECT_TRUE(status.ok()) << status.message();
  return tokenizer;
}

std::vector<int> Ids(const BpeTokenizer& tokenizer, std::string_view text) {
  std::vector<BpeToken> tokens;
  const Status status = tokenizer.Encode(text, &tokens);
  EXPECT_TRUE(status.ok()) << status.message();
  std::vector<int> ids;
  for (const BpeToken& token : tokens) ids.push_back(token.id);
  return ids;
}

std::vector<std::string> Pieces(std::string_view text) {
  std::vector<bpe::Span> spans;
  const Status status = bpe::Pretokenize(text, &spans);
  EXPECT_TRUE(status.ok()) << status.message();
  std::vector<std::string> pieces;
  for (const bpe::Span& span : spans) {
    pieces.emplace_back(text.substr(span.begin, span.end - span.begin));
  }
  return pieces;
}

using Strings = std::vector<std::string>;

// The toy vocabulary of transformers' GPT-2 tokenizer test (test_tokenization_gpt2.py), as
// the hf-tiny-gpt2 fixture's create_tiny_gpt2.py writes it: vocab.json and merges.txt.
const char kToyVocabulary[] =
    R"({"l": 0, "o": 1, "w": 2, "e": 3, "r": 4, "s": 5, "t": 6, "i": 7, "d": 8, "n": 9,
 "\u0120": 10, "\u0120l": 11, "\u0120n": 12, "\u0120lo": 13, "\u0120low": 14, "er": 15,
 "\u0120lowest": 16, "\u0120newer": 17, "\u0120wider": 18, "<unk>": 19, "<|endoftext|>": 20})";
const char kToyMerges[] = "#version: 0.2\n\xC4\xA0 l\n\xC4\xA0l o\n\xC4\xA0lo w\ne r\n";

TEST(BpeTest, ToyVocabularyGivesTransformersExpectedIds) {
  const BpeTokenizer tokenizer = MustCreate(kToyVocabulary, kToyMerges);
  EXPECT_EQ(tokenizer.size(), 21);
  // transformers' test: " lower newer" → Ġlow er Ġ n e w er → [14, 15, 10, 9, 3, 2, 15]. "Ġn"
  // (12) is in the vocabulary but no merge makes it.
  EXPECT_EQ(Ids(tokenizer, " lower newer"), (std::vector<int>{14, 15, 10, 9, 3, 2, 15}));
  // Without the leading space "lower" has no Ġ to start the merges: l o w er.
  EXPECT_EQ(Ids(tokenizer, "lower"), (std::vector<int>{0, 1, 2, 15}));
}

TEST(BpeTest, TokensCoverTheTextBytesInOrder) {
  const BpeTokenizer tokenizer = MustCreate(kToyVocabulary, kToyMerges);
  std::vector<BpeToken> tokens;
  ASSERT_TRUE(tokenizer.Encode(" lower newer", &tokens).ok());
  const std::vector<std::pair<int, int>> expected = {{0, 4}, {4, 6},  {6, 7},  {7, 8},
                                                     {8, 9}, {9, 10}, {10, 12}};
  ASSERT_EQ(tokens.size(), expected.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    EXPECT_EQ(tokens[i].begin, expected[i].first) << i;
    EXPECT_EQ(tokens[i].end, expected[i].second) << i;
  }
  EXPECT_EQ(tokenizer.TokenSpelling(14), "\xC4\xA0low");  // Ġlow
  EXPECT_EQ(tokenizer.TokenBytes(14), " low");
}

TEST(BpeTest, LowestRankMergesFirst) {
  // "b c" (rank 0) comes before "a b" (rank 1): in "abc" the pair bc wins although ab is
  // further left, and then no merge joins a with bc.
  const BpeTokenizer tokenizer =
      MustCreate(VocabularyJson(ByteSpellings({"bc", "ab"})), "#version: 0.2\nb c\na b\n");
  EXPECT_EQ(Ids(tokenizer, "abc"), (std::vector<int>{'a', 256}));
  EXPECT_EQ(Ids(tokenizer, "abd"), (std::vector<int>{257, 'd'}));
}

TEST(BpeTest, EqualPairsMergeLeftToRight) {
  // encoder.py merges every occurrence of the best pair in one left-to-right scan: "aaa" is
  // aa a (not a aa), "aaaa" is aa aa and then, by "aa aa", aaaa.
  const BpeTokenizer tokenizer =
      MustCreate(VocabularyJson(ByteSpellings({"aa", "aaaa"})), "#version: 0.2\na a\naa aa\n");
  EXPECT_EQ(Ids(tokenizer, "aaa"), (std::vector<int>{256, 'a'}));
  EXPECT_EQ(Ids(tokenizer, "aaaa"), (std::vector<int>{257}));
  EXPECT_EQ(Ids(tokenizer, "aaaaa"), (std::vector<int>{257, 'a'}));
}

TEST(BpeTest, MergesNeverCrossPreTokens) {
  // "a b" would merge "ab", but " b" starts a piece of its own: the space and b are one piece.
  const BpeTokenizer tokenizer = MustCreate(VocabularyJson(ByteSpellings({"ab",
                                                                          "\xC4\xA0"
                                                                          "b"})),
                                            "#version: 0.2\na b\n\xC4\xA0 b\n");
  EXPECT_EQ(Ids(tokenizer, "ab"), (std::vector<int>{256}));
  EXPECT_EQ(Ids(tokenizer, "a b"), (std::vector<int>{'a', 257}));
}

TEST(BpeTest, ByteAlphabetIsGpt2s) {
  // bytes_to_unicode(): printable Latin-1 stands for itself; the rest from U+0100 in byte order.
  EXPECT_EQ(bpe::ByteToChar('A'), U'A');
  EXPECT_EQ(bpe::ByteToChar(0x00), U'\u0100');
  EXPECT_EQ(bpe::ByteToChar(' '), U'\u0120');   // Ġ
  EXPECT_EQ(bpe::ByteToChar('\n'), U'\u010A');  // Ċ
  EXPECT_EQ(bpe::ByteToChar(0xAD), U'\u0143');  // the last: soft hyphen → Ń
  EXPECT_EQ(bpe::ByteToChar(0xE4), U'\u00E4');
  for (int b = 0; b < 256; ++b) EXPECT_EQ(bpe::CharToByte(bpe::ByteToChar(b)), b);
  EXPECT_EQ(bpe::CharToByte(U'中'), -1);
}

TEST(BpeTest, DecodeJoinsBytesAndReplacesBrokenCharacters) {
  const BpeTokenizer tokenizer = MustCreate(VocabularyJson(ByteSpellings()), "#version: 0.2\n");
  const std::string text = "中 a";  // 中 is E4 B8 AD: three byte tokens
  const std::vector<int> ids = Ids(tokenizer, text);
  EXPECT_EQ(ids, (std::vector<int>{0xE4, 0xB8, 0xAD, ' ', 'a'}));
  std::string decoded;
  ASSERT_TRUE(tokenizer.Decode(ids, &decoded).ok());
  EXPECT_EQ(decoded, text);
  // The first two bytes of 中 are one maximal subpart: one U+FFFD; a lone continuation is one.
  ASSERT_TRUE(tokenizer.Decode({0xE4, 0xB8, 'x', 0xAD}, &decoded).ok());
  EXPECT_EQ(decoded, "\xEF\xBF\xBDx\xEF\xBF\xBD");
  const Status status = tokenizer.Decode({1, 256}, &decoded);
  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.field(), "ids[1]");
  EXPECT_EQ(status.message(), "ids[1] (256) must be a token id from 0 to 255");
}

TEST(BpeTest, CharacterGroupsJoinByteTokensOfOneCharacter) {
  const BpeTokenizer tokenizer = MustCreate(VocabularyJson(ByteSpellings()), "#version: 0.2\n");
  const std::string text = "a中 é";
  std::vector<BpeToken> tokens;
  ASSERT_TRUE(tokenizer.Encode(text, &tokens).ok());
  ASSERT_EQ(tokens.size(), 7u);  // a, 3 bytes of 中, space, 2 bytes of é
  const std::vector<BpeCharacterGroup> groups = BpeCharacterGroups(text, tokens);
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_EQ(groups[0].first, 0);
  EXPECT_EQ(groups[0].count, 1);
  EXPECT_EQ(groups[1].first, 1);
  EXPECT_EQ(groups[1].count, 3);
  EXPECT_EQ(text.substr(groups[1].begin, groups[1].end - groups[1].begin), "中");
  EXPECT_EQ(groups[2].count, 1);
  EXPECT_EQ(groups[3].first, 5);
  EXPECT_EQ(groups[3].count, 2);
  EXPECT_EQ(groups[3].end, static_cast<int>(text.size()));
}

TEST(BpeTest, MissingByteTokenIsNamed) {
  const BpeTokenizer tokenizer = MustCreate(kToyVocabulary, kToyMerges);
  std::vector<BpeToken> tokens;
  const Status status = tokenizer.Encode("low x", &tokens);
  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.field(), "text");
  EXPECT_NE(status.message().find("text byte 0x78 at byte offset 4"), std::string::npos)
      << status.message();
}

TEST(BpeTest, InvalidUtf8TextIsRefused) {
  const BpeTokenizer tokenizer = MustCreate(VocabularyJson(ByteSpellings()), "#version: 0.2\n");
  std::vector<BpeToken> tokens;
  const Status status = tokenizer.Encode("ok \xE4\xB8", &tokens);
  EXPECT_EQ(status.code(), ErrorCode::kInvalidUtf8);
  EXPECT_EQ(status.field(), "text");
  EXPECT_TRUE(tokens.empty());
}

// Creating from hostile files: the error's field, and a message naming the file and line.
void ExpectRefused(const std::string& vocabulary, const std::string& merges,
                   const std::string& field, const std::string& phrase,
                   ErrorCode code = ErrorCode::kInvalidArgument) {
  BpeTokenizer tokenizer;
  const Status status =
      BpeTokenizer::Create(vocabulary, merges, {"vocab.json", "merges.txt"}, &tokenizer);
  EXPECT_EQ(status.code(), code) << phrase;
  EXPECT_EQ(status.field(), field) << status.message();
  EXPECT_NE(status.message().find(phrase), std::string::npos) << status.message();
}

TEST(BpeTest, MalformedVocabularyIsRefusedByLineAndKey) {
  const std::string merges = "#version: 0.2\n";
  ExpectRefused("[1, 2]", merges, "vocab", "vocab (vocab.json) expected '{'");
  ExpectRefused("{\"a\": 0,\n\"b\" 1}", merges, "vocab",
                "vocab (vocab.json) line 2: expected ':' after key \"b\"");
  ExpectRefused("{\"a\": 0,\n\"b\": 1,}", merges, "vocab", "line 2: expected a key");
  ExpectRefused("{\"a\": 0\n\"b\": 1}", merges, "vocab", "line 2: expected ',' or '}'");
  ExpectRefused("{\"a\": 0, \"b", merges, "vocab", "ends inside a string");
  ExpectRefused("{\"a\": 0.5}", merges, "vocab", "key \"a\" must have a whole number");
  ExpectRefused("{\"a\": -1}", merges, "vocab", "key \"a\" must have a whole number");
  ExpectRefused("{\"a\": \"0\"}", merges, "vocab", "key \"a\" must have a whole number");
  ExpectRefused("{\"a\": 0,\n\"a\": 1}", merges, "vocab",
                "line 2: key \"a\" repeats the key of line 1");
  ExpectRefused("{\"a\": 0,\n\"b\": 0}", merges, "vocab",
                "line 2: key \"b\" has id 0, as the key of line 1 does");
  ExpectRefused("{\"a\": 0,\n\"b\": 2}", merges, "vocab",
                "line 2: key \"b\" has id 2; with 2 tokens the ids must be 0 to 1");
  ExpectRefused("{\"\xE4\xB8\xAD\": 0}", merges, "vocab",
                "key \"中\" has U+4E2D, which is not in GPT-2's byte alphabet");
  ExpectRefused("{\"a b\": 0}", merges, "vocab", "has U+0020");
  ExpectRefused("{\"\\ud800\": 0}", merges, "vocab", "high surrogate \\uD800");
  ExpectRefused("{}", merges, "vocab", "vocab (vocab.json) has no tokens");
  ExpectRefused("{\"a\": 0} x", merges, "vocab", "unexpected text after the closing '}'");
  ExpectRefused("{\"\xFF\": 0}", merges, "vocab", "not valid UTF-8");
}

TEST(BpeTest, MalformedMergesAreRefusedByLine) {
  const std::string vocabulary = VocabularyJson(ByteSpellings({"ab", "abc"}));
  ExpectRefused(vocabulary, "", "merges", "merges (merges.txt) line 1: the file is empty");
  ExpectRefused(vocabulary, "a b\n", "merges", "line 1: expected the header \"#version: 0.2\"");
  ExpectRefused(vocabulary, "#version: 0.2\na b c\n", "merges",
                "line 2: expected two symbols separated by one space, found \"a b c\"");
  ExpectRefused(vocabulary, "#version: 0.2\nab\n", "merges", "line 2: expected two symbols");
  ExpectRefused(vocabulary, "#version: 0.2\na b\n\nab c\n", "merges", "line 3: empty line");
  ExpectRefused(vocabulary, "#version: 0.2\na \xE4\xB8\xAD\n", "merges",
                "line 2: symbol \"中\" has U+4E2D");
  // Each side one byte or an earlier line's result; each result in the vocabulary.
  ExpectRefused(vocabulary, "#version: 0.2\nab c\na b\n", "merges",
                "line 2 (\"ab c\"): \"ab\" is neither one byte nor made by an earlier line");
  ExpectRefused(vocabulary, "#version: 0.2\na b\nb c\n", "merges",
                "line 3 (\"b c\"): makes \"bc\", which the vocabulary (vocab.json) has no id for");
  ExpectRefused(vocabulary, "#version: 0.2\na b\nab c\na b\n", "merges",
                "line 4 (\"a b\"): repeats the merge of line 2");
}

TEST(BpeTest, FilesPastTheLimitsAreRefused) {
  const std::string merges = "#version: 0.2\n";
  ExpectRefused(std::string(BpeLimits::kMaxVocabularyBytes + 1, ' '), merges, "vocab",
                "more than the 33554432 allowed", ErrorCode::kLimitExceeded);
  ExpectRefused(VocabularyJson(ByteSpellings()), std::string(BpeLimits::kMaxMergesBytes + 1, ' '),
                "merges", "more than the 16777216 allowed", ErrorCode::kLimitExceeded);
  std::string many = "{";
  for (int i = 0; i <= BpeLimits::kMaxVocabulary; ++i) {
    many += (i ? ",\"" : "\"") + std::to_string(i) + "\":" + std::to_string(i);
  }
  ExpectRefused(many + "}", merges, "vocab", "has more than 262144 tokens",
                ErrorCode::kLimitExceeded);
  ExpectRefused("{\"" + std::string(BpeLimits::kMaxSymbolBytes + 1, 'a') + "\": 0}", merges,
                "vocab", "stands for 1025 bytes, more than the 1024 allowed");
}

// The pre-tokenizer, against GPT-2's pattern read by hand:
// 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
TEST(BpePretokenizeTest, ContractionsAreLowerCaseSuffixes) {
  EXPECT_EQ(Pieces("I'm don't we'll they've you're he'd it's"),
            (Strings{"I", "'m", " don", "'t", " we", "'ll", " they", "'ve", " you", "'re", " he",
                     "'d", " it", "'s"}));
  // Upper case is no contraction: the apostrophe is punctuation, S a word.
  EXPECT_EQ(Pieces("IT'S"), (Strings{"IT", "'", "S"}));
  // Only at a piece's start: after punctuation the apostrophe joins the punctuation run.
  EXPECT_EQ(Pieces("?'s 'sup"), (Strings{"?'", "s", " '", "sup"}));
}

TEST(BpePretokenizeTest, NumbersAreRunsOfTheirOwn) {
  EXPECT_EQ(Pieces("in 2024, pi=3.14"), (Strings{"in", " 2024", ",", " pi", "=", "3", ".", "14"}));
  EXPECT_EQ(Pieces("abc123def"), (Strings{"abc", "123", "def"}));
  // \p{N} is Nd, Nl and No: Arabic-Indic three, Roman twelve, one half, 〇.
  EXPECT_EQ(Pieces("x \xD9\xA3\xE2\x85\xAB\xC2\xBD\xE3\x80\x87"),
            (Strings{"x", " \xD9\xA3\xE2\x85\xAB\xC2\xBD\xE3\x80\x87"}));
}

TEST(BpePretokenizeTest, WhitespaceRunsLeaveOneSpaceForTheNextWord) {
  EXPECT_EQ(Pieces("a  b"), (Strings{"a", " ", " b"}));
  EXPECT_EQ(Pieces("  leading"), (Strings{" ", " leading"}));
  EXPECT_EQ(Pieces("trailing   "), (Strings{"trailing", "   "}));
  // A newline before a word is a piece of its own (only the ASCII space joins the word).
  EXPECT_EQ(Pieces("a\nb"), (Strings{"a", "\n", "b"}));
  EXPECT_EQ(Pieces("a \n\nb"), (Strings{"a", " \n", "\n", "b"}));
  EXPECT_EQ(Pieces("a\t\t!"), (Strings{"a", "\t", "\t", "!"}));
  EXPECT_EQ(Pieces("\n\n"), (Strings{"\n\n"}));
  // Unicode White_Space, as Python's regex module: NEL (U+0085) and the ideographic space.
  EXPECT_EQ(Pieces("a\xC2\x85\xC2\x85"
                   "b\xE3\x80\x80"),
            (Strings{"a", "\xC2\x85", "\xC2\x85", "b", "\xE3\x80\x80"}));
}

TEST(BpePretokenizeTest, PunctuationRunsTakeOneLeadingSpace) {
  EXPECT_EQ(Pieces("wow!!! ok?"), (Strings{"wow", "!!!", " ok", "?"}));
  EXPECT_EQ(Pieces("a -- b"), (Strings{"a", " --", " b"}));
  EXPECT_EQ(Pieces("\"quoted\""), (Strings{"\"", "quoted", "\""}));
}

TEST(BpePretokenizeTest, CjkLettersAreOneRunAndTheirPunctuationAnother) {
  EXPECT_EQ(Pieces("床前明月光，疑是地上霜。"), (Strings{"床前明月光", "，", "疑是地上霜", "。"}));
  EXPECT_EQ(Pieces("I love 火锅 and カタカナ"),
            (Strings{"I", " love", " 火锅", " and", " カタカナ"}));
}

TEST(BpePretokenizeTest, EmojiAndMarksAreNeitherLettersNorNumbers) {
  // ❤ (So) and VS16 (Mn) are "other"; so are 🍕 and "!": one run with the space before it.
  EXPECT_EQ(Pieces("I \xE2\x9D\xA4\xEF\xB8\x8F \xF0\x9F\x8D\x95!"),
            (Strings{"I", " \xE2\x9D\xA4\xEF\xB8\x8F", " \xF0\x9F\x8D\x95!"}));
  // A combining acute (Mn) after e is not a letter: it splits the word.
  EXPECT_EQ(Pieces("cafe\xCC\x81s"), (Strings{"cafe", "\xCC\x81", "s"}));
  // ZWJ sequences split at the joiner's neighbours only by class: all "other" here.
  EXPECT_EQ(Pieces("\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9"),
            (Strings{"\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9"}));
}

TEST(BpePretokenizeTest, PiecesCoverTheText) {
  EXPECT_TRUE(Pieces("").empty());
  const std::string text =
      "Mixed: Ελληνικά, русский, العربية 123 🙂  end\n";
  std::string joined;
  for (const std::string& piece : Pieces(text)) joined += piece;
  EXPECT_EQ(joined, text);
}

}  // namespace
}  // namespace attention
