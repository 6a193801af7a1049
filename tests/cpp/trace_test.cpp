// Properties of a trace that the fixtures do not pin down by themselves.
#include "attention/trace.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "attention/embedding.hpp"
#include "attention/parallel.hpp"
#include "fixtures.hpp"

namespace attention {
namespace {

using testing::StepOf;
using testing::TokensInput;

TEST(Trace, SameTokenHasTheSameEmbeddingInEverySentence) {
  Config config;
  config.d_model = 16;
  Trace a, b;
  ASSERT_TRUE(Trace::Run(config, TokensInput({"我", "爱", "吃", "火锅"}), &a).ok());
  ASSERT_TRUE(Trace::Run(config, TokensInput({"火锅", "很", "好吃"}), &b).ok());
  EXPECT_TRUE(StepOf(a, "x").row(3) == StepOf(b, "x").row(0));
  config.seed = 43;
  Trace c;
  ASSERT_TRUE(Trace::Run(config, TokensInput({"火锅"}), &c).ok());
  EXPECT_FALSE(StepOf(a, "x").row(3) == StepOf(c, "x").row(0));
}

TEST(Trace, HeadStepsAreRecomputedIdenticallyInAnyOrder) {
  Config config;
  config.d_model = 32;
  config.heads = 4;
  config.mask.type = MaskType::kCausal;
  Trace trace;
  ASSERT_TRUE(Trace::Run(config, TokensInput({"a", "b", "c", "d", "e"}), &trace).ok());
  const Matrix w2 = StepOf(trace, "weights", 2);
  const Matrix w0 = StepOf(trace, "weights", 0);
  EXPECT_TRUE(StepOf(trace, "weights", 2) == w2);
  EXPECT_FALSE(w0 == w2);
  // The head output is exactly A·V of the same head.
  const Matrix av = w2 * StepOf(trace, "vHead", 2);
  EXPECT_TRUE(av.isApprox(StepOf(trace, "headOutput", 2), 1e-6f));
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(w2.row(i).sum(), 1.0f, 1e-6f);
}

TEST(Trace, TogglingBiasesOrOutputProjectionKeepsTheOtherWeights) {
  Config config;
  config.d_model = 8;
  Trace plain, with_bias, without_wo;
  ASSERT_TRUE(Trace::Run(config, TokensInput({"x", "y"}), &plain).ok());
  config.bias = true;
  ASSERT_TRUE(Trace::Run(config, TokensInput({"x", "y"}), &with_bias).ok());
  config.output_projection = false;
  ASSERT_TRUE(Trace::Run(config, TokensInput({"x", "y"}), &without_wo).ok());
  for (const char* w : {"wQ", "wK", "wV", "wO"}) {
    EXPECT_TRUE(StepOf(plain, w) == StepOf(with_bias, w)) << w;
    EXPECT_TRUE(StepOf(plain, w) == StepOf(without_wo, w)) << w;
  }
  EXPECT_TRUE(StepOf(without_wo, "output") == StepOf(without_wo, "concat"));
  EXPECT_EQ(without_wo.ColsAxis(*FindStep("output")), Axis::kProjection);
  EXPECT_EQ(plain.ColsAxis(*FindStep("output")), Axis::kModel);
}

TEST(Trace, CrossAttentionHasQueryByKeyScores) {
  Config config;
  config.d_model = 8;
  Input input = TokensInput({"I", "love", "hotpot"});
  input.cross = true;
  input.kv_tokens = {"我", "爱", "吃", "火锅"};
  Trace trace;
  ASSERT_TRUE(Trace::Run(config, input, &trace).ok());
  EXPECT_EQ(trace.n_query(), 3);
  EXPECT_EQ(trace.n_key(), 4);
  const Matrix scores = StepOf(trace, "scores", 1);
  EXPECT_EQ(scores.rows(), 3);
  EXPECT_EQ(scores.cols(), 4);
  EXPECT_EQ(StepOf(trace, "xKv").rows(), 4);
  EXPECT_EQ(StepOf(trace, "output").rows(), 3);
}

TEST(Trace, SelfAttentionHasNoKeyValueInputSteps) {
  Config config;
  Trace trace;
  ASSERT_TRUE(Trace::Run(config, TokensInput({"a"}), &trace).ok());
  Matrix m;
  const Status status = trace.Copy("xKv", 0, &m);
  EXPECT_EQ(status.code(), ErrorCode::kUnknownStep);
}

TEST(Trace, UnknownStepsAndHeadsAreClearErrors) {
  Config config;
  config.d_model = 8;
  config.heads = 2;
  Trace trace;
  ASSERT_TRUE(Trace::Run(config, TokensInput({"a", "b"}), &trace).ok());
  Matrix m;
  Status s = trace.Copy("attention", 0, &m);
  EXPECT_EQ(s.code(), ErrorCode::kUnknownStep);
  EXPECT_NE(s.message().find("step \"attention\" does not exist; steps are: x, pe"),
            std::string::npos)
      << s.message();
  s = trace.Copy("weights", 2, &m);
  EXPECT_EQ(s.field(), "head");
  EXPECT_EQ(s.message(), "head (2) must be from 0 to 1");
  s = trace.Copy("output", 1, &m);
  EXPECT_EQ(s.message(), "head (1) must be 0: step \"output\" is not per head");
}

TEST(Trace, PositionalEncodingOffIsZerosAndXPeIsX) {
  Config config;
  config.positional_encoding = false;
  Trace trace;
  ASSERT_TRUE(Trace::Run(config, TokensInput({"a", "b", "c"}), &trace).ok());
  EXPECT_TRUE(StepOf(trace, "pe").isZero());
  EXPECT_TRUE(StepOf(trace, "xPe") == StepOf(trace, "x"));
}

// The projections and heads of a long input spread over a pool (Trace::Run's pool): 192 tokens,
// 8 heads, a sliding-window mask, enough work to spread both (SpreadsProjections, SpreadsHeads).
Input LongInput() {
  std::vector<std::string> tokens;
  for (int i = 0; i < 192; ++i) tokens.push_back("t" + std::to_string(i % 61));
  return TokensInput(tokens);
}

Config LongConfig() {
  Config config;
  config.d_model = 64;
  config.heads = 8;
  config.mask.type = MaskType::kWindow;
  config.mask.width = 12;
  return config;
}

bool SameBits(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<size_t>(a.size())) == 0;
}

TEST(Trace, HeadsSpreadOverAPoolGiveTheSequentialTraceBitForBit) {
  const Config config = LongConfig();
  const Input input = LongInput();
  ASSERT_TRUE(Trace::SpreadsHeads(192, 192, config.heads));
  ASSERT_TRUE(Trace::SpreadsProjections(192, 192, config.d_model, config.d_model));
  Trace sequential;
  ASSERT_TRUE(Trace::Run(config, input, &sequential).ok());
  for (int threads : {1, 2, 4}) {
    ThreadPool pool(threads);  // at most the machine's threads (AvailableThreads)
    Trace spread;
    ASSERT_TRUE(Trace::Run(config, input, &spread, nullptr, &pool).ok());
    for (const StepInfo& info : StepCatalog()) {
      if (!sequential.HasStep(info)) continue;
      for (int h = 0; h < (info.per_head ? config.heads : 1); ++h) {
        EXPECT_TRUE(SameBits(StepOf(spread, info.name, h), StepOf(sequential, info.name, h)))
            << info.name << " head " << h << " with " << pool.size() << " threads";
      }
    }
  }
}

TEST(Trace, AnOverflowingHeadOnAPoolIsReportedAsSequentially) {
  // Heads 3 and 6 (columns 24–31 and 48–55 of W_Q and W_K) overflow in Q·Kᵀ; the lowest is named.
  const Config config = LongConfig();
  Input input = LongInput();
  Trace drawn;
  ASSERT_TRUE(Trace::Run(config, input, &drawn).ok());
  input.given.w_q = StepOf(drawn, "wQ");
  input.given.w_k = StepOf(drawn, "wK");
  for (int head : {3, 6}) {
    input.given.w_q->middleCols(head * 8, 8).setConstant(1e30f);
    input.given.w_k->middleCols(head * 8, 8).setConstant(1e30f);
  }
  Trace trace;
  const Status sequential = Trace::Run(config, input, &trace);
  ASSERT_EQ(sequential.code(), ErrorCode::kNonFinite);
  EXPECT_NE(sequential.message().find("scaled (head 3)"), std::string::npos)
      << sequential.message();
  for (int threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    const Status spread = Trace::Run(config, input, &trace, nullptr, &pool);
    EXPECT_EQ(spread.code(), sequential.code());
    EXPECT_EQ(spread.field(), sequential.field());
    EXPECT_EQ(spread.message(), sequential.message()) << pool.size() << " threads";
  }
}

TEST(PositionalEncoding, FirstRowIsSinZeroCosZero) {
  const Matrix pe = PositionalEncoding(3, 6);
  for (int c = 0; c < 6; ++c) EXPECT_EQ(pe(0, c), c % 2 == 0 ? 0.0f : 1.0f);
  EXPECT_NEAR(pe(1, 0), std::sin(1.0), 1e-7);
  EXPECT_NEAR(pe(2, 3), std::cos(2.0 / std::pow(10000.0, 2.0 / 6)), 1e-7);
}

TEST(Trace, ExtremeGivenWeightsGiveAnOverflowErrorNotNaN) {
  Config config;
  config.d_model = 4;
  config.heads = 1;
  Input input = TokensInput({"a", "b"});
  // 1e30 is a valid float, but Q·Kᵀ reaches 1e60: beyond float32.
  input.given.w_q = Matrix::Constant(4, 4, 1e30f);
  input.given.w_k = Matrix::Constant(4, 4, 1e30f);
  Trace trace;
  const Status status = Trace::Run(config, input, &trace);
  EXPECT_EQ(status.code(), ErrorCode::kNonFinite);
  EXPECT_NE(status.message().find("overflowed float32"), std::string::npos) << status.message();
}

}  // namespace
}  // namespace attention

