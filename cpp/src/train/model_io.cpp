#include "attention/train/model_io.hpp"

#include <algorithm>

#include "attention/train/parameters.hpp"
#include "format.hpp"

namespace attention::train {
namespace {

constexpr const char* kFormatKey = "format";
constexpr const char* kFormatName = "attention-explorer model";

// One row per ModelConfig field: its JSON key and where it lives.
struct IntField {
  const char* key;
  int ModelConfig::*member;
};
constexpr IntField kIntFields[] = {
    {"vocabSize", &ModelConfig::vocab_size},
    {"contextLength", &ModelConfig::context_length},
    {"dModel", &ModelConfig::d_model},
    {"heads", &ModelConfig::heads},
    {"dK", &ModelConfig::d_k},
    {"layers", &ModelConfig::layers},
    {"dFF", &ModelConfig::d_ff},
};
struct BoolField {
  const char* key;
  bool ModelConfig::*member;
};
constexpr BoolField kBoolFields[] = {
    {"causal", &ModelConfig::causal},
    {"scale", &ModelConfig::scale},
    {"residual", &ModelConfig::residual},
    {"attentionOnly", &ModelConfig::attention_only},
    {"tiedEmbeddings", &ModelConfig::tied_embeddings},
};

Status Prefixed(const Status& status) {
  const std::string field = "model.config." + status.field();
  return Status(status.code(), field, "model.config." + status.message());
}

}  // namespace

FlatJson ModelConfigJson(const ModelConfig& config) {
  FlatJson json;
  json.SetString(kFormatKey, kFormatName);
  for (const IntField& f : kIntFields) json.SetNumber(f.key, config.*f.member);
  for (const BoolField& f : kBoolFields) json.SetBool(f.key, config.*f.member);
  json.SetString("positionalEncoding", PositionalKindName(config.positional));
  json.SetNumber("initStd", config.init_std);
  return json;
}

Status ModelConfigFromJson(const FlatJson& json, ModelConfig* config) {
  ModelConfig result;
  std::string format;
  Status status = json.GetString(kFormatKey, &format);
  if (status.ok() && format != kFormatName) {
    return Status(ErrorCode::kInvalidArgument, "model.config.format",
                  "model.config.format (\"" + format + "\") must be \"" + kFormatName + "\"");
  }
  for (const IntField& f : kIntFields) {
    if (status.ok()) status = json.GetInt(f.key, &(result.*f.member));
  }
  for (const BoolField& f : kBoolFields) {
    if (status.ok()) status = json.GetBool(f.key, &(result.*f.member));
  }
  std::string positional;
  if (status.ok()) status = json.GetString("positionalEncoding", &positional);
  if (status.ok()) status = json.GetNumber("initStd", &result.init_std);
  if (!status.ok()) return status;
  if (positional == "learned" || positional == "sinusoidal") {
    result.positional =
        positional == "learned" ? PositionalKind::kLearned : PositionalKind::kSinusoidal;
  } else {
    return Status(ErrorCode::kInvalidArgument, "model.config.positionalEncoding",
                  "model.config.positionalEncoding (\"" + positional +
                      "\") must be \"sinusoidal\" or \"learned\"");
  }
  status = ValidateModelConfig(result);
  if (!status.ok()) return Prefixed(status);
  *config = result;
  return Status::Ok();
}

Status SaveModel(const Model<float>& model, const std::vector<std::string>& vocabulary,
                 const FlatJson& extra, TensorType stored_as, std::vector<uint8_t>* bytes) {
  bytes->clear();
  const ModelConfig& config = model.config();
  if (static_cast<int>(vocabulary.size()) != config.vocab_size) {
    return Status(ErrorCode::kShapeMismatch, "vocabulary",
                  Format("vocabulary has %zu symbols; the model's vocabSize is %d",
                         vocabulary.size(), config.vocab_size));
  }
  FlatJson json = ModelConfigJson(config);
  for (const auto& [key, value] : extra.values()) {
    if (json.Has(key)) {
      return Status(ErrorCode::kInvalidArgument, "extra." + key,
                    "extra." + key + " is a key of the model's own configuration");
    }
    switch (value.kind) {
      case FlatJson::Value::Kind::kNumber:
        json.SetNumber(key, value.number);
        break;
      case FlatJson::Value::Kind::kBool:
        json.SetBool(key, value.boolean);
        break;
      case FlatJson::Value::Kind::kString:
        json.SetString(key, value.text);
        break;
    }
  }
  ModelFile file;
  file.config_json = json.Write();
  file.vocabulary = vocabulary;
  for (const TensorInfo& info : model.layout()) {
    const float* data = model.parameters() + info.offset;
    file.tensors.push_back({info.name,
                            {info.rows, info.cols},
                            std::vector<float>(data, data + info.size()),
                            stored_as});
  }
  return WriteModelFile(file, bytes);
}

uint64_t MaxModelFileBytes() {
  ModelConfig largest;
  largest.vocab_size = ModelLimits::kMaxVocab;
  largest.context_length = ModelLimits::kMaxContext;
  largest.d_model = ModelLimits::kMaxWidth;
  largest.layers = ModelLimits::kMaxLayers;
  largest.heads = 1;  // P = heads · dK = kMaxWidth, however it is split
  largest.d_ff = 4 * ModelLimits::kMaxWidth;
  largest.positional = PositionalKind::kLearned;
  largest.tied_embeddings = false;
  std::vector<TensorExtent> tensors;
  for (const TensorInfo& info : ParameterLayout(largest)) {
    tensors.push_back({info.name.size(), 2, info.size()});
  }
  return LargestModelFileBytes(ModelLimits::kMaxVocab, tensors);
}

Status LoadModel(const uint8_t* data, size_t size, LoadedModel* loaded) {
  ModelFile file;
  Status status = ReadModelFile(data, size, &file);
  if (!status.ok()) return status;
  FlatJson json;
  if (!(status = FlatJson::Parse(file.config_json, "model.config", &json)).ok()) return status;
  ModelConfig config;
  if (!(status = ModelConfigFromJson(json, &config)).ok()) return status;
  if (static_cast<int>(file.vocabulary.size()) != config.vocab_size) {
    return Status(ErrorCode::kShapeMismatch, "model.vocabulary",
                  Format("model.vocabulary has %zu symbols; model.config.vocabSize is %d",
                         file.vocabulary.size(), config.vocab_size));
  }
  auto model = std::make_unique<Model<float>>(config);
  for (const TensorInfo& info : model->layout()) {
    const NamedTensor* tensor = nullptr;
    if (!(status = ExpectTensor(file, info.name, {info.rows, info.cols}, &tensor)).ok()) {
      return status;
    }
    std::copy(tensor->data.begin(), tensor->data.end(), model->parameters() + info.offset);
  }
  if (file.tensors.size() != model->layout().size()) {
    for (size_t i = 0; i < file.tensors.size(); ++i) {
      if (model->FindTensor(file.tensors[i].name) == nullptr) {
        const std::string field = Format("model.tensors[%zu]", i);
        return Status(ErrorCode::kInvalidArgument, field,
                      field + " (\"" + file.tensors[i].name +
                          "\") is not a tensor of a model of this configuration");
      }
    }
  }
  loaded->model = std::move(model);
  loaded->vocabulary = std::move(file.vocabulary);
  loaded->config = std::move(json);
  return Status::Ok();
}

}  // namespace attention::train
