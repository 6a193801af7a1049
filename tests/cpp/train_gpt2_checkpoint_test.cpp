// GPT-2 checkpoints (attention/train/gpt2_checkpoint.hpp) against GPT-2's published forward
// pass in NumPy (tests/reference/gpt2_reference.py): every layer's attention weights per head
// and the logits, for three name layouts × F32, F16, BF16 and for a checkpoint transformers
// wrote; then every config.json and checkpoint the engine must refuse, each by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "attention/train/gpt2_checkpoint.hpp"
#include "attention/train/model_file.hpp"
#include "attention/train/model_trace.hpp"
#include "fixtures.hpp"
#include "safetensors_bytes.hpp"

namespace attention::train {
namespace {

using testing::F32Bytes;
using testing::RawTensor;
using testing::SafetensorsOf;

std::string FixturePath(const std::string& name) {
  return std::string(ATTENTION_FIXTURE_DIR) + "/" + name;
}

Status Load(const std::string& config, const std::vector<uint8_t>& bytes,
            std::unique_ptr<Model<float>>* model) {
  return LoadGpt2Checkpoint(config, bytes.data(), bytes.size(), model);
}

// The largest normwise relative errors of one checkpoint against its expected.json.
struct Errors {
  double attention = 0.0;
  double logits = 0.0;
};

Errors CompareWithReference(const std::string& folder, const std::string& expected_file) {
  std::vector<uint8_t> config, weights;
  EXPECT_TRUE(ReadFileBytes(FixturePath(folder + "/config.json"), &config).ok());
  EXPECT_TRUE(ReadFileBytes(FixturePath(folder + "/model.safetensors"), &weights).ok());
  std::unique_ptr<Model<float>> model;
  const Status status = Load(std::string(config.begin(), config.end()), weights, &model);
  EXPECT_TRUE(status.ok()) << folder << ": " << status.message();
  if (!status.ok()) return {1.0, 1.0};
  const nlohmann::json expected = testing::LoadJson(expected_file);
  const std::vector<int> tokens = expected.at("tokens").get<std::vector<int>>();
  ModelTrace trace;
  EXPECT_TRUE(TraceModel(model.get(), tokens, {}, &trace).ok());
  Errors errors;
  const auto& layers = expected.at("attention");
  EXPECT_EQ(trace.layers(), static_cast<int>(layers.size()));
  for (int l = 0; l < trace.layers(); ++l) {
    for (size_t h = 0; h < layers[l].size(); ++h) {
      Matrix weights_lh;
      EXPECT_TRUE(trace.Copy("weights", l, static_cast<int>(h), &weights_lh).ok());
      errors.attention =
          std::max(errors.attention,
                   testing::RelativeError(weights_lh, testing::ReadReference(layers[l][h])));
    }
  }
  Matrix logits;
  EXPECT_TRUE(trace.Copy("logits", -1, 0, &logits).ok());
  errors.logits = testing::RelativeError(logits, testing::ReadReference(expected.at("logits")));
  return errors;
}

class TrainGpt2Reference : public ::testing::TestWithParam<std::string> {};

TEST_P(TrainGpt2Reference, MatchesNumpyInEveryLayersWeightsAndTheLogits) {
  const std::string folder = "gpt2/" + GetParam();
  const Errors errors = CompareWithReference(folder, folder + "/expected.json");
  std::printf("  %-24s largest relative error: attention weights %.2e, logits %.2e\n",
              GetParam().c_str(), errors.attention, errors.logits);
  EXPECT_LT(errors.attention, testing::kTolerance);
  EXPECT_LT(errors.logits, testing::kTolerance);
}

INSTANTIATE_TEST_SUITE_P(LayoutsAndDtypes, TrainGpt2Reference,
                         ::testing::Values("bare_f32", "prefixed_f32", "prefixed_lm_head_f32",
                                           "bare_f16", "prefixed_f16", "prefixed_lm_head_f16",
                                           "bare_bf16", "prefixed_bf16", "prefixed_lm_head_bf16"));

TEST(TrainGpt2Checkpoint, OpensTheCheckpointTransformersWroteAndMatchesNumpy) {
  const Errors errors = CompareWithReference("hf-tiny-gpt2", "gpt2/hf-tiny-gpt2.json");
  std::printf(
      "  hf-tiny-gpt2             largest relative error: attention weights %.2e, "
      "logits %.2e\n",
      errors.attention, errors.logits);
  EXPECT_LT(errors.attention, testing::kTolerance);
  EXPECT_LT(errors.logits, testing::kTolerance);
}

// ---- Refusals, each built here from a small well-formed GPT-2 ----

// V 5, T 4, C 4, one layer of 2 heads, dFF 16.
std::map<std::string, std::string> TinyConfigKeys() {
  return {{"model_type", "\"gpt2\""},
          {"vocab_size", "5"},
          {"n_positions", "4"},
          {"n_embd", "4"},
          {"n_layer", "1"},
          {"n_head", "2"},
          {"n_inner", "null"},
          {"activation_function", "\"gelu_new\""},
          {"layer_norm_epsilon", "1e-05"},
          {"scale_attn_weights", "true"},
          {"architectures", "[\"GPT2LMHeadModel\"]"},
          {"task_specific_params", "{\"text-generation\": {\"max_length\": 50}}"}};
}

std::string ConfigText(const std::map<std::string, std::string>& keys) {
  std::string out = "{";
  for (const auto& [key, value] : keys) {
    if (out.size() > 1) out += ", ";
    out += "\"" + key + "\": " + value;
  }
  return out + "}";
}

std::string ConfigWith(const std::string& key, const std::string& value) {
  std::map<std::string, std::string> keys = TinyConfigKeys();
  if (value.empty()) {
    keys.erase(key);
  } else {
    keys[key] = value;
  }
  return ConfigText(keys);
}

RawTensor Tensor(const std::string& name, std::vector<int64_t> shape) {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  std::vector<float> values(n);
  for (size_t i = 0; i < n; ++i)
    values[i] = 0.01f * static_cast<float>(static_cast<int>(i * 7 % 13) - 6);
  return {name, "F32", std::move(shape), F32Bytes(values)};
}

std::vector<RawTensor> TinyTensors(const std::string& prefix = "") {
  std::vector<RawTensor> t = {Tensor(prefix + "wte.weight", {5, 4}),
                              Tensor(prefix + "wpe.weight", {4, 4})};
  for (const auto& [name, shape] :
       std::vector<std::pair<std::string, std::vector<int64_t>>>{{"ln_1.weight", {4}},
                                                                 {"ln_1.bias", {4}},
                                                                 {"attn.c_attn.weight", {4, 12}},
                                                                 {"attn.c_attn.bias", {12}},
                                                                 {"attn.c_proj.weight", {4, 4}},
                                                                 {"attn.c_proj.bias", {4}},
                                                                 {"ln_2.weight", {4}},
                                                                 {"ln_2.bias", {4}},
                                                                 {"mlp.c_fc.weight", {4, 16}},
                                                                 {"mlp.c_fc.bias", {16}},
                                                                 {"mlp.c_proj.weight", {16, 4}},
                                                                 {"mlp.c_proj.bias", {4}}}) {
    t.push_back(Tensor(prefix + "h.0." + name, shape));
  }
  t.push_back(Tensor(prefix + "ln_f.weight", {4}));
  t.push_back(Tensor(prefix + "ln_f.bias", {4}));
  return t;
}

void ExpectRefused(const Status& status, ErrorCode code, const std::string& field,
                   const std::string& says) {
  EXPECT_EQ(ErrorCodeName(status.code()), std::string(ErrorCodeName(code))) << status.message();
  EXPECT_EQ(status.field(), field) << status.message();
  EXPECT_NE(status.message().find(says), std::string::npos)
      << "\"" << status.message() << "\" does not say \"" << says << "\"";
}

Status LoadTiny(const std::string& config, const std::vector<RawTensor>& tensors) {
  std::unique_ptr<Model<float>> model;
  return Load(config, SafetensorsOf(tensors), &model);
}

TEST(TrainGpt2Checkpoint, TheTinyCheckpointOpensInEveryLayout) {
  const std::string config = ConfigText(TinyConfigKeys());
  EXPECT_TRUE(LoadTiny(config, TinyTensors()).ok());
  EXPECT_TRUE(LoadTiny(config, TinyTensors("transformer.")).ok());
  std::vector<RawTensor> tied = TinyTensors("transformer.");
  tied.push_back(tied[0]);
  tied.back().name = "lm_head.weight";
  EXPECT_TRUE(LoadTiny(config, tied).ok());
  std::vector<RawTensor> masks = TinyTensors();
  masks.push_back({"h.0.attn.bias", "BOOL", {1, 1, 4, 4}, std::vector<uint8_t>(16, 1)});
  masks.push_back({"h.0.attn.masked_bias", "F32", {}, F32Bytes({-1e4f})});
  EXPECT_TRUE(LoadTiny(config, masks).ok());  // skipped unread, whatever their dtype
  EXPECT_TRUE(LoadTiny(ConfigWith("reorder_and_upcast_attn", "true"), TinyTensors()).ok());
  // Old configs give the context as n_ctx.
  std::map<std::string, std::string> old = TinyConfigKeys();
  old.erase("n_positions");
  old["n_ctx"] = "4";
  EXPECT_TRUE(LoadTiny(ConfigText(old), TinyTensors()).ok());
}

// A checkpoint is read to be traced: it holds its weights and no gradients (half its memory)
// until something trains it, and training then starts from zero gradients.
TEST(TrainGpt2Checkpoint, ALoadedCheckpointHoldsNoGradientsUntilTrained) {
  std::unique_ptr<Model<float>> model;
  ASSERT_TRUE(Load(ConfigText(TinyConfigKeys()), SafetensorsOf(TinyTensors()), &model).ok());
  EXPECT_FALSE(model->has_gradients());
  EXPECT_EQ(static_cast<const Model<float>&>(*model).gradients(), nullptr);
  ModelTrace trace;
  ASSERT_TRUE(TraceModel(model.get(), {1, 2, 3}, {}, &trace).ok());
  EXPECT_FALSE(model->has_gradients()) << "a trace needs no gradients";
  EXPECT_EQ(model->memory().gradients, 0);
  Batch batch;
  batch.size = 1;
  batch.length = 3;
  batch.tokens = {1, 2, 3};
  batch.targets = {2, 3, 4};
  ASSERT_TRUE(model->Forward(batch).ok());
  ASSERT_TRUE(model->Backward().ok());
  ASSERT_TRUE(model->has_gradients());
  EXPECT_EQ(model->memory().gradients,
            static_cast<int64_t>(model->parameter_count() * sizeof(float)));
  double sum = 0;
  for (size_t i = 0; i < model->parameter_count(); ++i) sum += std::abs(model->gradients()[i]);
  EXPECT_GT(sum, 0.0) << "Backward wrote into the gradients it made";
}

// The binding's way: the same checkpoint fetched through a source reads the same weights, bit
// for bit, and is refused by the same names.
TEST(TrainGpt2Checkpoint, AStreamedCheckpointReadsTheSameWeights) {
  const std::string config = ConfigText(TinyConfigKeys());
  std::vector<RawTensor> tied = TinyTensors("transformer.");
  tied.push_back(tied[0]);
  tied.back().name = "lm_head.weight";
  const std::vector<uint8_t> bytes = SafetensorsOf(tied);
  auto source = [&](uint64_t offset, uint64_t count, uint8_t* out) {
    ASSERT_LE(offset + count, bytes.size());
    std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(offset), count, out);
  };
  std::unique_ptr<Model<float>> whole, streamed;
  ASSERT_TRUE(Load(config, bytes, &whole).ok());
  const Status status = LoadGpt2CheckpointStreamed(config, bytes.size(), source, &streamed);
  ASSERT_TRUE(status.ok()) << status.message();
  ASSERT_EQ(streamed->parameter_count(), whole->parameter_count());
  EXPECT_TRUE(std::equal(whole->parameters(), whole->parameters() + whole->parameter_count(),
                         streamed->parameters()));
  EXPECT_FALSE(streamed->has_gradients());
  std::vector<RawTensor> missing = TinyTensors();
  missing.pop_back();
  const std::vector<uint8_t> short_bytes = SafetensorsOf(missing);
  auto short_source = [&](uint64_t offset, uint64_t count, uint8_t* out) {
    std::copy_n(short_bytes.begin() + static_cast<std::ptrdiff_t>(offset), count, out);
  };
  ExpectRefused(LoadGpt2CheckpointStreamed(config, short_bytes.size(), short_source, &streamed),
                ErrorCode::kInvalidArgument, "safetensors.tensors", "the checkpoint lacks");
}

TEST(TrainGpt2Checkpoint, RefusesAConfigOfAnotherModelOrComputation) {
  const auto tensors = TinyTensors();
  ExpectRefused(LoadTiny(ConfigWith("model_type", "\"bert\""), tensors),
                ErrorCode::kInvalidArgument, "config.model_type",
                "config.model_type (\"bert\") must be \"gpt2\"");
  ExpectRefused(LoadTiny(ConfigWith("model_type", ""), tensors), ErrorCode::kInvalidArgument,
                "config.model_type", "(missing) must be \"gpt2\"");
  ExpectRefused(LoadTiny(ConfigWith("scale_attn_by_inverse_layer_idx", "true"), tensors),
                ErrorCode::kInvalidArgument, "config.scale_attn_by_inverse_layer_idx",
                "must be false");
  ExpectRefused(LoadTiny(ConfigWith("scale_attn_weights", "false"), tensors),
                ErrorCode::kInvalidArgument, "config.scale_attn_weights", "must be true");
  ExpectRefused(LoadTiny(ConfigWith("activation_function", "\"relu\""), tensors),
                ErrorCode::kInvalidArgument, "config.activation_function",
                "(\"relu\") must be \"gelu_new\"");
  ExpectRefused(LoadTiny(ConfigWith("layer_norm_epsilon", "1e-6"), tensors),
                ErrorCode::kInvalidArgument, "config.layer_norm_epsilon", "must be 1e-5");
  ExpectRefused(LoadTiny(ConfigWith("n_embd", ""), tensors), ErrorCode::kInvalidArgument,
                "config.n_embd", "config.n_embd is missing");
  ExpectRefused(LoadTiny(ConfigWith("n_positions", ""), tensors), ErrorCode::kInvalidArgument,
                "config.n_positions", "config.n_positions is missing");
  ExpectRefused(LoadTiny(ConfigWith("n_head", "2.5"), tensors), ErrorCode::kInvalidArgument,
                "config.n_head", "must be a whole number");
  ExpectRefused(LoadTiny("{\"model_type\": \"gpt2\",", tensors), ErrorCode::kInvalidArgument,
                "config", "at byte");
}

TEST(TrainGpt2Checkpoint, RefusesAConfigBeyondTheEnginesLimitsBeforeAllocating) {
  const auto tensors = TinyTensors();
  // About 10⁹ parameters: GPT-2 XL's shape.
  std::map<std::string, std::string> xl = TinyConfigKeys();
  xl["vocab_size"] = "50257";
  xl["n_positions"] = "1024";
  xl["n_embd"] = "1600";
  xl["n_layer"] = "48";
  xl["n_head"] = "25";
  ExpectRefused(LoadTiny(ConfigText(xl), tensors), ErrorCode::kLimitExceeded, "config",
                "config.json describes a model of 1557611200 parameters; the engine holds at most");
  ExpectRefused(LoadTiny(ConfigWith("n_layer", "1000000000"), tensors), ErrorCode::kLimitExceeded,
                "config", "parameters; the engine holds at most");
  // One layer more than GPT-2 small's 12 is refused, however small the rest.
  ExpectRefused(LoadTiny(ConfigWith("n_layer", "13"), tensors), ErrorCode::kInvalidArgument,
                "config.n_layer", "config.n_layer: layers (13) must be an integer from 1 to 12");
  ExpectRefused(LoadTiny(ConfigWith("n_head", "3"), tensors), ErrorCode::kInvalidArgument,
                "config.n_head", "must divide dModel (4)");
}

// GPT-2 small's config.json (the hub's "gpt2", sizes as published) is read within the limits:
// only the configuration is checked, nothing of its 124 M parameters is allocated.
TEST(TrainGpt2Checkpoint, ReadsGpt2SmallsConfigWithinTheLimits) {
  std::map<std::string, std::string> small = TinyConfigKeys();
  small["vocab_size"] = "50257";
  small["n_positions"] = "1024";
  small["n_ctx"] = "1024";
  small["n_embd"] = "768";
  small["n_layer"] = "12";
  small["n_head"] = "12";
  ModelConfig config;
  const Status status = Gpt2ConfigFromJson(ConfigText(small), &config);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(config.layers, 12);
  EXPECT_EQ(config.heads, 12);
  EXPECT_EQ(config.ResolvedDK(), 64);
  EXPECT_EQ(config.ResolvedDFF(), 3072);
  EXPECT_EQ(ParameterCount(ParameterLayout(config)), 124439808u);
}

TEST(TrainGpt2Checkpoint, RefusesAMissingTensor) {
  std::vector<RawTensor> tensors = TinyTensors("transformer.");
  tensors.erase(tensors.begin() + 9);  // transformer.h.0.ln_2.bias
  ExpectRefused(LoadTiny(ConfigText(TinyConfigKeys()), tensors), ErrorCode::kInvalidArgument,
                "safetensors.tensors", "the checkpoint lacks transformer.h.0.ln_2.bias");
}

TEST(TrainGpt2Checkpoint, RefusesAnUnexpectedTensor) {
  const std::string config = ConfigText(TinyConfigKeys());
  std::vector<RawTensor> tensors = TinyTensors();
  tensors.push_back(Tensor("h.1.ln_1.weight", {4}));  // a second layer config.json does not have
  ExpectRefused(LoadTiny(config, tensors), ErrorCode::kInvalidArgument,
                "safetensors.tensors.h.1.ln_1.weight", "is not a tensor of a GPT-2 of 1 layers");
  tensors = TinyTensors();
  tensors.push_back({"h.3.attn.bias", "F32", {1}, F32Bytes({1})});  // a mask of no layer
  ExpectRefused(LoadTiny(config, tensors), ErrorCode::kInvalidArgument,
                "safetensors.tensors.h.3.attn.bias", "is not a tensor");
  tensors = TinyTensors("transformer.");
  tensors[3].name = "h.0.ln_1.bias";  // one bare name among prefixed ones
  ExpectRefused(LoadTiny(config, tensors), ErrorCode::kInvalidArgument,
                "safetensors.tensors.h.0.ln_1.bias", "is not a tensor");
}

TEST(TrainGpt2Checkpoint, RefusesAShapeThatDisagreesWithTheConfigNamingBoth) {
  std::vector<RawTensor> tensors = TinyTensors();
  tensors[4] = Tensor("h.0.attn.c_attn.weight", {12, 4});  // stored [out, in]: a Linear, not Conv1D
  ExpectRefused(LoadTiny(ConfigText(TinyConfigKeys()), tensors), ErrorCode::kShapeMismatch,
                "safetensors.tensors.h.0.attn.c_attn.weight",
                "has shape [12, 4]; config.json needs [4, 12]");
}

TEST(TrainGpt2Checkpoint, RefusesAnLmHeadThatIsNotTheTokenEmbedding) {
  std::vector<RawTensor> tensors = TinyTensors("transformer.");
  RawTensor head = Tensor("lm_head.weight", {5, 4});
  head.bytes[4 * 7] ^= 0x01;  // element 7 one bit off
  tensors.push_back(head);
  ExpectRefused(LoadTiny(ConfigText(TinyConfigKeys()), tensors), ErrorCode::kInvalidArgument,
                "safetensors.tensors.lm_head.weight",
                "differs from transformer.wte.weight at element 7");
}

TEST(TrainGpt2Checkpoint, RefusesNonFiniteWeightsAndUnreadableDtypesByTensor) {
  std::vector<RawTensor> tensors = TinyTensors();
  tensors[11] = {"h.0.mlp.c_fc.bias", "F32", {16}, F32Bytes(std::vector<float>(16, 0))};
  tensors[11].bytes[4 * 3 + 3] = 0x7f;  // element 3: 0x7f000000 is finite; make it NaN
  tensors[11].bytes[4 * 3 + 2] = 0xc0;
  ExpectRefused(LoadTiny(ConfigText(TinyConfigKeys()), tensors), ErrorCode::kNonFinite,
                "safetensors.tensors.h.0.mlp.c_fc.bias", "holds NaN at element 3");
  tensors = TinyTensors();
  tensors[3] = {"h.0.ln_1.bias", "I32", {4}, std::vector<uint8_t>(16, 0)};
  ExpectRefused(LoadTiny(ConfigText(TinyConfigKeys()), tensors), ErrorCode::kInvalidArgument,
                "safetensors.tensors.h.0.ln_1.bias.dtype", "F32, F16, BF16");
}

}  // namespace
}  // namespace attention::train
