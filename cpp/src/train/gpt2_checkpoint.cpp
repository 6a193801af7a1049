#include "attention/train/gpt2_checkpoint.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attention/train/parameters.hpp"
#include "attention/train/safetensors.hpp"
#include "format.hpp"
#include "json_value.hpp"

namespace attention::train {
namespace {

Status Invalid(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kInvalidArgument, field, message);
}

// config.json's sizes and where they go; the engine's field names map back to these in errors.
struct SizeKey {
  const char* key;
  int ModelConfig::*member;
  const char* engine_field;  // ValidateModelConfig's name for it
};
constexpr SizeKey kSizeKeys[] = {
    {"vocab_size", &ModelConfig::vocab_size, "vocabSize"},
    {"n_positions", &ModelConfig::context_length, "contextLength"},
    {"n_embd", &ModelConfig::d_model, "dModel"},
    {"n_layer", &ModelConfig::layers, "layers"},
    {"n_head", &ModelConfig::heads, "heads"},
};

Status ReadSize(const JsonValue& json, const char* key, bool required, int* out) {
  const std::string field = std::string("config.") + key;
  const JsonValue* value = json.Get(key);
  if (value == nullptr || value->kind == JsonValue::Kind::kNull) {
    return required ? Invalid(field, field + " is missing; a GPT-2 config.json has it") : Status();
  }
  if (value->kind != JsonValue::Kind::kNumber || std::floor(value->number) != value->number ||
      value->number < 1 || value->number > 2147483647.0) {
    return Invalid(field, field + " must be a whole number from 1 to 2147483647");
  }
  *out = static_cast<int>(value->number);
  return Status::Ok();
}

// A string key that must have one value (absent: GPT2Config's default, which is that value).
Status ExpectString(const JsonValue& json, const char* key, const char* wanted, const char* why,
                    bool required = false) {
  const std::string field = std::string("config.") + key;
  const JsonValue* value = json.Get(key);
  if (value == nullptr && !required) return Status::Ok();
  if (value == nullptr || value->kind != JsonValue::Kind::kString || value->text != wanted) {
    const std::string shown = value == nullptr ? "missing"
                              : value->kind == JsonValue::Kind::kString
                                  ? "\"" + value->text + "\""
                                  : std::string(value->KindName());
    return Invalid(field, field + " (" + shown + ") must be \"" + wanted + "\": " + why);
  }
  return Status::Ok();
}

Status ExpectBool(const JsonValue& json, const char* key, bool wanted, const char* why) {
  const std::string field = std::string("config.") + key;
  const JsonValue* value = json.Get(key);
  if (value == nullptr) return Status::Ok();  // GPT2Config's default is the wanted value
  if (value->kind != JsonValue::Kind::kBool || value->boolean != wanted) {
    return Invalid(field, field + " must be " + (wanted ? "true" : "false") + ": " + why);
  }
  return Status::Ok();
}

// Parameters of a GPT-2 of these sizes, in double so that a forged config.json cannot overflow.
double ParameterCountOf(double v, double t, double c, double layers, double f) {
  const double block = 4 * c + c * 3 * c + 3 * c + c * c + c + c * f + f + f * c + c;
  return v * c + t * c + layers * block + 2 * c;
}

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

// One row per checkpoint tensor: its name (after "h.<l>." in a block), the engine tensor it
// fills, and its shape in the config's sizes (rows kOne: a 1-D tensor). c_attn fills three:
// its thirds of columns go to the engine's <prefix>Q, <prefix>K and <prefix>V.
enum class Dim { kOne, kV, kT, kC, k3C, kF };
struct TensorRow {
  const char* checkpoint;
  const char* engine;
  Dim rows, cols;
};
constexpr TensorRow kEmbeddingRows[] = {{"wte.weight", "tokenEmbedding", Dim::kV, Dim::kC},
                                        {"wpe.weight", "positionEmbedding", Dim::kT, Dim::kC}};
constexpr TensorRow kBlockRows[] = {
    {"ln_1.weight", "ln1Gain", Dim::kOne, Dim::kC}, {"ln_1.bias", "ln1Bias", Dim::kOne, Dim::kC},
    {"attn.c_attn.weight", "w", Dim::kC, Dim::k3C},  // wQ | wK | wV
    {"attn.c_attn.bias", "b", Dim::kOne, Dim::k3C},  // bQ | bK | bV
    {"attn.c_proj.weight", "wO", Dim::kC, Dim::kC}, {"attn.c_proj.bias", "bO", Dim::kOne, Dim::kC},
    {"ln_2.weight", "ln2Gain", Dim::kOne, Dim::kC}, {"ln_2.bias", "ln2Bias", Dim::kOne, Dim::kC},
    {"mlp.c_fc.weight", "w1", Dim::kC, Dim::kF},    {"mlp.c_fc.bias", "b1", Dim::kOne, Dim::kF},
    {"mlp.c_proj.weight", "w2", Dim::kF, Dim::kC},  {"mlp.c_proj.bias", "b2", Dim::kOne, Dim::kC},
};
constexpr TensorRow kFinalRows[] = {{"ln_f.weight", "lnFinalGain", Dim::kOne, Dim::kC},
                                    {"ln_f.bias", "lnFinalBias", Dim::kOne, Dim::kC}};

// One tensor a GPT-2 of the config has.
struct Source {
  std::string name;    // without the prefix, e.g. "h.1.attn.c_attn.weight"
  std::string engine;  // e.g. "layers.1.w" (c_attn: Q, K, V appended), "tokenEmbedding"
  std::vector<int64_t> shape;
};

// Every tensor a GPT-2 of `c` has, in the engine's layout order.
std::vector<Source> ExpectedTensors(const ModelConfig& c) {
  auto size = [&c](Dim dim) -> int64_t {
    switch (dim) {
      case Dim::kV:
        return c.vocab_size;
      case Dim::kT:
        return c.context_length;
      case Dim::kC:
        return c.d_model;
      case Dim::k3C:
        return 3 * int64_t{c.d_model};
      case Dim::kF:
        return c.ResolvedDFF();
      case Dim::kOne:
        break;
    }
    return 1;
  };
  std::vector<Source> out;
  auto add = [&](const TensorRow& row, const std::string& name, const std::string& engine) {
    std::vector<int64_t> shape = {size(row.cols)};
    if (row.rows != Dim::kOne) shape.insert(shape.begin(), size(row.rows));
    out.push_back({name + row.checkpoint, engine + row.engine, std::move(shape)});
  };
  for (const TensorRow& row : kEmbeddingRows) add(row, "", "");
  for (int l = 0; l < c.layers; ++l) {
    const std::string layer = std::to_string(l);
    for (const TensorRow& row : kBlockRows) add(row, "h." + layer + ".", "layers." + layer + ".");
  }
  for (const TensorRow& row : kFinalRows) add(row, "", "");
  return out;
}

// h.<l>.attn.bias and h.<l>.attn.masked_bias of a layer that exists: causal-mask buffers.
bool IsMaskBuffer(const std::string& name, int layers) {
  if (name.rfind("h.", 0) != 0) return false;
  size_t at = 2;
  int layer = 0;
  while (at < name.size() && name[at] >= '0' && name[at] <= '9' && layer < layers) {
    layer = layer * 10 + (name[at++] - '0');
  }
  if (at == 2 || layer >= layers || (name[2] == '0' && at > 3)) return false;
  const std::string rest = name.substr(at);
  return rest == ".attn.bias" || rest == ".attn.masked_bias";
}

}  // namespace

