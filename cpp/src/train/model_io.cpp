#include "attention/train/model_io.hpp"

#include <algorithm>

#include "attention/train/parameters.hpp"
#include "attention/train/trainer_fields.hpp"
#include "format.hpp"

namespace attention::train {
namespace {

constexpr const char* kFormatKey = "format";
constexpr const char* kFormatName = "attention-explorer model";

// The model's keys are its two sizes (kModelSizes) and the trainer fields a model file records
// (TrainerField::in_model_file), each by its row's name, kind and allowed values.

// `row` of `config` as its key's value: a bool, an enum's name, or a number.
void SetKey(const TrainerField& row, const TrainerConfig& config, FlatJson* json) {
  const double value = row.get(config);
  if (row.kind == FieldKind::kBool) {
    json->SetBool(row.name, value != 0);
  } else if (row.kind == FieldKind::kEnum) {
    // A value outside the enum (never in a valid config) is written as no name, refused on load.
    const bool known = value >= 0 && value < static_cast<double>(row.values.size());
    json->SetString(row.name, known ? row.values[static_cast<size_t>(value)] : "");
  } else {
    json->SetNumber(row.name, value);
  }
}

// The key of `row` into `config`; missing, of another type or (an enum) not one of its names:
// an error for "model.config.<key>" (the rest of the row's checks are ValidateModelConfig's).
Status GetKey(const FlatJson& json, const TrainerField& row, TrainerConfig* config) {
  Status status;
  double value = 0;
  if (row.kind == FieldKind::kInt) {
    int number = 0;
    status = json.GetInt(row.name, &number);
    value = number;
  } else if (row.kind == FieldKind::kBool) {
    bool flag = false;
    status = json.GetBool(row.name, &flag);
    value = flag ? 1 : 0;
  } else if (row.kind == FieldKind::kNumber) {
    status = json.GetNumber(row.name, &value);
  } else {
    std::string name;
    status = json.GetString(row.name, &name);
    const auto it = std::find(row.values.begin(), row.values.end(), name);
    if (status.ok() && it == row.values.end()) {
      const std::string field = std::string("model.config.") + row.name;
      return Status(ErrorCode::kInvalidArgument, field,
                    field + " (\"" + name + "\") must be " + AllowedValues(row));
    }
    value = static_cast<double>(it - row.values.begin());
  }
  if (status.ok()) row.set(config, value);
  return status;
}

Status Prefixed(const Status& status) {
  const std::string field = "model.config." + status.field();
  return Status(status.code(), field, "model.config." + status.message());
}

}  // namespace

FlatJson ModelConfigJson(const ModelConfig& config) {
  FlatJson json;
  json.SetString(kFormatKey, kFormatName);
  for (const ModelSize& size : kModelSizes) json.SetNumber(size.key, config.*size.member);
  TrainerConfig fields;
  fields.model = config;
  for (const TrainerField& row : TrainerFields()) {
    if (row.in_model_file) SetKey(row, fields, &json);
  }
  return json;
}

Status ModelConfigFromJson(const FlatJson& json, ModelConfig* config) {
  TrainerConfig fields;
  ModelConfig& result = fields.model;
  std::string format;
  Status status = json.GetString(kFormatKey, &format);
  if (status.ok() && format != kFormatName) {
    return Status(ErrorCode::kInvalidArgument, "model.config.format",
                  "model.config.format (\"" + format + "\") must be \"" + kFormatName + "\"");
  }
  for (const ModelSize& size : kModelSizes) {
    if (status.ok()) status = json.GetInt(size.key, &(result.*size.member));
  }
  for (const TrainerField& row : TrainerFields()) {
    if (status.ok() && row.in_model_file) status = GetKey(json, row, &fields);
  }
  if (!status.ok()) return status;
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
  // The most tensors (every layer, learned positions, untied logits) with the longest names, and
  // the most parameters ValidateModelConfig lets them hold, however they are split among them.
  ModelConfig largest;
  largest.vocab_size = ModelLimits::kMaxVocab;
  largest.context_length = ModelLimits::kMaxContext;
  largest.d_model = ModelLimits::kMaxWidth;
  largest.layers = ModelLimits::kMaxLayers;
  largest.heads = 1;
  largest.positional = PositionalKind::kLearned;
  largest.tied_embeddings = false;
  std::vector<TensorExtent> tensors;
  for (const TensorInfo& info : ParameterLayout(largest)) {
    tensors.push_back({info.name.size(), 2, 0});
  }
  tensors.front().elements = static_cast<uint64_t>(ModelLimits::kMaxParameters);
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
