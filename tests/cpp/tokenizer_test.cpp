#include "attention/tokenizer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace attention {
namespace {

using Tokens = std::vector<std::string>;

Tokens MustTokenize(std::string_view text) {
  Tokens tokens;
  const Status status = Tokenize(text, &tokens);
  EXPECT_TRUE(status.ok()) << status.message();
  return tokens;
}

// Tokenizes text that must be rejected and checks what every kInvalidUtf8 must carry.
Status MustReject(std::string_view text, const std::string& offset_phrase) {
  Tokens tokens = {"stale"};
  const Status status = Tokenize(text, &tokens);
  EXPECT_EQ(status.code(), ErrorCode::kInvalidUtf8);
  EXPECT_EQ(status.field(), "text");
  EXPECT_EQ(status.message().rfind("text is not valid UTF-8: ", 0), 0u) << status.message();
  EXPECT_NE(status.message().find(offset_phrase), std::string::npos) << status.message();
  EXPECT_TRUE(tokens.empty());
  return status;
}

TEST(TokenizerTest, EmptyTextHasNoTokens) {
  Tokens tokens = {"stale"};
  EXPECT_TRUE(Tokenize("", &tokens).ok());
  EXPECT_TRUE(tokens.empty());
}

TEST(TokenizerTest, WhitespaceOnlyHasNoTokens) {
  EXPECT_TRUE(MustTokenize(" ").empty());
  EXPECT_TRUE(MustTokenize(" \t\n\r\v\f").empty());
  // NBSP, em space, ideographic space, line separator.
  EXPECT_TRUE(MustTokenize("\u00A0\u2003\u3000\u2028").empty());
}

TEST(TokenizerTest, NullTokensIsInvalidArgument) {
  const Status status = Tokenize("hi", nullptr);
  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.field(), "tokens");
}

TEST(TokenizerTest, AsciiWords) {
  EXPECT_EQ(MustTokenize("hello world"), (Tokens{"hello", "world"}));
  EXPECT_EQ(MustTokenize("  hello   world  "), (Tokens{"hello", "world"}));
  EXPECT_EQ(MustTokenize("hello123 42"), (Tokens{"hello123", "42"}));
  EXPECT_EQ(MustTokenize("line one\nline\ttwo"), (Tokens{"line", "one", "line", "two"}));
}

TEST(TokenizerTest, AsciiPunctuationIsOneTokenPerCharacter) {
  EXPECT_EQ(MustTokenize("Hello, world!"), (Tokens{"Hello", ",", "world", "!"}));
  EXPECT_EQ(MustTokenize("don't"), (Tokens{"don", "'", "t"}));
  EXPECT_EQ(MustTokenize("(a) \"b\"?"), (Tokens{"(", "a", ")", "\"", "b", "\"", "?"}));
  EXPECT_EQ(MustTokenize("..."), (Tokens{".", ".", "."}));
  EXPECT_EQ(MustTokenize("3.14"), (Tokens{"3", ".", "14"}));
  EXPECT_EQ(MustTokenize("a+b=c$"), (Tokens{"a", "+", "b", "=", "c", "$"}));
  EXPECT_EQ(MustTokenize("snake_case"), (Tokens{"snake", "_", "case"}));
}

TEST(TokenizerTest, CjkAndFullwidthPunctuation) {
  EXPECT_EQ(MustTokenize("你好，世界！"), (Tokens{"你", "好", "，", "世", "界", "！"}));
  EXPECT_EQ(MustTokenize("「猫」《书》、。？"),
            (Tokens{"「", "猫", "」", "《", "书", "》", "、", "。", "？"}));
  // Fullwidth letters are letters; only the fullwidth punctuation splits.
  EXPECT_EQ(MustTokenize("ＡＢＣ！（１）"), (Tokens{"ＡＢＣ", "！", "（", "１", "）"}));
}

