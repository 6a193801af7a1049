// A trained model to and from a model file (model_file.hpp, docs/model-format.md): the
// configuration as flat JSON in the models' own spelling ("dModel", "attentionOnly", …), the
// vocabulary, and one float tensor [rows × cols] per row of the parameter table, by name.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attention/status.hpp"
#include "attention/train/flat_json.hpp"
#include "attention/train/model.hpp"
#include "attention/train/model_file.hpp"

namespace attention::train {

// The configuration keys of a model: its two sizes (kModelSizes) and every trainer field whose row
// says in_model_file (trainer_fields.cpp), by the row's name; and how it was made (the caller's
// `extra` keys, e.g. the task; they must not reuse a model key). Every model key is required when
// a file is read, so a model row added later needs a rule for the files saved before it (read
// its default when the key is missing) or those files stop loading: models/ has two.
FlatJson ModelConfigJson(const ModelConfig& config);
// Reads the model keys back; errors name "model.config.<key>" (missing, wrong type, or a value
// ValidateModelConfig refuses).
Status ModelConfigFromJson(const FlatJson& json, ModelConfig* config);

// `vocabulary` must have config.vocab_size symbols. `stored_as` float16 halves the file.
Status SaveModel(const Model<float>& model, const std::vector<std::string>& vocabulary,
                 const FlatJson& extra, TensorType stored_as, std::vector<uint8_t>* bytes);

struct LoadedModel {
  std::unique_ptr<Model<float>> model;
  std::vector<std::string> vocabulary;  // [V]
  FlatJson config;                      // every key, the extra ones included
};

// The largest model file LoadModel can accept (about 605 MB): ModelLimits::kMaxParameters float32
// parameters in the most tensors a model has (kMaxLayers, learned positions, untied logits) with
// kMaxVocab symbols, as LargestModelFileBytes counts them. A longer file is refused
// whatever it holds, so a reader (the CLI) need never read further.
uint64_t MaxModelFileBytes();

// Any error of ReadModelFile, then of the configuration, then "model.vocabulary" (its size is
// not vocabSize), "model.tensors…" (a missing, extra or misshapen tensor).
Status LoadModel(const uint8_t* data, size_t size, LoadedModel* loaded);

}  // namespace attention::train
