// Linear attention: what its NumPy fixtures (trace_fixture_test.cpp) do not pin down alone. The
// implied weights against the output path that never formed them, the steps a linear trace has,
// causality of the prefix sums, threads, and the combinations it refuses.
#include "attention/linear_attention.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "attention/parallel.hpp"
#include "attention/trace.hpp"
#include "fixtures.hpp"

namespace attention {
namespace {

using testing::ExpectError;
using testing::kTolerance;
using testing::LoadJson;
using testing::ReadCase;
using testing::StepOf;
using testing::TokensInput;

const char* const kLinearFixtures[] = {"linear", "linear_causal", "linear_cross_causal"};

Trace RunFixture(const std::string& name, Config* config) {
  Input input;
  ReadCase(LoadJson(name + ".json"), config, &input);
  Trace trace;
  const Status status = Trace::Run(*config, input, &trace);
  EXPECT_TRUE(status.ok()) << status.message();
  return trace;
}

std::set<std::string> StepNames(const Trace& trace) {
  std::set<std::string> names;
  for (const StepInfo& info : StepCatalog()) {
    if (trace.HasStep(info)) names.insert(info.name);
  }
  return names;
}

bool SameBits(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<size_t>(a.size())) == 0;
}

TEST(LinearAttention, ImpliedWeightsSumToOneAndGiveTheHeadOutput) {
  for (const char* name : kLinearFixtures) {
    Config config;
    const Trace trace = RunFixture(name, &config);
    const Matrix mask = StepOf(trace, "mask");
    double worst_sum = 0.0, worst_output = 0.0;
    for (int h = 0; h < config.heads; ++h) {
      const Matrix w = StepOf(trace, "linearWeights", h);
      const Matrix out = StepOf(trace, "headOutput", h);
      for (int i = 0; i < w.rows(); ++i) {
        worst_sum = std::max(worst_sum, std::abs(w.row(i).sum() - 1.0));
        for (int j = 0; j < w.cols(); ++j) {
          // φ > 0: every visible key has some weight; a masked one has exactly none.
          if (mask(i, j) == 0.0f) {
            EXPECT_EQ(w(i, j), 0.0f) << name << " (" << i << ", " << j << ")";
          } else {
            EXPECT_GT(w(i, j), 0.0f) << name << " (" << i << ", " << j << ")";
          }
        }
      }
      const Matrix wv = w * StepOf(trace, "vHead", h);  // [n × dK]
      worst_output = std::max(worst_output, static_cast<double>((wv - out).cwiseAbs().maxCoeff() /
                                                                out.cwiseAbs().maxCoeff()));
    }
    EXPECT_LE(worst_sum, kTolerance) << name;
    EXPECT_LE(worst_output, kTolerance) << name;
    std::printf("  %-20s rows of W: |Σ − 1| ≤ %.2e; W·V against the head output: %.2e\n", name,
                worst_sum, worst_output);
  }
}

TEST(LinearAttention, ATraceHasExactlyTheStepsOfItsFixture) {
  for (const char* name : kLinearFixtures) {
    Config config;
    const Trace trace = RunFixture(name, &config);
    const nlohmann::json fixture = LoadJson(std::string(name) + ".json");
    std::set<std::string> expected;
    for (const auto& [step, value] : fixture.at("steps").items()) expected.insert(step);
    EXPECT_EQ(StepNames(trace), expected) << name;
  }
  Config softmax;
  Trace plain;
  ASSERT_TRUE(Trace::Run(softmax, TokensInput({"a", "b"}), &plain).ok());
  for (const char* linear_only :
       {"phiQ", "phiK", "kvSummary", "keySum", "normaliser", "linearWeights"}) {
    EXPECT_EQ(StepNames(plain).count(linear_only), 0u) << linear_only;
  }
}

TEST(LinearAttention, SoftmaxStepsOfALinearTraceAreThoseOfTheSoftmaxTrace) {
  Config config;
  config.d_model = 16;
  config.heads = 2;
  config.mask.type = MaskType::kCausal;
  const Input input = TokensInput({"猫", "追", "着", "球", "跑"});
  Trace softmax, linear;
  ASSERT_TRUE(Trace::Run(config, input, &softmax).ok());
  config.attention = AttentionKind::kLinear;
  ASSERT_TRUE(Trace::Run(config, input, &linear).ok());
  for (const char* name : {"q", "k", "v", "mask"}) {
    EXPECT_TRUE(SameBits(StepOf(linear, name), StepOf(softmax, name))) << name;
  }
  for (int h = 0; h < 2; ++h) {
    for (const char* name : {"scores", "scaled", "masked", "weights"}) {
      EXPECT_TRUE(SameBits(StepOf(linear, name, h), StepOf(softmax, name, h))) << name;
    }
    EXPECT_FALSE(SameBits(StepOf(linear, "headOutput", h), StepOf(softmax, "headOutput", h)));
  }
}

TEST(LinearAttention, CausalRowsIgnoreLaterTokensBitForBit) {
  Config config;
  config.d_model = 16;
  config.heads = 2;
  config.attention = AttentionKind::kLinear;
  config.mask.type = MaskType::kCausal;
  Trace a, b;
  ASSERT_TRUE(Trace::Run(config, TokensInput({"我", "爱", "吃", "火锅"}), &a).ok());
  ASSERT_TRUE(Trace::Run(config, TokensInput({"我", "爱", "吃", "面条"}), &b).ok());
  const Matrix out_a = StepOf(a, "output"), out_b = StepOf(b, "output");
  EXPECT_TRUE(SameBits(out_a.topRows(3), out_b.topRows(3)));
  EXPECT_FALSE(SameBits(out_a.row(3), out_b.row(3)));
}

TEST(LinearAttention, HeadsSpreadOverAPoolGiveTheSequentialTraceBitForBit) {
  Config config;
  config.d_model = 64;
  config.heads = 8;
  config.attention = AttentionKind::kLinear;
  config.mask.type = MaskType::kCausal;
  std::vector<std::string> tokens;
  for (int i = 0; i < 96; ++i) tokens.push_back("t" + std::to_string(i % 37));
  ASSERT_TRUE(Trace::SpreadsHeads(96, 96, config.heads));
  Trace sequential;
  ASSERT_TRUE(Trace::Run(config, TokensInput(tokens), &sequential).ok());
  for (int threads : {2, 4}) {
    ThreadPool pool(threads);
    Trace spread;
    ASSERT_TRUE(Trace::Run(config, TokensInput(tokens), &spread, nullptr, &pool).ok());
    for (const char* name : {"kvSummary", "keySum", "normaliser", "headOutput"}) {
      for (int h = 0; h < config.heads; ++h) {
        EXPECT_TRUE(SameBits(StepOf(spread, name, h), StepOf(sequential, name, h))) << name;
      }
    }
    EXPECT_TRUE(SameBits(StepOf(spread, "output"), StepOf(sequential, "output")));
  }
}

TEST(LinearAttention, RefusesMasksAndScalingItCannotHonour) {
  Config config;
  config.attention = AttentionKind::kLinear;
  config.mask.type = MaskType::kWindow;
  ExpectError(ValidateConfig(config), ErrorCode::kInvalidArgument, "mask.type",
              "mask.type (\"window\") must be none or causal with attention \"linear\": its "
              "running sum of the keys covers every key or a prefix, not a different set per "
              "query");
  config.mask.type = MaskType::kPadding;
  EXPECT_EQ(ValidateConfig(config).field(), "mask.type");
  config.mask.type = MaskType::kCustom;
  EXPECT_EQ(ValidateConfig(config).field(), "mask.type");
  config.mask.type = MaskType::kCausal;
  config.scale = false;
  ExpectError(ValidateConfig(config), ErrorCode::kInvalidArgument, "scale",
              "scale (false) must be true with attention \"linear\": it never forms the scores "
              "QKᵀ that scale divides");
  config.scale = true;
  config.temperature = 0.5;
  ExpectError(ValidateConfig(config), ErrorCode::kInvalidArgument, "temperature",
              "temperature (0.5) must be 1 with attention \"linear\": it never forms the scores "
              "QKᵀ that temperature divides");
  config.temperature = 1.0;
  EXPECT_TRUE(ValidateConfig(config).ok());
}

TEST(LinearAttention, ScoresThatOverflowAreRefusedAsASoftmaxTraceRefusesThem) {
  // The softmax steps of a linear trace are recomputed from the same Q and K: scores that
  // overflow float32 (head 1's Q and K near 1e20) are refused up front, naming the step and head.
  Config config;
  config.attention = AttentionKind::kLinear;
  const Input small = TokensInput({"a", "b", "c"});
  Trace drawn;
  ASSERT_TRUE(Trace::Run(config, small, &drawn).ok());
  Input input = small;
  input.given.w_q = StepOf(drawn, "wQ");
  input.given.w_k = StepOf(drawn, "wK");
  input.given.w_q->middleCols(4, 4).setConstant(1e20f);
  input.given.w_k->middleCols(4, 4).setConstant(1e20f);
  Trace trace;
  const Status status = Trace::Run(config, input, &trace);
  EXPECT_EQ(status.code(), ErrorCode::kNonFinite);
  EXPECT_NE(status.message().find("scaled (head 1)"), std::string::npos) << status.message();
  config.attention = AttentionKind::kSoftmax;
  EXPECT_EQ(Trace::Run(config, input, &trace).message(), status.message());
}

TEST(LinearAttention, FeatureMapIsEluPlusOne) {
  Matrix x(1, 4);
  x << -2.0f, 0.0f, 0.5f, 3.0f;
  const Matrix phi = FeatureMap(x);
  EXPECT_FLOAT_EQ(phi(0, 0), std::exp(-2.0f));
  EXPECT_FLOAT_EQ(phi(0, 1), 1.0f);
  EXPECT_FLOAT_EQ(phi(0, 2), 1.5f);
  EXPECT_FLOAT_EQ(phi(0, 3), 4.0f);
}

}  // namespace
}  // namespace attention
