// The head roles stored beside each shipped model (models/<name>.roles.json, written
// by attention_head_roles) are what the committed model does on its committed held-out sample:
// recomputed here from the model, the sample (and Brown's tags) and compared head by head.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "attention/train/head_roles.hpp"

namespace attention::train {
namespace {

nlohmann::json ReadJson(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

void ExpectSidecarRecomputes(const std::string& name, bool tagged) {
  const std::string dir = ATTENTION_MODEL_DIR;
  RolesInput input;
  const Status loaded =
      LoadRolesInput(dir + "/" + name + ".model", dir + "/heldout/" + name + ".txt",
                     tagged ? dir + "/heldout/" + name + ".tags.txt" : "", &input);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  const nlohmann::json sidecar = ReadJson(dir + "/" + name + ".roles.json");
  HeadRoles roles;
  const Status measured =
      MeasureHeadRoles(input.loaded.model.get(), input.ids, input.loaded.vocabulary, input.tags,
                       &roles, sidecar["repeats"].get<int>(), sidecar["seed"].get<uint32_t>());
  ASSERT_TRUE(measured.ok()) << measured.message();
  EXPECT_EQ(sidecar["windows"].get<int>(), roles.windows);
  EXPECT_EQ(sidecar["tagged"].get<bool>(), tagged);
  const ModelConfig& config = input.loaded.model->config();
  ASSERT_EQ(sidecar["heads"].size(), static_cast<size_t>(config.layers * config.heads));
  std::set<std::string> held;
  for (const nlohmann::json& head : sidecar["heads"]) {
    const int l = head["layer"].get<int>(), h = head["head"].get<int>();
    const std::string role = head["role"].is_null() ? "" : head["role"].get<std::string>();
    EXPECT_EQ(role, roles.role[l][h]) << name << " layer " << l << " head " << h;
    if (!role.empty() && role != "broad") held.insert(role);
    for (size_t r = 0; r < kRoles.size(); ++r) {
      const RoleScore& s = roles.scores[l][h][r];
      const nlohmann::json& stored = head["scores"].value(kRoles[r].name, nlohmann::json());
      ASSERT_EQ(stored.is_null(), s.queries == 0) << kRoles[r].name;
      if (s.queries == 0) continue;
      EXPECT_EQ(stored["queries"].get<int64_t>(), s.queries) << kRoles[r].name;
      EXPECT_NEAR(stored["score"].get<double>(), s.score, 1e-5) << kRoles[r].name;
      EXPECT_NEAR(stored["chance"].get<double>(), s.chance, 1e-5) << kRoles[r].name;
    }
  }
  std::printf("%s: %d windows; roles held at >= %.0fx chance:", name.c_str(), roles.windows,
              kRoleRatio);
  for (const std::string& role : held) std::printf(" %s", role.c_str());
  std::printf("\n");
}

TEST(ShippedModelRoles, TangSidecarIsRecomputedFromTheModel) {
  ExpectSidecarRecomputes("tang", false);
}
TEST(ShippedModelRoles, BrownSidecarIsRecomputedFromTheModelAndTags) {
  ExpectSidecarRecomputes("brown", true);
}

// The head-role goals of docs/models.md ("Head roles"), from the sidecars the tests above
// recompute: the roles some head holds at ≥ 3× chance (its best head's ratio; broad is not a weight
// role), and the induction score on repeated random sequences. The goal of 0.3 is not met
// (docs/models.md, "Induction"); 0.1 is about 5× chance, where the models of 2026-12-01 had 0.015
// and 0.021.
std::set<std::string> RolesAtThreeTimesChance(const nlohmann::json& sidecar) {
  std::set<std::string> roles;
  for (const auto& [name, best] : sidecar["best"].items()) {
    if (name != "broad" && best["ratio"].get<double>() >= 3.0) roles.insert(name);
  }
  return roles;
}

TEST(ShippedModelRoles, TangHasFourRolesAmongThemCoupletAndLineStartAndAnInductionHead) {
  const nlohmann::json sidecar = ReadJson(std::string(ATTENTION_MODEL_DIR) + "/tang.roles.json");
  const std::set<std::string> roles = RolesAtThreeTimesChance(sidecar);
  EXPECT_GE(roles.size(), 4u);
  EXPECT_EQ(roles.count("couplet"), 1u);
  EXPECT_EQ(roles.count("lineStart"), 1u);
  EXPECT_GE(sidecar["best"]["induction"]["score"].get<double>(), 0.1);
}

TEST(ShippedModelRoles, BrownHasThreeRolesAmongThemAPartOfSpeechOneAndAnInductionHead) {
  const nlohmann::json sidecar = ReadJson(std::string(ATTENTION_MODEL_DIR) + "/brown.roles.json");
  const std::set<std::string> roles = RolesAtThreeTimesChance(sidecar);
  EXPECT_GE(roles.size(), 3u);
  EXPECT_GE(roles.count("closeQuote") + roles.count("verbNoun") + roles.count("nounModifier"), 1u);
  EXPECT_GE(sidecar["best"]["induction"]["score"].get<double>(), 0.1);
}

// The tags file must be the sample's tokens one for one: a word changed is named.
TEST(ShippedModelRoles, ATagFileThatDoesNotMatchTheSampleIsRefused) {
  const std::string dir = ATTENTION_MODEL_DIR;
  const std::string path = ::testing::TempDir() + "/bad.tags.txt";
  std::ofstream(path) << "a/at wrong/nn sample/nn\n";
  RolesInput input;
  const Status status =
      LoadRolesInput(dir + "/brown.model", dir + "/heldout/brown.txt", path, &input);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.field(), "tags[0]");
}

}  // namespace
}  // namespace attention::train
