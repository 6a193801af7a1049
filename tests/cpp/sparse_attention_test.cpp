// Sparse patterns (window, dilated, longformer, bigbird): their key lists against the
// definitions written out pair by pair, the seeded random blocks against splitmix64's published
// output and NumPy's draws, and the sparse path against the dense masked path (a custom mask of
// the same pattern) on random inputs up to 64 tokens. The NumPy fixtures (trace_fixture_test.cpp)
// check every step of three patterns.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "attention/mask.hpp"
#include "attention/sparse_pattern.hpp"
#include "attention/trace.hpp"
#include "fixtures.hpp"

namespace attention {
namespace {

using testing::ExpectError;
using testing::kTolerance;
using testing::StepOf;

// The definition of each pattern, one pair at a time (docs/computation.md).
bool Allows(const MaskSpec& s, int i, int j, const std::vector<std::vector<int>>& blocks) {
  if (s.causal && j > i) return false;
  if (s.type == MaskType::kDilated) {
    return std::abs(i - j) <= s.width * s.dilation && (i - j) % s.dilation == 0;
  }
  if (std::abs(i - j) <= s.width) return true;
  if (s.type == MaskType::kWindow) return false;
  const auto& g = s.global_tokens;
  if (std::find(g.begin(), g.end(), i) != g.end() || std::find(g.begin(), g.end(), j) != g.end()) {
    return true;
  }
  if (s.type != MaskType::kBigBird) return false;
  const auto& chosen = blocks[static_cast<size_t>(i / s.block)];
  return std::find(chosen.begin(), chosen.end(), j / s.block) != chosen.end();
}

std::vector<MaskSpec> Specs() {
  std::vector<MaskSpec> specs;
  for (bool causal : {false, true}) {
    MaskSpec s;
    s.causal = causal;
    s.type = MaskType::kWindow;
    s.width = 3;
    specs.push_back(s);
    s.type = MaskType::kDilated;
    s.width = 2;
    s.dilation = 3;
    specs.push_back(s);
    s.type = MaskType::kLongformer;
    s.width = 2;
    s.global_tokens = {0, 9, 9, 40};  // a repeat and, for short texts, a position past the end
    specs.push_back(s);
    s.type = MaskType::kBigBird;
    s.width = 1;
    s.global_tokens = {0};
    s.block = 4;
    s.random = 2;
    s.seed = 123456789;
    specs.push_back(s);
  }
  return specs;
}

std::string Describe(const MaskSpec& s, int n, int m) {
  return std::string(MaskTypeName(s.type)) + (s.causal ? " causal" : "") + " " + std::to_string(n) +
         "×" + std::to_string(m);
}

TEST(SplitMix64, GivesThePublishedSequenceAndNumPysBlocks) {
  // Vigna's splitmix64.c with seed 0: the first outputs.
  SplitMix64 rng(0);
  EXPECT_EQ(rng.Next(), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(rng.Next(), 0x6E789E6AA1B965F4ull);
  // tests/reference/make_fixtures.py asserts the same blocks for the bigbird fixture.
  const std::vector<std::vector<int>> expected = {{3}, {0}, {2}, {3}};
  EXPECT_EQ(BigBirdRandomBlocks(7, 4, 4, 1), expected);
  // Distinct blocks, at most as many as there are.
  for (const auto& blocks : BigBirdRandomBlocks(99, 5, 3, 7)) {
    std::vector<int> sorted = blocks;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, (std::vector<int>{0, 1, 2}));
  }
}

TEST(SparsePattern, KeyListsAreTheDefinitionsPairByPair) {
  const int sizes[][2] = {{1, 1}, {7, 7}, {16, 16}, {33, 33}, {12, 20}, {20, 9}};
  for (const MaskSpec& spec : Specs()) {
    for (const auto& size : sizes) {
      const int n = size[0], m = size[1];
      const auto blocks = BigBirdRandomBlocks(spec.seed, (n + spec.block - 1) / spec.block,
                                              (m + spec.block - 1) / spec.block, spec.random);
      const SparsePattern p = BuildSparsePattern(spec, n, m);
      ASSERT_EQ(static_cast<int>(p.row_start.size()), n + 1);
      int64_t count = 0;
      for (int i = 0; i < n; ++i) {
        std::vector<int> expected;
        for (int j = 0; j < m; ++j) {
          if (Allows(spec, i, j, blocks)) expected.push_back(j);
        }
        const std::vector<int> actual(p.Row(i), p.Row(i) + p.RowSize(i));
        EXPECT_EQ(actual, expected) << Describe(spec, n, m) << " row " << i;
        count += static_cast<int64_t>(expected.size());
      }
      EXPECT_EQ(p.Count(), count) << Describe(spec, n, m);
    }
  }
}

// The trace over `spec`, and over the same pattern given as a custom (dense) mask.
void RunBoth(MaskSpec spec, int n, int m, Trace* sparse, Trace* dense) {
  // Global tokens past the text are refused by a run (BuildSparsePattern alone skips them).
  auto& g = spec.global_tokens;
  g.erase(std::remove_if(g.begin(), g.end(), [&](int t) { return t >= std::max(n, m); }), g.end());
  Config config;
  config.d_model = 16;
  config.heads = 2;
  config.seed = static_cast<uint32_t>(n * 31 + m);
  config.init = Init::kRandn;  // larger scores: sharper weights than the scaled default
  config.mask = spec;
  Input input;
  for (int i = 0; i < n; ++i) input.tokens.push_back("q" + std::to_string(i));
  if (m != n) {
    input.cross = true;
    for (int j = 0; j < m; ++j) input.kv_tokens.push_back("k" + std::to_string(j));
  }
  ASSERT_TRUE(Trace::Run(config, input, sparse).ok());
  config.mask = MaskSpec{};
  config.mask.type = MaskType::kCustom;
  config.mask.matrix = BuildMask(spec, n, m);
  ASSERT_TRUE(Trace::Run(config, input, dense).ok());
}

// Normwise relative error where `b` is finite; elsewhere both must be the same (−∞) or a is NaN
// (a score the pattern does not compute).
double Difference(const Matrix& a, const Matrix& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
  double worst = 0.0, scale = 0.0;
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    const float x = a.data()[i], y = b.data()[i];
    if (!std::isfinite(y)) {
      if (x != y) return INFINITY;
      continue;
    }
    if (std::isnan(x)) continue;
    worst = std::max(worst, static_cast<double>(std::abs(x - y)));
    scale = std::max(scale, static_cast<double>(std::abs(y)));
  }
  return scale > 0.0 ? worst / scale : worst;
}

TEST(SparseAttention, EqualsTheDenseMaskedPathOnRandomInputsUpTo64Tokens) {
  const int sizes[][2] = {{1, 1}, {5, 5}, {17, 17}, {64, 64}, {23, 40}, {40, 23}};
  double worst = 0.0;
  std::string worst_where;
  for (const MaskSpec& spec : Specs()) {
    for (const auto& size : sizes) {
      const int n = size[0], m = size[1];
      Trace sparse, dense;
      RunBoth(spec, n, m, &sparse, &dense);
      const std::string where = Describe(spec, n, m);
      EXPECT_EQ(StepOf(sparse, "mask"), StepOf(dense, "mask")) << where;
      EXPECT_EQ(StepOf(sparse, "rowMasked"), StepOf(dense, "rowMasked")) << where;
      EXPECT_EQ(sparse.computed_scores(), static_cast<int64_t>(StepOf(dense, "mask").sum()))
          << where;
      for (const StepInfo& info : StepCatalog()) {
        if (!sparse.HasStep(info)) continue;
        for (int h = 0; h < (info.per_head ? 2 : 1); ++h) {
          const Matrix a = StepOf(sparse, info.name, h);
          const Matrix b = StepOf(dense, info.name, h);
          const double error = Difference(a, b);
          EXPECT_LE(error, kTolerance) << where << ": " << info.name << " head " << h;
          if (error > worst) {
            worst = error;
            worst_where = where + " " + info.name;
          }
        }
      }
      // Shown for the page like a dense mask's: every score finite, no weight outside the pattern.
      const Matrix mask = StepOf(sparse, "mask");
      const Matrix scores = StepOf(sparse, "scores", 1);
      const Matrix weights = StepOf(sparse, "weights", 1);
      for (Eigen::Index i = 0; i < mask.size(); ++i) {
        EXPECT_TRUE(std::isfinite(scores.data()[i])) << where;
        if (mask.data()[i] == 0.0f) EXPECT_EQ(weights.data()[i], 0.0f) << where;
      }
    }
  }
  std::printf("  sparse against dense masked, every step: largest relative error %.2e (%s)\n",
              worst, worst_where.c_str());
}

TEST(SparseAttention, CountsOnlyThePatternsScoresInItsFlops) {
  MaskSpec spec;
  spec.type = MaskType::kLongformer;
  spec.width = 2;
  spec.global_tokens = {0};
  Trace sparse, dense;
  RunBoth(spec, 30, 30, &sparse, &dense);
  // 30 rows of 5 minus the band's cut corners (2·3), the global row and column: 30 + 29 more
  // in row 0 and column 0 than the band holds (row 0's band is 3, column 0's 3).
  const int64_t band = 30 * 5 - 6;
  const int64_t count = band + (30 - 3) + (30 - 3);
  EXPECT_EQ(sparse.computed_scores(), count);
  const Flops f = sparse.flops();
  EXPECT_EQ(f.scores, 2 * count * 8 * 2);
  EXPECT_EQ(f.softmax, 5 * count * 2);
  EXPECT_EQ(f.mask, 0);
  EXPECT_EQ(dense.flops().scores, 2 * 30 * 30 * 8 * 2);
}

TEST(SparseAttention, OptionsAreRefusedByNameWithTheirRange) {
  Config config;
  Input input = testing::TokensInput({"a", "b", "c", "d"});
  config.mask.type = MaskType::kDilated;
  config.mask.dilation = 0;
  ExpectError(ValidateInput(config, input), ErrorCode::kInvalidArgument, "mask.dilation",
              "mask.dilation (0) must be an integer from 1 to 2048");
  config.mask.type = MaskType::kBigBird;
  config.mask.block = 0;
  ExpectError(ValidateInput(config, input), ErrorCode::kInvalidArgument, "mask.block",
              "mask.block (0) must be an integer from 1 to 2048");
  config.mask.block = 2;
  config.mask.random = -1;
  ExpectError(ValidateInput(config, input), ErrorCode::kInvalidArgument, "mask.random",
              "mask.random (-1) must be an integer from 0 to 2048");
  config.mask.random = 1;
  config.mask.type = MaskType::kLongformer;
  config.mask.global_tokens = {0, 4};
  ExpectError(ValidateInput(config, input), ErrorCode::kInvalidArgument, "mask.global[1]",
              "mask.global[1] (4) must be a token position from 0 to 3");
  config.mask.global_tokens = {3};
  config.mask.width = -1;
  ExpectError(ValidateInput(config, input), ErrorCode::kInvalidArgument, "mask.width",
              "mask.width (-1) must be an integer from 0 to 2048");
  config.mask.width = 0;
  EXPECT_TRUE(ValidateInput(config, input).ok());
  config.attention = AttentionKind::kLinear;
  EXPECT_EQ(ValidateConfig(config).message(),
            "mask.type (\"longformer\") must be none or causal with attention \"linear\": its "
            "running sum of the keys covers every key or a prefix, not a different set per "
            "query");
}

}  // namespace
}  // namespace attention
