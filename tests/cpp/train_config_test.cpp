// ValidateModelConfig: every field out of range is refused with its JSON name.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "attention/train/model_config.hpp"

namespace attention::train {
namespace {

TEST(TrainConfig, DefaultIsValid) { EXPECT_TRUE(ValidateModelConfig(ModelConfig{}).ok()); }

TEST(TrainConfig, EachBadFieldIsNamed) {
  const std::vector<std::pair<std::string, std::function<void(ModelConfig*)>>> cases = {
      {"vocabSize", [](ModelConfig* c) { c->vocab_size = 1; }},
      {"contextLength", [](ModelConfig* c) { c->context_length = 0; }},
      {"dModel", [](ModelConfig* c) { c->d_model = 0; }},
      {"heads", [](ModelConfig* c) { c->heads = 0; }},
      {"heads", [](ModelConfig* c) { c->heads = 3; }},
      {"heads",
       [](ModelConfig* c) {
         c->heads = 65;
         c->d_k = 1;
       }},
      {"dK", [](ModelConfig* c) { c->d_k = -1; }},
      {"dK", [](ModelConfig* c) { c->d_k = 512; }},
      {"layers", [](ModelConfig* c) { c->layers = 7; }},
      {"dFF", [](ModelConfig* c) { c->d_ff = -2; }},
      {"initStd", [](ModelConfig* c) { c->init_std = 0.0; }},
      {"positionalEncoding", [](ModelConfig* c) { c->positional = PositionalKind(7); }},
  };
  for (const auto& [field, spoil] : cases) {
    ModelConfig config;
    spoil(&config);
    const Status status = ValidateModelConfig(config);
    EXPECT_FALSE(status.ok()) << field;
    EXPECT_EQ(status.field(), field) << status.message();
    EXPECT_NE(status.message().find(field), std::string::npos) << status.message();
  }
}

TEST(TrainConfig, ResolvedSizes) {
  ModelConfig config;
  config.d_model = 48;
  config.heads = 3;
  EXPECT_EQ(config.ResolvedDK(), 16);
  EXPECT_EQ(config.ProjectionWidth(), 48);
  EXPECT_EQ(config.ResolvedDFF(), 192);
  config.d_k = 5;
  config.heads = 5;
  EXPECT_TRUE(ValidateModelConfig(config).ok());
  EXPECT_EQ(config.ProjectionWidth(), 25);
}

}  // namespace
}  // namespace attention::train