TEST(TokenizerTest, ChineseIsOneTokenPerCharacter) {
  EXPECT_EQ(MustTokenize("我 爱 吃 火锅"), (Tokens{"我", "爱", "吃", "火", "锅"}));
  EXPECT_EQ(MustTokenize("我爱吃火锅"), (Tokens{"我", "爱", "吃", "火", "锅"}));
  EXPECT_EQ(MustTokenize("猫追着球跑"), (Tokens{"猫", "追", "着", "球", "跑"}));
  EXPECT_EQ(MustTokenize("小明在北京的清华大学读书"),
            (Tokens{"小", "明", "在", "北", "京", "的", "清", "华", "大", "学", "读", "书"}));
  // Extension B, outside the BMP.
  EXPECT_EQ(MustTokenize("\U00020000\U0002A6D6"), (Tokens{"\U00020000", "\U0002A6D6"}));
}

TEST(TokenizerTest, KanaIsOneTokenPerCharacter) {
  EXPECT_EQ(MustTokenize("ねこカタ"), (Tokens{"ね", "こ", "カ", "タ"}));
  // A combining voiced sound mark stays with its kana.
  EXPECT_EQ(MustTokenize("か\u3099き"), (Tokens{"か\u3099", "き"}));
  EXPECT_EQ(MustTokenize("東京・大阪"), (Tokens{"東", "京", "・", "大", "阪"}));
}

TEST(TokenizerTest, MixedScripts) {
  EXPECT_EQ(MustTokenize("I love 火锅!"), (Tokens{"I", "love", "火", "锅", "!"}));
  EXPECT_EQ(MustTokenize("用GPT-4写code"), (Tokens{"用", "GPT", "-", "4", "写", "code"}));
  EXPECT_EQ(MustTokenize("Привет, мир"), (Tokens{"Привет", ",", "мир"}));
  EXPECT_EQ(MustTokenize("한국어 문장"), (Tokens{"한국어", "문장"}));
}

TEST(TokenizerTest, EmojiSequencesAreSingleTokens) {
  const std::string family = "\U0001F468\u200D\U0001F469\u200D\U0001F467";  // ZWJ family
  const std::string thumbs = "\U0001F44D\U0001F3FD";                        // skin tone
  const std::string heart = "\u2764\uFE0F";                                 // VS16
  const std::string china = "\U0001F1E8\U0001F1F3";                         // flag
  const std::string keycap = "1\uFE0F\u20E3";                               // keycap 1
  const std::string rainbow = "\U0001F3F3\uFE0F\u200D\U0001F308";           // rainbow flag
  const std::string scotland =  // tag sequence: black flag, "gbsct", cancel tag
      "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F";
  for (const std::string& emoji : {family, thumbs, heart, china, keycap, scotland, rainbow}) {
    EXPECT_EQ(MustTokenize(emoji), Tokens{emoji});
    EXPECT_EQ(MustTokenize("a" + emoji + "b"), (Tokens{"a", emoji, "b"}));
    EXPECT_EQ(MustTokenize("猫" + emoji + "球"), (Tokens{"猫", emoji, "球"}));
    EXPECT_EQ(MustTokenize(emoji + emoji), (Tokens{emoji, emoji}));
  }
  EXPECT_EQ(MustTokenize("#\uFE0F\u20E3"), Tokens{"#\uFE0F\u20E3"});
  EXPECT_EQ(MustTokenize("12\u20E3"), (Tokens{"1", "2\u20E3"}));
  EXPECT_EQ(MustTokenize("\U0001F600!"), (Tokens{"\U0001F600", "!"}));
}

TEST(TokenizerTest, RegionalIndicatorsPairIntoFlags) {
  const std::string c = "\U0001F1E8", n = "\U0001F1F3", u = "\U0001F1FA", s = "\U0001F1F8";
  EXPECT_EQ(MustTokenize(c + n + u + s), (Tokens{c + n, u + s}));
  EXPECT_EQ(MustTokenize(c + n + u), (Tokens{c + n, u}));
  EXPECT_EQ(MustTokenize(c), Tokens{c});
}

TEST(TokenizerTest, LoneEmojiComponentsAreNeverDropped) {
  // A skin tone with no emoji before it is a swatch emoji of its own, not part of the word.
  EXPECT_EQ(MustTokenize("a\U0001F3FD"), (Tokens{"a", "\U0001F3FD"}));
  // A trailing ZWJ stays with the emoji before it.
  EXPECT_EQ(MustTokenize("\U0001F468\u200D"), Tokens{"\U0001F468\u200D"});
}

