#include "attention/cost.hpp"

#include <gtest/gtest.h>

namespace attention {
namespace {

TEST(ParameterCount, WithoutBiasesOrOutputProjection) {
  Config c;
  c.d_model = 512;
  c.heads = 8;
  EXPECT_EQ(ParameterCount(c), 4 * 512 * 512);
  c.output_projection = false;
  EXPECT_EQ(ParameterCount(c), 3 * 512 * 512);
  c.bias = true;
  EXPECT_EQ(ParameterCount(c), 3 * 512 * 512 + 3 * 512);
}

TEST(CountFlops, AttentionIsQuadraticInTokensProjectionsLinear) {
  Config c;
  c.d_model = 64;
  c.heads = 4;
  const Flops small = CountFlops(c, 16, 16);
  const Flops large = CountFlops(c, 32, 32);
  EXPECT_EQ(large.scores, 4 * small.scores);
  EXPECT_EQ(large.softmax, 4 * small.softmax);
  EXPECT_EQ(large.weighted_sum, 4 * small.weighted_sum);
  EXPECT_EQ(large.q_projection, 2 * small.q_projection);
  EXPECT_EQ(large.output_projection, 2 * small.output_projection);
  EXPECT_EQ(small.scores, 2 * 16 * 16 * 16 * 4);
  EXPECT_EQ(small.Total(), small.q_projection + small.k_projection + small.v_projection +
                               small.scores + small.scaling + small.mask + small.softmax +
                               small.weighted_sum + small.output_projection);
}

TEST(CountFlops, LinearAttentionIsLinearInTokensAndFormsNoScores) {
  Config c;
  c.d_model = 64;
  c.heads = 4;  // dK 16
  c.attention = AttentionKind::kLinear;
  const Flops small = CountFlops(c, 16, 16);
  const Flops large = CountFlops(c, 32, 32);
  for (const auto member : {&Flops::feature_map, &Flops::summary, &Flops::normaliser,
                            &Flops::weighted_sum, &Flops::q_projection}) {
    EXPECT_EQ(large.*member, 2 * small.*member);
  }
  EXPECT_EQ(small.scores + small.scaling + small.mask + small.softmax, 0);
  // Σ_j φ(k_j) v_jᵀ: 16 keys, a 16 × 16 outer product each, 4 heads; and Σ_j φ(k_j).
  EXPECT_EQ(small.summary, 2 * 16 * 16 * 16 * 4 + 16 * 16 * 4);
  // A head costs about 2·(n + m)·dK² against softmax's 4·n·m·dK: at 2,048 tokens and dK 16,
  // over 100 times fewer.
  Config softmax = c;
  softmax.attention = AttentionKind::kSoftmax;
  const Flops s = CountFlops(softmax, 2048, 2048);
  const Flops l = CountFlops(c, 2048, 2048);
  EXPECT_GT(s.scores + s.weighted_sum, 100 * (l.summary + l.normaliser + l.weighted_sum));
}

}  // namespace
}  // namespace attention
