#include "attention/softmax.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace attention {
namespace {

TEST(MaskedSoftmax, RowsSumToOneAndMaskedEntriesAreExactlyZero) {
  Matrix scaled(2, 3);
  scaled << 1.0f, 2.0f, 3.0f, -1.0f, 0.5f, 4.0f;
  MaskMatrix mask(2, 3);
  mask << 1, 1, 0, 1, 1, 1;
  Matrix masked, weights;
  std::vector<RowStats> stats(2);
  MaskedSoftmax(scaled, mask, &masked, &weights, stats.data());
  EXPECT_EQ(masked(0, 2), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(weights(0, 2), 0.0f);
  EXPECT_NEAR(weights.row(0).sum(), 1.0f, 1e-6f);
  EXPECT_NEAR(weights.row(1).sum(), 1.0f, 1e-6f);
  const double e = std::exp(1.0);
  EXPECT_NEAR(weights(0, 1), e / (1.0 + e), 1e-6);
  EXPECT_FLOAT_EQ(stats[0].max, weights(0, 1));
  EXPECT_FALSE(stats[0].all_masked);
}

TEST(MaskedSoftmax, HugeScoresDoNotOverflow) {
  Matrix scaled(1, 3);
  scaled << 1e30f, 1e30f, -1e30f;
  MaskMatrix mask = MaskMatrix::Ones(1, 3);
  Matrix masked, weights;
  RowStats stats;
  MaskedSoftmax(scaled, mask, &masked, &weights, &stats);
  EXPECT_FLOAT_EQ(weights(0, 0), 0.5f);
  EXPECT_FLOAT_EQ(weights(0, 1), 0.5f);
  EXPECT_EQ(weights(0, 2), 0.0f);
  EXPECT_NEAR(stats.entropy, std::log(2.0), 1e-6);
}

TEST(MaskedSoftmax, AllMaskedRowIsZerosAndFlaggedNeverNaN) {
  Matrix scaled = Matrix::Constant(2, 2, 3.0f);
  MaskMatrix mask(2, 2);
  mask << 0, 0, 1, 0;
  Matrix masked, weights;
  std::vector<RowStats> stats(2);
  MaskedSoftmax(scaled, mask, &masked, &weights, stats.data());
  EXPECT_TRUE(stats[0].all_masked);
  EXPECT_EQ(weights(0, 0), 0.0f);
  EXPECT_EQ(weights(0, 1), 0.0f);
  EXPECT_EQ(stats[0].entropy, 0.0f);
  EXPECT_FALSE(stats[1].all_masked);
  EXPECT_EQ(weights(1, 0), 1.0f);
  EXPECT_FALSE(weights.array().isNaN().any());
}

TEST(MaskedSoftmax, UniformRowHasMaximalEntropy) {
  Matrix scaled = Matrix::Zero(1, 8);
  MaskMatrix mask = MaskMatrix::Ones(1, 8);
  Matrix masked, weights;
  RowStats stats;
  MaskedSoftmax(scaled, mask, &masked, &weights, &stats);
  EXPECT_NEAR(stats.entropy, std::log(8.0), 1e-6);
  EXPECT_FLOAT_EQ(stats.max, 0.125f);
}

}  // namespace
}  // namespace attention