namespace attention {
namespace {

TEST(WeightCache, ACachedLayerEqualsAFreshDraw) {
  // The same layer twice (the second from the cache), then with "stream" X of another length
  // (the weights follow X in the stream, so they must differ), then the first again.
  Config config;
  config.d_model = 16;
  config.heads = 2;
  config.embedding = EmbeddingSource::kStream;
  WeightCache cache;
  Trace a, b, c, again;
  ASSERT_TRUE(Trace::Run(config, TokensInput({"x", "y"}), &a, &cache).ok());
  ASSERT_TRUE(Trace::Run(config, TokensInput({"p", "q"}), &b, &cache).ok());
  EXPECT_EQ(cache.draws(), 1);
  ASSERT_TRUE(Trace::Run(config, TokensInput({"x", "y", "z"}), &c, &cache).ok());
  ASSERT_TRUE(Trace::Run(config, TokensInput({"x", "y"}), &again, &cache).ok());
  EXPECT_EQ(cache.draws(), 3);
  RandomState fresh(config.seed);
  fresh.RandnMatrix(2, 16);  // X
  const Matrix w_q = fresh.RandnMatrix(16, 16) * static_cast<float>(1.0 / std::sqrt(16.0));
  EXPECT_TRUE(StepOf(a, "wQ") == w_q);
  EXPECT_TRUE(StepOf(b, "wQ") == w_q);
  EXPECT_FALSE(StepOf(c, "wQ") == w_q);
  EXPECT_TRUE(StepOf(again, "output") == StepOf(a, "output"));
}

}  // namespace
}  // namespace attention