TEST(TokenizerTest, CombiningMarksStayWithThePrecedingCharacter) {
  EXPECT_EQ(MustTokenize("e\u0301"), Tokens{"e\u0301"});
  EXPECT_EQ(MustTokenize("cafe\u0301 ok"), (Tokens{"cafe\u0301", "ok"}));
  EXPECT_EQ(MustTokenize("a\u0301\u0323\u20D7b"), Tokens{"a\u0301\u0323\u20D7b"});
  EXPECT_EQ(MustTokenize("!\u0301a"), (Tokens{"!\u0301", "a"}));
  EXPECT_EQ(MustTokenize("火\u0301锅"), (Tokens{"火\u0301", "锅"}));
  // No normalisation: precomposed and decomposed é are different tokens.
  EXPECT_EQ(MustTokenize("\u00E9 e\u0301"), (Tokens{"\u00E9", "e\u0301"}));
}

TEST(TokenizerTest, CombiningMarkWithNothingBeforeItIsItsOwnToken) {
  EXPECT_EQ(MustTokenize("\u0301abc"), (Tokens{"\u0301", "abc"}));
  EXPECT_EQ(MustTokenize("a \u0301\u0302"), (Tokens{"a", "\u0301\u0302"}));
  EXPECT_EQ(MustTokenize("\u0301"), Tokens{"\u0301"});
}

TEST(TokenizerTest, IndicWordsKeepTheirMarks) {
  EXPECT_EQ(MustTokenize("नमस्ते"), Tokens{"नमस्ते"});
  EXPECT_EQ(MustTokenize("नमस्ते दुनिया।"), (Tokens{"नमस्ते", "दुनिया", "।"}));
  EXPECT_EQ(MustTokenize("வணக்கம்"), Tokens{"வணக்கம்"});
}

TEST(TokenizerTest, RightToLeftWords) {
  EXPECT_EQ(MustTokenize("שלום עולם"), (Tokens{"שלום", "עולם"}));
  EXPECT_EQ(MustTokenize("בְּרֵאשִׁית"), Tokens{"בְּרֵאשִׁית"});
  EXPECT_EQ(MustTokenize("مرحبا بالعالم!"), (Tokens{"مرحبا", "بالعالم", "!"}));
  EXPECT_EQ(MustTokenize("مَرْحَبًا، عالم؟"), (Tokens{"مَرْحَبًا", "،", "عالم", "؟"}));
  // A right-to-left mark is invisible formatting and stays inside the word it follows.
  EXPECT_EQ(MustTokenize("שלום\u200F עולם"), (Tokens{"שלום\u200F", "עולם"}));
}

TEST(TokenizerTest, FormatCharactersStayInsideWords) {
  EXPECT_EQ(MustTokenize("co\u00ADop"), Tokens{"co\u00ADop"});
  EXPECT_EQ(MustTokenize("क्\u200Dष"), Tokens{"क्\u200Dष"});
}

TEST(TokenizerTest, ControlCharactersSeparateAndAreDropped) {
  EXPECT_EQ(MustTokenize("a\001b"), (Tokens{"a", "b"}));
  EXPECT_EQ(MustTokenize(std::string("a\0b", 3)), (Tokens{"a", "b"}));
  EXPECT_EQ(MustTokenize("a\177\u0085\u009Fb"), (Tokens{"a", "b"}));
  EXPECT_EQ(MustTokenize("\x1B[0m"), (Tokens{"[", "0m"}));
  EXPECT_TRUE(MustTokenize("\x01\x02\x1F").empty());
}

TEST(TokenizerTest, InvalidLeadByte) {
  MustReject("ab\x80", "invalid lead byte 0x80 at byte offset 2");
  MustReject("\xFF", "invalid lead byte 0xFF at byte offset 0");
  MustReject("hello \xF8\x88\x80\x80\x80", "at byte offset 6");
}

TEST(TokenizerTest, TruncatedSequence) {
  MustReject("abc\xE4\xBD", "truncated 3-byte sequence at byte offset 3");
  MustReject("\xF0\x9F\x98", "truncated 4-byte sequence at byte offset 0");
  MustReject("x\xC3", "at byte offset 1");
}

