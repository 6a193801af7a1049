// The C++ suites' one set of fixtures: the NumPy reference fixtures (tests/fixtures/*.json,
// made by tests/reference/*.py) and the comparison with them, and the small helpers every
// engine and training test uses (a step's matrix, an expected error, a model's sizes, a trainer).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attention/config.hpp"
#include "attention/matrix.hpp"
#include "attention/status.hpp"
#include "attention/trace.hpp"
#include "attention/train/model.hpp"
#include "attention/train/model_config.hpp"
#include "attention/train/trainer.hpp"

namespace attention::testing {

// ---- The reference fixtures (fixtures.cpp) ----

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
// A training fixture's (tests/fixtures/train/*.json) "config" and "batch".
train::ModelConfig ReadModelConfig(const nlohmann::json& config);
train::Batch ReadBatch(const nlohmann::json& batch);

// Normwise relative error max|a − b| / max|b| over finite entries; infinite reference entries
// must be matched exactly (returns +∞ otherwise), and so must shapes.
// `floor` bounds the denominator from below: entropies (in nats) use 1, because in a saturated
// row H is ~1e-13 and its relative error only reflects float32 rounding of scores near 800.
double RelativeError(const Matrix& actual, const Reference& expected, double floor = 0.0);

double MaxAbs(const std::vector<double>& values);

// The same measure for a flat buffer of a model (float or double) against its reference values,
// all finite: max |actual − expected| / max(max |expected|, floor).
template <typename T>
double RelativeError(const T* actual, const std::vector<double>& expected, double floor = 0.0) {
  double error = 0.0;
  for (size_t i = 0; i < expected.size(); ++i) {
    error = std::max(error, std::abs(static_cast<double>(actual[i]) - expected[i]));
  }
  return error / std::max(MaxAbs(expected), floor);
}

// The bar every step must pass (docs/computation.md; product: "within 1e-5 relative").
inline constexpr double kTolerance = 1e-5;

// ---- The engine ----

inline Input TokensInput(std::vector<std::string> tokens) {
  Input input;
  input.tokens = std::move(tokens);
  return input;
}

// A copy of step `name` (head `head`) of a trace that has it.
inline Matrix StepOf(const Trace& trace, const char* name, int head = 0) {
  Matrix m;
  const Status status = trace.Copy(name, head, &m);
  EXPECT_TRUE(status.ok()) << name << ": " << status.message();
  return m;
}

// A refusal with exactly this code, field and message.
inline void ExpectError(const Status& status, ErrorCode code, const std::string& field,
                        const std::string& message) {
  EXPECT_EQ(ErrorCodeName(status.code()), std::string(ErrorCodeName(code)));
  EXPECT_EQ(status.field(), field);
  EXPECT_EQ(status.message(), message);
}

// ---- Training ----

// The sizes a test cares about; every other field keeps its default.
inline train::ModelConfig SizedConfig(int vocab_size, int context_length, int d_model, int heads,
                                      int layers) {
  train::ModelConfig c;
  c.vocab_size = vocab_size;
  c.context_length = context_length;
  c.d_model = d_model;
  c.heads = heads;
  c.layers = layers;
  return c;
}

// A trainer for a configuration the test expects to be valid (null, and a failure, otherwise).
inline std::unique_ptr<train::Trainer> MakeTrainer(const train::TrainerConfig& config) {
  std::unique_ptr<train::Trainer> trainer;
  const Status status = train::Trainer::Create(config, &trainer);
  EXPECT_TRUE(status.ok()) << status.message();
  return trainer;
}

// A task's configuration: the fields every task reads (a task uses length and alphabet, or
// modulus).
inline train::TaskConfig TaskConfigOf(train::TaskKind kind, int length = 8, int alphabet = 10,
                                      int modulus = 97) {
  train::TaskConfig config;
  config.kind = kind;
  config.length = length;
  config.alphabet = alphabet;
  config.modulus = modulus;
  return config;
}

}  // namespace attention::testing