Status Gpt2ConfigFromJson(std::string_view config_json, ModelConfig* config) {
  JsonValue json;
  Status status = ParseJson(config_json, "config", &json);
  if (!status.ok()) return status;
  if (json.kind != JsonValue::Kind::kObject) {
    return Invalid("config", std::string("config must be a JSON object; it is ") + json.KindName());
  }
  if (!(status = ExpectString(json, "model_type", "gpt2", "this reader knows GPT-2 checkpoints",
                              /*required=*/true))
           .ok() ||
      !(status = ExpectString(json, "activation_function", "gelu_new",
                              "the engine's GELU is the tanh approximation"))
           .ok() ||
      !(status = ExpectBool(json, "scale_attn_weights", true,
                            "the engine divides every layer's scores by √dK"))
           .ok() ||
      !(status = ExpectBool(json, "scale_attn_by_inverse_layer_idx", false,
                            "the engine does not scale scores by the layer's depth"))
           .ok() ||
      !(status = ExpectBool(json, "add_cross_attention", false,
                            "the engine's blocks have no cross-attention"))
           .ok()) {
    return status;
  }
  // (reorder_and_upcast_attn only changes where float16 rounds; the engine computes in float32,
  // where both orders are the same computation, so either value is read.)
  if (const JsonValue* eps = json.Get("layer_norm_epsilon");
      eps != nullptr && (eps->kind != JsonValue::Kind::kNumber || eps->number != 1e-5)) {
    return Invalid("config.layer_norm_epsilon",
                   "config.layer_norm_epsilon must be 1e-5: the engine's LayerNorm adds 1e-5");
  }
  ModelConfig result;
  for (const SizeKey& key : kSizeKeys) {
    // Old configs spell the context n_ctx.
    const bool ctx = key.member == &ModelConfig::context_length &&
                     json.Get("n_positions") == nullptr && json.Get("n_ctx") != nullptr;
    if (!(status = ReadSize(json, ctx ? "n_ctx" : key.key, true, &(result.*key.member))).ok()) {
      return status;
    }
  }
  result.d_ff = 0;
  if (!(status = ReadSize(json, "n_inner", false, &result.d_ff)).ok()) return status;
  const double count =
      ParameterCountOf(result.vocab_size, result.context_length, result.d_model, result.layers,
                       result.d_ff > 0 ? result.d_ff : 4.0 * result.d_model);
  if (count > static_cast<double>(ModelLimits::kMaxParameters)) {
    return Status(
        ErrorCode::kLimitExceeded, "config",
        Format("config.json describes a model of %.0f parameters; the engine holds at "
               "most %lld (GPT-2 small's 124,439,808 fit; vocabulary ≤ %d, context ≤ "
               "%d, width ≤ %d, ≤ %d layers)",
               count, static_cast<long long>(ModelLimits::kMaxParameters), ModelLimits::kMaxVocab,
               ModelLimits::kMaxContext, ModelLimits::kMaxWidth, ModelLimits::kMaxLayers));
  }
  result.d_k = 0;
  result.causal = result.scale = result.residual = true;
  result.attention_only = false;
  result.tied_embeddings = true;
  result.positional = PositionalKind::kLearned;
  if (const JsonValue* range = json.Get("initializer_range");
      range != nullptr && range->kind == JsonValue::Kind::kNumber && range->number > 0 &&
      range->number <= 1) {
    result.init_std = range->number;
  }
  status = ValidateModelConfig(result);
  if (!status.ok()) {
    // The engine's field names, said in config.json's words.
    std::string field = status.field(), key = "config";
    for (const SizeKey& k : kSizeKeys) {
      if (field == k.engine_field) key = std::string("config.") + k.key;
    }
    if (field == "dFF") key = "config.n_inner";
    return Status(status.code(), key, key + ": " + status.message());
  }
  *config = result;
  return Status::Ok();
}

