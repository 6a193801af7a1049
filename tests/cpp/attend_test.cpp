// Attend (attend.hpp) against the trace's own output, which the NumPy fixtures check step by step
// (trace_fixture_test.cpp): every kind of head (dense with and without a mask, each sparse
// pattern, linear with and without causal), self- and cross-attention, equal within float
// rounding; its buffers as attend.hpp counts them; and its longer limit.
#include "attention/attend.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "attention/mask.hpp"
#include "attention/trace.hpp"
#include "fixtures.hpp"

namespace attention {
namespace {

using testing::ExpectError;

std::vector<std::string> Tokens(int n, const char* prefix) {
  std::vector<std::string> tokens;
  for (int i = 0; i < n; ++i) tokens.push_back(prefix + std::to_string(i % 13));
  return tokens;
}

struct Case {
  const char* name;
  MaskType mask;
  AttentionKind attention;
};

const Case kCases[] = {
    {"full", MaskType::kNone, AttentionKind::kSoftmax},
    {"causal", MaskType::kCausal, AttentionKind::kSoftmax},
    {"padding", MaskType::kPadding, AttentionKind::kSoftmax},
    {"window", MaskType::kWindow, AttentionKind::kSoftmax},
    {"dilated", MaskType::kDilated, AttentionKind::kSoftmax},
    {"longformer", MaskType::kLongformer, AttentionKind::kSoftmax},
    {"bigbird", MaskType::kBigBird, AttentionKind::kSoftmax},
    {"linear", MaskType::kNone, AttentionKind::kLinear},
    {"linear causal", MaskType::kCausal, AttentionKind::kLinear},
};

Config CaseConfig(const Case& c) {
  Config config;
  config.d_model = 16;
  config.heads = 4;
  config.bias = true;
  config.attention = c.attention;
  config.mask.type = c.mask;
  config.mask.width = 3;
  config.mask.positions = {2, 5};
  config.mask.global_tokens = {0, 7};
  config.mask.block = 4;
  config.mask.random = 1;
  config.mask.seed = 3;
  return config;
}

void ExpectSameOutput(const Config& config, const Input& input, const char* name) {
  Trace trace;
  ASSERT_TRUE(Trace::Run(config, input, &trace).ok()) << name;
  Attended attended;
  const Status status = Attend(config, input, &attended);
  ASSERT_TRUE(status.ok()) << name << ": " << status.message();
  const Matrix* expected = nullptr;
  ASSERT_TRUE(trace.View("output", 0, &expected).ok());
  ASSERT_EQ(attended.output.rows(), expected->rows()) << name;
  ASSERT_EQ(attended.output.cols(), expected->cols()) << name;
  // The same kernels in the same order: equal up to a few ulp (a head's φ is contiguous here and
  // a column block there).
  for (Eigen::Index i = 0; i < expected->size(); ++i) {
    const float e = expected->data()[i];
    EXPECT_NEAR(attended.output.data()[i], e, 1e-6f * (1.0f + std::abs(e))) << name << " at " << i;
  }
  const bool linear = config.attention == AttentionKind::kLinear;
  EXPECT_EQ(attended.computed_scores, linear ? 0 : trace.computed_scores()) << name;
}

TEST(Attend, EqualsTheTracesOutputForEveryKindOfHead) {
  for (const Case& c : kCases) {
    Input input;
    input.tokens = Tokens(29, "q");
    ExpectSameOutput(CaseConfig(c), input, c.name);
  }
}

TEST(Attend, EqualsTheTracesOutputInCrossAttention) {
  for (const Case& c : kCases) {
    if (c.mask == MaskType::kCausal) continue;  // causal needs n = m
    Input input;
    input.tokens = Tokens(11, "q");
    input.cross = true;
    input.kv_tokens = Tokens(23, "k");
    Config config = CaseConfig(c);
    config.output_projection = false;  // the concatenated heads, n × P
    ExpectSameOutput(config, input, c.name);
  }
}

// Rows whose longest run of keys has 32 keys or more run in GEMM tiles of up to 64 rows, their
// other keys (global, random) by dot products (sparse_attention.hpp): a window, Longformer and
// BigBird against the dense path of the same mask given as a custom matrix, with and without
// causal, at a length that leaves a short last tile.
TEST(Attend, PatternsInTilesEqualTheSameMaskGivenDensely) {
  for (const MaskType type : {MaskType::kWindow, MaskType::kLongformer, MaskType::kBigBird}) {
    for (const bool causal : {false, true}) {
      Config config;
      config.d_model = 32;
      config.heads = 2;
      config.mask.type = type;
      config.mask.width = 40;
      config.mask.causal = causal;
      config.mask.global_tokens = {0, 150};
      config.mask.block = 16;
      config.mask.random = 2;
      config.mask.seed = 5;
      Input input;
      input.tokens = Tokens(201, "q");
      Attended tiled;
      ASSERT_TRUE(Attend(config, input, &tiled).ok());
      Config dense = config;
      dense.mask.type = MaskType::kCustom;
      dense.mask.matrix = BuildMask(config.mask, 201, 201);
      Trace trace;
      ASSERT_TRUE(Trace::Run(dense, input, &trace).ok());
      const Matrix* expected = nullptr;
      ASSERT_TRUE(trace.View("output", 0, &expected).ok());
      for (Eigen::Index i = 0; i < expected->size(); ++i) {
        const float e = expected->data()[i];
        EXPECT_NEAR(tiled.output.data()[i], e, 1e-5f * (1.0f + std::abs(e)))
            << MaskTypeName(type) << " causal " << causal << " at " << i;
      }
    }
  }
}

TEST(Attend, CountsOneHeadsBuffers) {
  Input input;
  input.tokens = Tokens(64, "q");
  Config config = CaseConfig(kCases[0]);
  Attended a;
  ASSERT_TRUE(Attend(config, input, &a).ok());
  // Scores and weights, 64 × 64 floats each, and the rows' statistics; no mask for none.
  EXPECT_EQ(a.score_bytes, 2 * 4 * 64 * 64 + 64 * static_cast<int64_t>(sizeof(RowStats)));
  config.mask.type = MaskType::kWindow;
  config.mask.width = 2;
  ASSERT_TRUE(Attend(config, input, &a).ok());
  // 5 keys a query but 3 at each end: 64·5 − 2·(2 + 1) pairs; rows of at most 5.
  EXPECT_EQ(a.computed_scores, 64 * 5 - 6);
  EXPECT_EQ(a.score_bytes,
            4 * (64 * 5 - 6) + 8 * 65 + 2 * 4 * 5 + 64 * static_cast<int64_t>(sizeof(RowStats)));
}

TEST(Attend, TakesTwiceATracesTokens) {
  Config config;
  config.d_model = 8;
  config.heads = 2;
  config.mask.type = MaskType::kWindow;
  config.mask.width = 4;
  Input input;
  input.tokens = Tokens(Limits::kMaxAttendTokens, "q");
  Trace trace;
  ExpectError(Trace::Run(config, input, &trace), ErrorCode::kLimitExceeded, "tokens",
              "tokens (4096 tokens) must hold at most 2048 tokens");
  Attended a;
  ASSERT_TRUE(Attend(config, input, &a).ok());
  EXPECT_EQ(a.output.rows(), Limits::kMaxAttendTokens);
  // A pattern's counts go up to the same limit: a window of 3,000 is refused by a trace, taken by
  // Attend (validated only: its key lists would hold 20 million pairs).
  config.mask.width = 3000;
  Input few;
  few.tokens = Tokens(8, "q");
  ExpectError(ValidateInput(config, few), ErrorCode::kInvalidArgument, "mask.width",
              "mask.width (3000) must be an integer from 0 to 2048");
  EXPECT_TRUE(ValidateInput(config, few, Limits::kMaxAttendTokens).ok());
  config.mask.width = 4097;
  ExpectError(Attend(config, few, &a), ErrorCode::kInvalidArgument, "mask.width",
              "mask.width (4097) must be an integer from 0 to 4096");
  config.mask.width = 4;
  input.tokens.push_back("one more");
  ExpectError(Attend(config, input, &a), ErrorCode::kLimitExceeded, "tokens",
              "tokens (4097 tokens) must hold at most 4096 tokens");
}

}  // namespace
}  // namespace attention
