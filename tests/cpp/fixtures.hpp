// Loads the NumPy reference fixtures (tests/fixtures/*.json, made by
// tests/reference/make_fixtures.py) and compares engine steps with them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attention/config.hpp"
#include "attention/matrix.hpp"

namespace attention::testing {

// Reference values are float64; −∞ is kept as −∞.
struct Reference {
  int rows = 0;
  int cols = 0;
  std::vector<double> data;
};

nlohmann::json LoadJson(const std::string& file_name);
// Names of the attention fixtures (every *.json but generator.json), sorted.
std::vector<std::string> FixtureNames();

Reference ReadReference(const nlohmann::json& matrix);
Matrix ToMatrix(const nlohmann::json& matrix);
// Builds the engine's Config and Input from a fixture's "config", "tokens", "kvTokens", "given".
void ReadCase(const nlohmann::json& fixture, Config* config, Input* input);

// Normwise relative error max|a − b| / max|b| over finite entries; infinite reference entries
// must be matched exactly (returns +∞ otherwise), and so must shapes.
// `floor` bounds the denominator from below: entropies (in nats) use 1, because in a saturated
// row H is ~1e-13 and its relative error only reflects float32 rounding of scores near 800.
double RelativeError(const Matrix& actual, const Reference& expected, double floor = 0.0);

// The bar every step must pass (docs/computation.md; product: "within 1e-5 relative").
inline constexpr double kTolerance = 1e-5;

}  // namespace attention::testing
