// Every step of every NumPy fixture, within 1e-5 normwise relative error.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "attention/trace.hpp"
#include "fixtures.hpp"

namespace attention {
namespace {

using testing::FixtureNames;
using testing::kTolerance;
using testing::LoadJson;
using testing::ReadCase;
using testing::ReadReference;
using testing::RelativeError;

class FixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FixtureTest, EveryStepMatchesNumPy) {
  const nlohmann::json fixture = LoadJson(GetParam() + ".json");
  Config config;
  Input input;
  ReadCase(fixture, &config, &input);
  Trace trace;
  const Status status = Trace::Run(config, input, &trace);
  ASSERT_TRUE(status.ok()) << status.message();

  double worst = 0.0;
  std::string worst_step;
  int compared = 0;
  for (const auto& [name, reference] : fixture.at("steps").items()) {
    const StepInfo* info = FindStep(name);
    ASSERT_NE(info, nullptr) << "fixture step " << name << " unknown to the engine";
    ASSERT_EQ(info->per_head, reference.is_array()) << name;
    const int heads = info->per_head ? static_cast<int>(reference.size()) : 1;
    ASSERT_EQ(heads, info->per_head ? config.heads : 1) << name;
    for (int h = 0; h < heads; ++h) {
      Matrix actual;
      ASSERT_TRUE(trace.Copy(name, h, &actual).ok()) << name;
      const double floor = name == "rowEntropy" ? 1.0 : 0.0;
      const double error =
          RelativeError(actual, ReadReference(info->per_head ? reference.at(h) : reference), floor);
      EXPECT_LE(error, kTolerance) << GetParam() << ": step " << name << " head " << h;
      if (error >= worst) {
        worst = error;
        worst_step = name + "[" + std::to_string(h) + "]";
      }
      ++compared;
    }
  }
  std::printf("  %-28s %3d matrices, largest relative error %.2e (%s)\n", GetParam().c_str(),
              compared, worst, worst_step.c_str());

  EXPECT_EQ(trace.parameter_count(), fixture.at("params").get<int64_t>());
  const Flops f = trace.flops();
  const nlohmann::json& flops = fixture.at("flops");
  EXPECT_EQ(f.q_projection, flops.at("qProjection").get<int64_t>());
  EXPECT_EQ(f.k_projection, flops.at("kProjection").get<int64_t>());
  EXPECT_EQ(f.v_projection, flops.at("vProjection").get<int64_t>());
  EXPECT_EQ(f.scores, flops.at("scores").get<int64_t>());
  EXPECT_EQ(f.scaling, flops.at("scaling").get<int64_t>());
  EXPECT_EQ(f.mask, flops.at("mask").get<int64_t>());
  EXPECT_EQ(f.softmax, flops.at("softmax").get<int64_t>());
  EXPECT_EQ(f.weighted_sum, flops.at("weightedSum").get<int64_t>());
  EXPECT_EQ(f.output_projection, flops.at("outputProjection").get<int64_t>());
  // Linear attention's own counts, in its fixtures only (0 for softmax).
  EXPECT_EQ(f.feature_map, flops.value("featureMap", int64_t{0}));
  EXPECT_EQ(f.summary, flops.value("summary", int64_t{0}));
  EXPECT_EQ(f.normaliser, flops.value("normaliser", int64_t{0}));
}

INSTANTIATE_TEST_SUITE_P(NumPy, FixtureTest, ::testing::ValuesIn(FixtureNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
}  // namespace attention
