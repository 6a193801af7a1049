// The generator against NumPy's own output, bit for bit (tests/fixtures/generator.json).
#include "attention/random.hpp"

#include <gtest/gtest.h>

#include <cstdio>

#include "attention/cost.hpp"
#include "fixtures.hpp"

namespace attention {
namespace {

TEST(RandomState, RandnEqualsNumPyLegacySeed) {
  const nlohmann::json fixture = testing::LoadJson("generator.json");
  for (const nlohmann::json& entry : fixture.at("seeds")) {
    RandomState rng(entry.at("seed").get<uint32_t>());
    const auto expected = entry.at("randn").get<std::vector<double>>();
    ASSERT_GT(expected.size(), 1000u);
    for (size_t i = 0; i < expected.size(); ++i) {
      // Same integer stream, same double arithmetic: equal up to libm's last bit of log().
      ASSERT_NEAR(rng.Randn(), expected[i], 1e-15 * (1.0 + std::abs(expected[i])))
          << "seed " << entry.at("seed") << " draw " << i;
    }
  }
}

TEST(RandomState, SeedsFrom2To31Up) {
  // uint32 seeds above INT32_MAX are seeds like any other in NumPy (3000000000 → −2.2100…).
  const nlohmann::json fixture = testing::LoadJson("generator.json");
  ASSERT_EQ(fixture.at("highSeeds").size(), 3u);
  for (const nlohmann::json& entry : fixture.at("highSeeds")) {
    RandomState rng(entry.at("seed").get<uint32_t>());
    for (const double expected : entry.at("randn").get<std::vector<double>>()) {
      ASSERT_NEAR(rng.Randn(), expected, 1e-15 * (1.0 + std::abs(expected)))
          << "seed " << entry.at("seed");
    }
  }
}

TEST(RandomState, ArraySeedEqualsNumPyInitByArray) {
  const nlohmann::json fixture = testing::LoadJson("generator.json");
  for (const nlohmann::json& entry : fixture.at("arraySeeds")) {
    RandomState rng(entry.at("key").get<std::vector<uint32_t>>());
    const auto expected = entry.at("randn").get<std::vector<double>>();
    for (size_t i = 0; i < expected.size(); ++i) {
      ASSERT_NEAR(rng.Randn(), expected[i], 1e-15 * (1.0 + std::abs(expected[i]))) << i;
    }
  }
}

TEST(RandomState, TutorialSeed42FirstValues) {
  // np.random.seed(42); np.random.randn(3) → [0.49671415, -0.1382643, 0.64768854]
  RandomState rng(42);
  EXPECT_NEAR(rng.Randn(), 0.49671415, 1e-8);
  EXPECT_NEAR(rng.Randn(), -0.1382643, 1e-8);
  EXPECT_NEAR(rng.Randn(), 0.64768854, 1e-8);
}

TEST(RandomState, MatrixFillsRowByRow) {
  RandomState a(7);
  RandomState b(7);
  const Matrix m = a.RandnMatrix(2, 3);
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 3; ++c) EXPECT_EQ(m(r, c), static_cast<float>(b.Randn()));
  }
}

TEST(Fnv1a64, EqualsReferenceHashes) {
  const nlohmann::json fixture = testing::LoadJson("generator.json");
  for (const nlohmann::json& entry : fixture.at("fnv1a64")) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx",
                  static_cast<unsigned long long>(Fnv1a64(entry.at("text").get<std::string>())));
    EXPECT_EQ(std::string(hex), entry.at("hex").get<std::string>()) << entry.at("text");
  }
}

TEST(ParameterCount, MatchesReferenceForTheProductExample) {
  const nlohmann::json fixture = testing::LoadJson("generator.json");
  Config config;
  config.d_model = 512;
  config.heads = 8;
  config.bias = true;
  config.output_projection = true;
  EXPECT_EQ(ParameterCount(config), fixture.at("params512").get<int64_t>());
  EXPECT_EQ(ParameterCount(config), 1050624);
}

}  // namespace
}  // namespace attention