TEST(TokenizerTest, InvalidContinuationByte) {
  const Status status = MustReject("ab\xC3\x41", "at byte offset 3");
  EXPECT_EQ(status.message(),
            "text is not valid UTF-8: invalid continuation byte 0x41 at byte offset 3");
  MustReject("\xE4\xBD\xC3\xA9", "invalid continuation byte 0xC3 at byte offset 2");
}

TEST(TokenizerTest, OverlongEncoding) {
  MustReject("\xC0\xAF", "overlong 2-byte encoding of U+002F at byte offset 0");
  MustReject("x\xC1\xBF", "overlong 2-byte encoding of U+007F at byte offset 1");
  MustReject("ab\xE0\x80\xAF", "overlong 3-byte encoding of U+002F at byte offset 2");
  MustReject("\xF0\x82\x82\xAC", "overlong 4-byte encoding of U+20AC at byte offset 0");
}

TEST(TokenizerTest, Surrogates) {
  MustReject("\xED\xA0\x80", "surrogate U+D800 at byte offset 0");
  MustReject("ok \xED\xBF\xBF", "surrogate U+DFFF at byte offset 3");
}

TEST(TokenizerTest, AboveMaximumCodePoint) {
  MustReject("\xF4\x90\x80\x80", "U+110000 above U+10FFFF at byte offset 0");
  MustReject("a\xF7\xBF\xBF\xBF", "U+1FFFFF above U+10FFFF at byte offset 1");
}

TEST(TokenizerTest, BoundaryCodePointsAreValid) {
  EXPECT_EQ(MustTokenize("\xED\x9F\xBF").size(), 1u);               // U+D7FF
  EXPECT_EQ(MustTokenize("\xEE\x80\x80").size(), 1u);               // U+E000
  EXPECT_EQ(MustTokenize("\xF4\x8F\xBF\xBF").size(), 1u);           // U+10FFFF
  EXPECT_EQ(MustTokenize("\xEF\xBF\xBD"), Tokens{"\xEF\xBF\xBD"});  // U+FFFD is a symbol
}

// Test oracle, independent of the library: decodes valid UTF-8 and drops White_Space and
// control characters, which is all the tokenizer may remove.
std::string WithoutSeparators(std::string_view text) {
  std::string kept;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t size = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    char32_t c = size == 1 ? lead : lead & (0x7F >> size);
    for (std::size_t k = 1; k < size; ++k) {
      c = (c << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    }
    const bool white = (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 ||
                       c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
                       c == 0x202F || c == 0x205F || c == 0x3000;
    const bool control = c <= 0x1F || (c >= 0x7F && c <= 0x9F);
    if (!white && !control) kept.append(text.substr(i, size));
    i += size;
  }
  return kept;
}

TEST(TokenizerTest, TokensConcatenateToTheInputWithoutSeparators) {
  const std::vector<std::string> inputs = {
      "The quick brown fox, jumps!",
      "  leading and trailing  \n",
      "我 爱 吃 火锅。猫追着球跑！",
      "I love 火锅! \U0001F468\u200D\U0001F469\u200D\U0001F467 and \U0001F1E8\U0001F1F3",
      "\u0301 orphan e\u0301 \u0915\u094D\u200D\u0937",
      "שלום, مرحبا\u200F; नमस्ते\tдругие",
      "a\001b\177c\u0085d\u00A0e\u3000f",
      "1\uFE0F\u20E3\U0001F44D\U0001F3FD\u2764\uFE0F\U0001F1FA",
      "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F!",
      "ｶﾀｶﾅ ＡＢＣ（１）「」《》",
      "tab\tnew\nline\r\ncr",
      std::string("nul\0inside", 10),
  };
  for (const std::string& input : inputs) {
    const Tokens tokens = MustTokenize(input);
    std::string joined;
    for (const std::string& token : tokens) {
      EXPECT_FALSE(token.empty()) << input;
      joined += token;
    }
    EXPECT_EQ(joined, WithoutSeparators(input)) << input;
  }
}

}  // namespace
}  // namespace attention
