// attention_head_roles: measures the head roles of a corpus language model on its held-out
// sample (head_roles.hpp) and writes the sidecar models/<name>.roles.json that the
// page shows and tests/cpp/corpus_roles_test.cpp recomputes. build-scripts/head-roles.sh runs it
// for both shipped models (and train-models.sh after training); usage:
//
//   attention_head_roles --model models/brown.model --sample models/heldout/brown.txt
//     [--tags models/heldout/brown.tags.txt] --out models/brown.roles.json [--repeats 64]
//     [--seed 1]
#include "attention/train/head_roles.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attention/config.hpp"
#include "attention/train/model_io.hpp"
#include "decimal.hpp"
#include "output_files.hpp"

namespace {

using namespace attention::train;

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "attention_head_roles: %s\n", what.c_str());
  std::exit(1);
}

void Check(const attention::Status& status, const std::string& context) {
  if (!status.ok()) Fail(context + ": " + status.message());
}

// The sidecar: every head's score, chance and ratio for each role it has queries for (0-based
// layer and head, as the JS API numbers them), its role, and the best head of each role.
nlohmann::json RolesJson(const HeadRoles& roles, const ModelConfig& config, int repeats,
                         uint32_t seed) {
  nlohmann::json out = {{"format", 2},
                        {"contextLength", config.context_length},
                        {"windows", roles.windows},
                        {"repeats", repeats},
                        {"seed", seed},
                        {"roleRatio", kRoleRatio},
                        {"matchedRatio", kMatchedRatio},
                        {"roleMargin", kRoleMargin},
                        {"broadScore", kBroadScore}};
  out["roles"] = nlohmann::json::array();
  for (const RoleInfo& info : kRoles) {
    out["roles"].push_back({{"name", info.name}, {"positional", info.positional}});
  }
  out["heads"] = nlohmann::json::array();
  nlohmann::json best = nlohmann::json::object();
  for (size_t l = 0; l < roles.scores.size(); ++l) {
    for (size_t h = 0; h < roles.scores[l].size(); ++h) {
      nlohmann::json scores = nlohmann::json::object();
      for (size_t r = 0; r < kRoles.size(); ++r) {
        const RoleScore& s = roles.scores[l][h][r];
        if (s.queries == 0) continue;
        scores[kRoles[r].name] = {{"score", s.score},
                                  {"chance", s.chance},
                                  {"ratio", s.ratio},
                                  {"matched", s.matched},
                                  {"matchedRatio", s.matched_ratio},
                                  {"queries", s.queries}};
        // The best head of a role: one that clears both bars before one that does not, then
        // the highest × chance (broad: the highest entropy).
        const bool by_score = !IsWeightRole(kRoles[r]);
        const bool holds = !by_score && Holds(kRoles[r], s);
        const double key = by_score ? s.score : s.ratio;
        nlohmann::json& b = best[kRoles[r].name];
        if (b.is_null() || holds > b["holds"].get<bool>() ||
            (holds == b["holds"].get<bool>() &&
             key > b[by_score ? "score" : "ratio"].get<double>())) {
          b = {{"layer", l},
               {"head", h},
               {"score", s.score},
               {"chance", s.chance},
               {"ratio", s.ratio},
               {"matched", s.matched},
               {"matchedRatio", s.matched_ratio},
               {"holds", holds}};
        }
      }
      // `roles`: every role shown (two within the margin are both named); `role`: the one role
      // when there is exactly one, else null (readers of the first format).
      const std::vector<std::string>& held = roles.roles[l][h];
      out["heads"].push_back(
          {{"layer", l},
           {"head", h},
           {"role", held.size() == 1 ? nlohmann::json(held[0]) : nlohmann::json()},
           {"roles", held},
           {"scores", scores}});
    }
  }
  out["best"] = best;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> flags = {{"--model", ""},     {"--sample", ""},
                                              {"--tags", ""},      {"--out", ""},
                                              {"--repeats", "64"}, {"--seed", "1"}};
  for (int i = 1; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (flags.count(flag) == 0 || i + 1 >= argc) {
      Fail("unknown flag or missing value: " + flag +
           " (flags: --model --sample --tags --out --repeats --seed)");
    }
    flags[flag] = argv[i + 1];
  }
  for (const char* required : {"--model", "--sample", "--out"}) {
    if (flags[required].empty()) Fail(std::string(required) + " is required");
  }
  // atoi and strtoul took "5x" for 5 and "-1" for 4294967295.
  const auto integer = [&](const char* flag, double low, double high) {
    double value = 0;
    if (!ReadDecimal(flags[flag], &value) || value != std::floor(value) || value < low ||
        value > high) {
      Fail(std::string(flag) + " (" + flags[flag] + ") must be an integer from " +
           std::to_string(static_cast<uint64_t>(low)) + " to " +
           std::to_string(static_cast<uint64_t>(high)));
    }
    return value;
  };
  const int repeats = static_cast<int>(integer("--repeats", 1, 1000000));
  const uint32_t seed = static_cast<uint32_t>(integer("--seed", 0, attention::Limits::kMaxSeed));
  // The roles file is regenerated (build-scripts/head-roles.sh): replaced, but checked before the
  // measurement and written whole, never over the model or the sample.
  std::vector<OutputFile> outputs;
  const attention::Status checked = CheckOutputs(
      {{"out", flags["--out"]}},
      {{"model", flags["--model"]}, {"sample", flags["--sample"]}, {"tags", flags["--tags"]}},
      /*force=*/true, "", &outputs);
  if (!checked.ok()) Fail(checked.message());
  RolesInput input;
  Check(LoadRolesInput(flags["--model"], flags["--sample"], flags["--tags"], &input), "input");
  HeadRoles roles;
  Check(MeasureHeadRoles(input.loaded.model.get(), input.ids, input.loaded.vocabulary, input.tags,
                         &roles, repeats, seed),
        "measure");
  nlohmann::json out = RolesJson(roles, input.loaded.model->config(), repeats, seed);
  out["model"] = flags["--model"].substr(flags["--model"].find_last_of('/') + 1);
  out["sample"] = flags["--sample"].substr(flags["--sample"].find_last_of('/') + 1);
  out["tagged"] = !input.tags.empty();
  const std::string text = out.dump(2) + "\n";
  Check(WriteFileWhole("out", outputs[0].target, std::vector<uint8_t>(text.begin(), text.end()),
                       true),
        "--out");
  for (size_t l = 0; l < roles.roles.size(); ++l) {
    for (size_t h = 0; h < roles.roles[l].size(); ++h) {
      std::string names;
      for (const std::string& r : roles.roles[l][h]) names += (names.empty() ? "" : "+") + r;
      std::printf("L%zuH%zu %s\n", l + 1, h + 1, names.empty() ? "-" : names.c_str());
    }
  }
  return 0;
}
