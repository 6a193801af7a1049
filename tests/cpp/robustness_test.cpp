// Edge cases of what a learner may type or paste, end to end: each text is tokenized and run under
// several configurations, and the result is either a sensible trace (tests/fuzz/invariants.hpp: no
// NaN in any step, weights rows sum to 1 or are flagged all-masked, shapes right) or a clear error
// whose code, field and message are pinned here.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "../fuzz/invariants.hpp"
#include "attention/config.hpp"
#include "attention/tokenizer.hpp"
#include "attention/trace.hpp"
#include "fixtures.hpp"

namespace attention {
namespace {

using testing::ExpectError;
using testing::StepOf;

using Tokens = std::vector<std::string>;

static_assert(Limits::kMaxTokens >= 1024, "a long paste: at least 1024 tokens");

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// The configurations every text runs under: what changes the softmax (mask, heads,
// temperature, initialisation) and the tutorials' stream embedding with W_O off.
std::vector<Config> Configs() {
  std::vector<Config> configs(7);
  configs[1].d_model = 16;
  configs[1].heads = 4;
  configs[1].bias = true;
  configs[1].mask.type = MaskType::kCausal;
  configs[2].mask.type = MaskType::kWindow;
  configs[2].mask.width = 1;
  configs[2].mask.causal = true;
  configs[2].init = Init::kRandn;
  configs[3].embedding = EmbeddingSource::kStream;
  configs[3].heads = 1;
  configs[3].d_k = 4;
  configs[3].output_projection = false;
  configs[3].positional_encoding = false;
  configs[4].d_model = 64;
  configs[4].init = Init::kRandn;
  configs[4].temperature = Limits::kMinTemperature;
  configs[5].temperature = Limits::kMaxTemperature;
  configs[6].mask.type = MaskType::kBigBird;  // computed sparsely: every pattern's rule at once
  configs[6].mask.block = 2;
  configs[6].mask.seed = 3;
  return configs;
}

Tokens TokenizeChecked(std::string_view text, Status* status) {
  Tokens tokens;
  *status = Tokenize(text, &tokens);
  EXPECT_EQ(invariants::CheckTokenization(text, *status, tokens), "");
  return tokens;
}

// Tokenizes `text`, runs it under every configuration and checks each trace. Returns the
// tokens; fails the test if the text does not tokenize or any run fails.
Tokens RunsSensibly(std::string_view text) {
  Status status;
  const Tokens tokens = TokenizeChecked(text, &status);
  EXPECT_TRUE(status.ok()) << status.message();
  Input input;
  input.tokens = tokens;
  for (const Config& config : Configs()) {
    Trace trace;
    status = Trace::Run(config, input, &trace);
    EXPECT_TRUE(status.ok()) << status.field() << ": " << status.message();
    if (status.ok()) EXPECT_EQ(invariants::CheckTrace(trace), "");
  }
  return tokens;
}

Status RunTokens(const Config& config, Tokens tokens, Trace* trace = nullptr) {
  Input input;
  input.tokens = std::move(tokens);
  Trace local;
  const Status status = Trace::Run(config, input, trace != nullptr ? trace : &local);
  EXPECT_EQ(status.ok() ? invariants::CheckTrace(trace != nullptr ? *trace : local)
                        : invariants::CheckError(status),
            "");
  return status;
}

TEST(Robustness, EmptyTextAndOnlySpacesGiveNoTokensAndAClearError) {
  for (const std::string_view text : {"", " ", " \t\r\n\v\f", "\u00A0\u2003\u3000\u2028 "}) {
    Status status;
    EXPECT_TRUE(TokenizeChecked(text, &status).empty());
    EXPECT_TRUE(status.ok());
    ExpectError(RunTokens(Config(), {}), ErrorCode::kInvalidArgument, "tokens",
                "tokens must hold at least 1 token, got none");
  }
}

TEST(Robustness, OneTokenAttendsToItselfWithWeightOne) {
  EXPECT_EQ(RunsSensibly("hello"), Tokens{"hello"});
  Trace trace;
  ASSERT_TRUE(RunTokens(Config(), {"hello"}, &trace).ok());
  for (int h = 0; h < 2; ++h) {
    EXPECT_EQ(StepOf(trace, "weights", h)(0, 0), 1.0f);
    EXPECT_EQ(StepOf(trace, "rowEntropy", h)(0, 0), 0.0f);
    EXPECT_TRUE(StepOf(trace, "headOutput", h) == StepOf(trace, "vHead", h));
  }
}

TEST(Robustness, OnlyPunctuation) {
  EXPECT_EQ(RunsSensibly("?!…,.;:"), (Tokens{"?", "!", "…", ",", ".", ";", ":"}));
  EXPECT_EQ(RunsSensibly("「」（）！？"), (Tokens{"「", "」", "（", "）", "！", "？"}));
}

TEST(Robustness, EmojiAndZwjSequences) {
  const std::string family = "\U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466";
  const std::string rainbow = "\U0001F3F3\uFE0F\u200D\U0001F308";
  const std::string thumbs = "\U0001F44D\U0001F3FD", flag = "\U0001F1E8\U0001F1F3";
  const std::string keycap = "1\uFE0F\u20E3";
  EXPECT_EQ(RunsSensibly(family + " " + rainbow + thumbs + flag + keycap + "ok"),
            (Tokens{family, rainbow, thumbs, flag, keycap, "ok"}));
}

TEST(Robustness, CombiningMarks) {
  EXPECT_EQ(RunsSensibly("e\u0301cole \u0301\u0302 नमस्ते"),
            (Tokens{"e\u0301cole", "\u0301\u0302", "नमस्ते"}));
  // "Zalgo" text: dozens of marks on every letter stay on their letter (a 605-byte token).
  std::string zalgo;
  for (const char letter : std::string("zalgo")) {
    zalgo += letter;
    for (int i = 0; i < 15; ++i) zalgo += "\u0335\u0321\u031B\u0354";
  }
  EXPECT_EQ(RunsSensibly(zalgo + " !"), (Tokens{zalgo, "!"}));
}

TEST(Robustness, RightToLeftText) {
  EXPECT_EQ(RunsSensibly("שלום עולם"), (Tokens{"שלום", "עולם"}));
  EXPECT_EQ(RunsSensibly("مَرْحَبًا، بالعالم!"), (Tokens{"مَرْحَبًا", "،", "بالعالم", "!"}));
  // Directional marks and overrides are invisible formatting that stays with the character
  // before it; with none before it (text start, after a space) it is a token of its own.
  EXPECT_EQ(RunsSensibly("\u202Eabc\u202C \u200Fشكرا\u200E!"),
            (Tokens{"\u202E", "abc\u202C", "\u200F", "شكرا\u200E", "!"}));
}

TEST(Robustness, ControlCharactersSeparateAndAreDropped) {
  static const char kText[] =
      "a\0b\001c\x1B[0m\x7F"
      "d\u0085e\u009F";
  EXPECT_EQ(RunsSensibly(std::string(kText, sizeof kText - 1)),
            (Tokens{"a", "b", "c", "[", "0m", "d", "e"}));
  Status status;
  EXPECT_TRUE(TokenizeChecked("\x01\x02\x1F\x7F", &status).empty());
}

TEST(Robustness, MixedScripts) {
  const Tokens expected = {"Hello", "世",   "界", "Привет", "مرحبا",
                           "🙂",  "नमस्ते", "こ", "ん",     "한국어"};
  const std::string text =
      "Hello 世界 Привет مرحبا 🙂 नमस्ते こん 한국어";
  EXPECT_EQ(RunsSensibly(text), expected);
}

TEST(Robustness, TenThousandCharacterPastes) {
  // Prose: more tokens than a run takes; its first kMaxTokens run (what a page's "truncate"
  // offers), and the error names both numbers.
  std::string prose;
  while (prose.size() < 10000) prose += "The quick brown fox jumps over the lazy dog. ";
  prose.resize(10000);
  Status status;
  Tokens tokens = TokenizeChecked(prose, &status);
  ASSERT_TRUE(status.ok());
  ASSERT_EQ(tokens.size(), 2222u);
  ExpectError(RunTokens(Config(), tokens), ErrorCode::kLimitExceeded, "tokens",
              "tokens (2222 tokens) must hold at most 2048 tokens");
  tokens.resize(Limits::kMaxTokens);
  EXPECT_TRUE(RunTokens(Config(), tokens).ok());
  // One CJK token per character.
  std::string chinese;
  for (int i = 0; i < 2000; ++i) chinese += "我爱吃火锅";
  EXPECT_EQ(TokenizeChecked(chinese, &status).size(), 10000u);
  // No separator at all: one 10,000-byte token, over the token limit.
  tokens = TokenizeChecked(std::string(10000, 'a'), &status);
  ASSERT_EQ(tokens.size(), 1u);
  ExpectError(RunTokens(Config(), tokens), ErrorCode::kLimitExceeded, "tokens[0]",
              "tokens[0] (10000 bytes) must be at most 1024 bytes of UTF-8");
}

TEST(Robustness, TextLengthLimit) {
  const std::string at_limit(Limits::kMaxTextBytes, 'a');
  Status status;
  EXPECT_EQ(TokenizeChecked(at_limit, &status).size(), 1u);
  EXPECT_TRUE(status.ok());
  Tokens tokens = {"stale"};
  status = Tokenize(at_limit + "b", &tokens);
  ExpectError(status, ErrorCode::kLimitExceeded, "text",
              "text (100001 bytes) must be at most 100000 bytes of UTF-8; truncate it");
  EXPECT_TRUE(tokens.empty());
  // The limit counts bytes, so 33,334 three-byte characters are over it.
  std::string cjk;
  for (int i = 0; i < 33334; ++i) cjk += "火";
  EXPECT_EQ(Tokenize(cjk, &tokens).message(),
            "text (100002 bytes) must be at most 100000 bytes of UTF-8; truncate it");
}

TEST(Robustness, TokenLengthLimit) {
  const std::string longest(Limits::kMaxTokenBytes, 'a');
  EXPECT_TRUE(RunTokens(Config(), {"a", longest}).ok());
  ExpectError(RunTokens(Config(), {"a", longest + "b"}), ErrorCode::kLimitExceeded, "tokens[1]",
              "tokens[1] (1025 bytes) must be at most 1024 bytes of UTF-8");
  // Checked before UTF-8: an oversized token is refused without being decoded.
  EXPECT_EQ(RunTokens(Config(), {std::string(2000, '\xFF')}).code(), ErrorCode::kLimitExceeded);
  Input cross;
  cross.tokens = {"a"};
  cross.cross = true;
  cross.kv_tokens = {longest + "\u00E9"};
  Trace trace;
  ExpectError(Trace::Run(Config(), cross, &trace), ErrorCode::kLimitExceeded, "kvTokens[0]",
              "kvTokens[0] (1026 bytes) must be at most 1024 bytes of UTF-8");
}

TEST(Robustness, EveryRowMasked) {
  const Tokens tokens = {"a", "b", "c"};
  Config custom;
  custom.bias = true;
  custom.mask.type = MaskType::kCustom;
  custom.mask.matrix = MaskMatrix::Zero(3, 3);
  Config padding;
  padding.mask.type = MaskType::kPadding;
  padding.mask.positions = {0, 1, 2};
  for (const Config& config : {custom, padding}) {
    Trace trace;
    ASSERT_TRUE(RunTokens(config, tokens, &trace).ok());
    EXPECT_TRUE(StepOf(trace, "rowMasked").isOnes());
    for (int h = 0; h < config.heads; ++h) {
      EXPECT_TRUE(StepOf(trace, "weights", h).isZero(0.0f));
      EXPECT_TRUE(StepOf(trace, "rowEntropy", h).isZero(0.0f));
      EXPECT_TRUE(StepOf(trace, "headOutput", h).isZero(0.0f));
      EXPECT_TRUE((StepOf(trace, "masked", h).array() == -kInf).all());
    }
    // Nothing attended: the output is the output bias alone.
    const Matrix expected = config.bias ? Matrix(StepOf(trace, "bO").replicate(3, 1))
                                        : Matrix(Matrix::Zero(3, config.d_model));
    EXPECT_TRUE(StepOf(trace, "output") == expected);
  }
  // One row masked among visible ones, in cross-attention.
  Input cross;
  cross.tokens = tokens;
  cross.cross = true;
  cross.kv_tokens = {"x", "y"};
  custom.mask.matrix = MaskMatrix::Ones(3, 2);
  custom.mask.matrix.row(1).setZero();
  Trace trace;
  ASSERT_TRUE(Trace::Run(custom, cross, &trace).ok());
  EXPECT_EQ(invariants::CheckTrace(trace), "");
  EXPECT_EQ(StepOf(trace, "rowMasked"), (Matrix(3, 1) << 0, 1, 0).finished());
}

TEST(Robustness, TemperatureAtItsBounds) {
  const Tokens tokens = {"we", "love", "attention", "!"};
  Config config;
  config.d_model = 64;
  config.init = Init::kRandn;  // large scores: at 0.01 the softmax saturates
  for (const double t : {Limits::kMinTemperature, Limits::kMaxTemperature}) {
    config.temperature = t;
    Trace trace;
    ASSERT_TRUE(RunTokens(config, tokens, &trace).ok()) << t;
  }
  for (const double t : {0.0099, 100.001, 0.0, -1.0}) {
    config.temperature = t;
    EXPECT_EQ(RunTokens(config, tokens).field(), "temperature") << t;
  }
  config.temperature = std::numeric_limits<double>::infinity();
  ExpectError(RunTokens(config, tokens), ErrorCode::kInvalidArgument, "temperature",
              "temperature (inf) must be a number from 0.01 to 100");
}

TEST(Robustness, ExtremeWeightsAreComputedOrRefusedAsOverflow) {
  Config config;
  config.d_model = 4;
  config.heads = 1;
  const Tokens tokens = {"a", "b", "c"};
  Input input;
  input.tokens = tokens;
  // ±1e30 in W_V: the weights are untouched and the values pass through, finite.
  Matrix big(4, 4);
  big << 1e30f, -1e30f, 1e30f, -1e30f, -1e30f, 1e30f, -1e30f, 1e30f, 1e30f, 1e30f, -1e30f, -1e30f,
      -1e30f, -1e30f, 1e30f, 1e30f;
  input.given.w_v = big;
  Trace trace;
  ASSERT_TRUE(Trace::Run(config, input, &trace).ok());
  EXPECT_EQ(invariants::CheckTrace(trace), "");
  EXPECT_GT(StepOf(trace, "output").cwiseAbs().maxCoeff(), 1e28f);
  // ±1e30 in W_Q and W_K: Q·Kᵀ reaches 1e60, beyond float32: an error, never NaN.
  input.given.w_q = big;
  input.given.w_k = big;
  Status status = Trace::Run(config, input, &trace);
  EXPECT_EQ(status.code(), ErrorCode::kNonFinite);
  EXPECT_NE(status.message().find("overflowed float32"), std::string::npos) << status.message();
  EXPECT_EQ(invariants::CheckError(status), "");
  // ±1e30 embeddings with ordinary weights: the same.
  config.embedding = EmbeddingSource::kGiven;
  input.given = GivenMatrices();
  input.given.x = big.topRows(3);
  status = Trace::Run(config, input, &trace);
  EXPECT_EQ(status.code(), ErrorCode::kNonFinite);
  EXPECT_EQ(invariants::CheckError(status), "");
}

// Scores of 2.25e38 and −1.5e38 in one row are finite, but their difference is not in float:
// the entropy must still be a number (found by tests/fuzz/run_fuzzer).
TEST(Robustness, ScoresSpanningMoreThanFloatMaxKeepAFiniteEntropy) {
  Config config;
  config.d_model = 1;
  config.heads = 1;
  config.scale = false;
  config.positional_encoding = false;
  config.output_projection = false;
  config.embedding = EmbeddingSource::kGiven;
  Input input;
  input.tokens = {"a", "b"};
  input.given.x = (Matrix(2, 1) << 1.5e19f, -1e19f).finished();
  input.given.w_q = input.given.w_k = input.given.w_v = Matrix::Ones(1, 1);
  Trace trace;
  ASSERT_TRUE(Trace::Run(config, input, &trace).ok());
  EXPECT_EQ(invariants::CheckTrace(trace), "");
}

TEST(Robustness, NaNOrInfinityInGivenMatricesIsNamedWithItsPosition) {
  Config config;
  config.d_model = 4;
  config.bias = true;
  config.embedding = EmbeddingSource::kGiven;
  Input input;
  input.tokens = {"a", "b"};
  input.given.x = Matrix::Ones(2, 4);
  (*input.given.x)(1, 2) = kNaN;
  Trace trace;
  ExpectError(Trace::Run(config, input, &trace), ErrorCode::kNonFinite, "given.x",
              "given.x[1][2] is NaN; every value must be a finite number");
  input.given.x = Matrix::Ones(2, 4);
  input.given.b_o = Matrix::Zero(1, 4);
  (*input.given.b_o)(0, 3) = kInf;
  ExpectError(Trace::Run(config, input, &trace), ErrorCode::kNonFinite, "given.bO",
              "given.bO[0][3] is Infinity; every value must be a finite number");
  input.given.b_o.reset();
  input.given.w_o = Matrix::Ones(4, 4);
  (*input.given.w_o)(3, 0) = -kInf;
  ExpectError(Trace::Run(config, input, &trace), ErrorCode::kNonFinite, "given.wO",
              "given.wO[3][0] is -Infinity; every value must be a finite number");
  input.given.w_o.reset();
  input.cross = true;
  input.kv_tokens = {"z"};
  input.given.x_kv = Matrix::Constant(1, 4, kNaN);
  ExpectError(Trace::Run(config, input, &trace), ErrorCode::kNonFinite, "given.xKv",
              "given.xKv[0][0] is NaN; every value must be a finite number");
}

TEST(Robustness, GivenEmbeddingsWithAnotherSourceNameTheirField) {
  Input input;
  input.tokens = {"a"};
  input.given.x = Matrix::Zero(1, 8);
  Trace trace;
  ExpectError(Trace::Run(Config(), input, &trace), ErrorCode::kInvalidArgument, "given.x",
              "given.x needs embedding \"given\" (it is \"hash\")");
}

}  // namespace
}  // namespace attention