namespace {

// The model of an opened checkpoint: every name and shape checked, then the weights read.
Status ReadCheckpoint(const ModelConfig& config, const SafetensorsFile& file,
                      std::unique_ptr<Model<float>>* model) {
  Status status;

  // All names prefixed "transformer." (GPT2LMHeadModel's saves) or none (the hub's).
  const std::string prefix = file.Find("transformer.wte.weight") ? "transformer." : "";
  const std::vector<Source> expected = ExpectedTensors(config);
  std::vector<const SafetensorsEntry*> found(expected.size(), nullptr);
  const SafetensorsEntry* lm_head = nullptr;
  for (const SafetensorsEntry& entry : file.tensors()) {
    const std::string field = "safetensors.tensors." + entry.name;
    if (entry.name == "lm_head.weight") {
      lm_head = &entry;
      continue;
    }
    const bool prefixed = entry.name.rfind(prefix, 0) == 0;
    const std::string bare = prefixed ? entry.name.substr(prefix.size()) : entry.name;
    if (prefixed && IsMaskBuffer(bare, config.layers)) continue;
    auto at = std::find_if(expected.begin(), expected.end(),
                           [&](const Source& s) { return prefixed && s.name == bare; });
    if (at == expected.end()) {
      return Invalid(field, Format("%s is not a tensor of a GPT-2 of %d layers (names like "
                                   "%sh.0.attn.c_attn.weight; lm_head.weight if tied)",
                                   field.c_str(), config.layers, prefix.c_str()));
    }
    if (entry.shape != at->shape) {
      return Status(ErrorCode::kShapeMismatch, field,
                    field + " has shape " + ShapeText(entry.shape) + "; config.json needs " +
                        ShapeText(at->shape));
    }
    found[static_cast<size_t>(at - expected.begin())] = &entry;
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    if (found[i] == nullptr) {
      return Invalid("safetensors.tensors", "the checkpoint lacks " + prefix + expected[i].name +
                                                ", which its config.json (" +
                                                std::to_string(config.layers) + " layers) needs");
    }
  }
  const std::vector<int64_t> embedding_shape = {config.vocab_size, config.d_model};
  if (lm_head != nullptr && lm_head->shape != embedding_shape) {
    return Status(ErrorCode::kShapeMismatch, "safetensors.tensors.lm_head.weight",
                  "safetensors.tensors.lm_head.weight has shape " + ShapeText(lm_head->shape) +
                      "; config.json needs " + ShapeText(embedding_shape));
  }

  auto made = std::make_unique<Model<float>>(config);
  const int64_t d = config.d_model;
  auto storage = [&](const std::string& engine) {
    return made->parameters() + made->FindTensor(engine)->offset;
  };
  // Each tensor is widened straight into the model's storage: no copy of a whole tensor.
  for (size_t i = 0; i < expected.size(); ++i) {
    const Source& source = expected[i];
    const SafetensorsEntry& entry = *found[i];
    const uint64_t width = static_cast<uint64_t>(source.shape.back());
    const uint64_t rows = entry.elements / width;
    if (source.name.find("attn.c_attn.") == std::string::npos) {
      if (!(status = file.ReadBlock(entry, 0, rows, 0, width, storage(source.engine))).ok()) {
        return status;
      }
      continue;
    }
    // In c_attn's [C, 3C], Q, K and V are the thirds of columns; head h owns columns
    // h·dK … (h+1)·dK − 1 of each, as in the engine's W_Q, W_K, W_V. Row by row, so that a
    // non-finite value is reported at its first element, as Read would.
    float* q = storage(source.engine + "Q");
    float* k = storage(source.engine + "K");
    float* v = storage(source.engine + "V");
    for (uint64_t r = 0; r < rows; ++r) {
      if (!(status = file.ReadBlock(entry, r, 1, 0, d, q + r * d)).ok() ||
          !(status = file.ReadBlock(entry, r, 1, d, d, k + r * d)).ok() ||
          !(status = file.ReadBlock(entry, r, 1, 2 * d, d, v + r * d)).ok()) {
        return status;
      }
    }
  }
  if (lm_head != nullptr) {
    // Compared a row at a time: the output layer is as large as the embedding.
    const float* wte = storage("tokenEmbedding");
    std::vector<float> row(static_cast<size_t>(d));
    for (int64_t r = 0; r < config.vocab_size; ++r) {
      if (!(status = file.ReadBlock(*lm_head, r, 1, 0, d, row.data())).ok()) return status;
      for (int64_t c = 0; c < d; ++c) {
        if (row[c] != wte[r * d + c]) {
          return Invalid(
              "safetensors.tensors.lm_head.weight",
              Format("safetensors.tensors.lm_head.weight differs from %swte.weight at "
                     "element %lld (%g, %g): the engine reads GPT-2 with its output "
                     "layer tied to the token embedding",
                     prefix.c_str(), static_cast<long long>(r * d + c), row[c], wte[r * d + c]));
        }
      }
    }
  }
  *model = std::move(made);
  return Status::Ok();
}

}  // namespace

Status LoadGpt2Checkpoint(std::string_view config_json, const uint8_t* safetensors, size_t size,
                          std::unique_ptr<Model<float>>* model) {
  ModelConfig config;
  Status status = Gpt2ConfigFromJson(config_json, &config);
  if (!status.ok()) return status;
  SafetensorsFile file;
  if (!(status = SafetensorsFile::Open(safetensors, size, &file)).ok()) return status;
  return ReadCheckpoint(config, file, model);
}

Status LoadGpt2CheckpointStreamed(std::string_view config_json, uint64_t size,
                                  SafetensorsFile::ByteSource source,
                                  std::unique_ptr<Model<float>>* model) {
  ModelConfig config;
  Status status = Gpt2ConfigFromJson(config_json, &config);
  if (!status.ok()) return status;
  SafetensorsFile file;
  if (!(status = SafetensorsFile::OpenStreamed(size, std::move(source), &file)).ok()) {
    return status;
  }
  return ReadCheckpoint(config, file, model);
}

}  // namespace attention::train
