#include "attention/mask.hpp"

#include <gtest/gtest.h>

namespace attention {
namespace {

TEST(BuildMask, NoneAllowsEverything) {
  EXPECT_TRUE((BuildMask(MaskSpec{}, 3, 4).array() == 1).all());
}

TEST(BuildMask, CausalHidesTheFuture) {
  MaskSpec spec;
  spec.type = MaskType::kCausal;
  const MaskMatrix m = BuildMask(spec, 4, 4);
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) EXPECT_EQ(m(i, j), j <= i ? 1 : 0) << i << "," << j;
  }
}

TEST(BuildMask, WindowIsABandAndCanBeCausal) {
  MaskSpec spec;
  spec.type = MaskType::kWindow;
  spec.width = 1;
  const MaskMatrix band = BuildMask(spec, 5, 5);
  spec.causal = true;
  const MaskMatrix causal_band = BuildMask(spec, 5, 5);
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 5; ++j) {
      EXPECT_EQ(band(i, j), std::abs(i - j) <= 1 ? 1 : 0);
      EXPECT_EQ(causal_band(i, j), (j <= i && i - j <= 1) ? 1 : 0);
    }
  }
  spec.width = 0;
  spec.causal = false;
  EXPECT_TRUE(BuildMask(spec, 3, 3) == MaskMatrix::Identity(3, 3));
}

TEST(BuildMask, PaddingHidesKeyColumnsOnly) {
  MaskSpec spec;
  spec.type = MaskType::kPadding;
  spec.positions = {1, 3};
  const MaskMatrix m = BuildMask(spec, 2, 4);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(m(i, 0), 1);
    EXPECT_EQ(m(i, 1), 0);
    EXPECT_EQ(m(i, 2), 1);
    EXPECT_EQ(m(i, 3), 0);
  }
}

TEST(BuildMask, CustomIsUsedAsGiven) {
  MaskSpec spec;
  spec.type = MaskType::kCustom;
  spec.matrix = MaskMatrix(2, 3);
  spec.matrix << 1, 0, 1, 0, 0, 0;
  EXPECT_TRUE(BuildMask(spec, 2, 3) == spec.matrix);
}

TEST(BuildMask, CrossAttentionCausalUsesRawIndices) {
  MaskSpec spec;
  spec.type = MaskType::kCausal;
  const MaskMatrix m = BuildMask(spec, 2, 4);
  EXPECT_EQ(m.row(0).cast<int>().sum(), 1);
  EXPECT_EQ(m.row(1).cast<int>().sum(), 2);
}

}  // namespace
}  // namespace attention
