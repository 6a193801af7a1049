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
      {"layers", [](ModelConfig* c) { c->layers = 13; }},
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

// GPT-2 small as Hugging Face publishes it (config.json of "gpt2"): 12 layers of 12 heads, width
// 768, vocabulary 50,257, 1,024 learned positions, tied logits.
ModelConfig Gpt2Small() {
  ModelConfig c;
  c.vocab_size = 50257;
  c.context_length = 1024;
  c.d_model = 768;
  c.heads = 12;
  c.d_k = 0;
  c.layers = 12;
  c.d_ff = 0;
  c.positional = PositionalKind::kLearned;
  c.tied_embeddings = true;
  return c;
}

TEST(TrainConfig, Gpt2SmallIsWithinTheLimits) {
  const Status status = ValidateModelConfig(Gpt2Small());
  EXPECT_TRUE(status.ok()) << status.message();
}

// One past each limit, each from GPT-2 small's shape, refused by its name. The configuration is
// checked, never allocated.
TEST(TrainConfig, OnePastEachLimitIsRefusedByName) {
  const std::vector<std::pair<std::string, std::function<void(ModelConfig*)>>> cases = {
      {"layers", [](ModelConfig* c) { c->layers = 13; }},
      {"vocabSize", [](ModelConfig* c) { c->vocab_size = 65537; }},
      {"contextLength", [](ModelConfig* c) { c->context_length = 2049; }},
      {"dModel", [](ModelConfig* c) { c->d_model = 1025; }},
      {"heads", [](ModelConfig* c) { c->heads = 769; }},  // more heads than dModel
      {"dFF", [](ModelConfig* c) { c->d_ff = 4097; }},
      // Each size within its own limit, together past 2²⁷ parameters: 12 layers of width
      // 1,024 over 65,536 symbols, about 2.2 · 10⁸.
      {"parameters",
       [](ModelConfig* c) {
         c->vocab_size = 65536;
         c->d_model = 1024;
         c->heads = 16;
       }},
  };
  for (const auto& [field, spoil] : cases) {
    ModelConfig config = Gpt2Small();
    spoil(&config);
    const Status status = ValidateModelConfig(config);
    EXPECT_FALSE(status.ok()) << field;
    EXPECT_EQ(status.field(), field) << status.message();
  }
  // The parameter bound, exactly. GPT-2 small has 768 · V + 85,842,432 parameters (positions
  // 786,432; a block 7,087,872; the final LayerNorm 1,536): 124,439,808 at V = 50,257. At
  // V = 62,988 that is 134,217,216 ≤ 2²⁷ = 134,217,728; at 62,989 it is 134,217,984.
  ModelConfig edge = Gpt2Small();
  edge.vocab_size = 62988;
  EXPECT_TRUE(ValidateModelConfig(edge).ok());
  edge.vocab_size = 62989;
  const Status status = ValidateModelConfig(edge);
  EXPECT_EQ(status.field(), "parameters");
  EXPECT_EQ(status.code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(status.message().find("134217984 parameters; at most 134217728"), std::string::npos)
      << status.message();
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
