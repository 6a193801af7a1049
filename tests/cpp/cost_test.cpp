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

}  // namespace
}  // namespace attention
