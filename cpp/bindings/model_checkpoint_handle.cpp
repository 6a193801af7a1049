// ModelHandle::loadCheckpoint: a Hugging Face GPT-2 checkpoint as a model of token ids
// (attention/train/gpt2_checkpoint.hpp). It is held as a loaded corpus model is, without a text
// reader: trace, layerOptions, attention and generate read ids; reading text is a tokenizer's.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attention/train/gpt2_checkpoint.hpp"
#include "attention/train/model_io.hpp"
#include "model_handle.hpp"

namespace attention::bindings {

using emscripten::val;

bool ModelHandle::loadCheckpoint(const std::string& config, const val& safetensors) {
  DropModel();
  vocabulary_.clear();
  config_json_.clear();
  // The file's bytes stay in JS: the reader fetches the header, then each tensor's bytes a few
  // MB at a time as it widens them into the model's storage, so WASM memory holds the weights
  // and not also the file (GPT-2 small: about 500 MB, not 1 GB).
  const double size = safetensors["length"].as<double>();
  auto source = [&safetensors](uint64_t offset, uint64_t count, uint8_t* out) {
    const val piece = safetensors.call<val>("subarray", static_cast<double>(offset),
                                            static_cast<double>(offset + count));
    val(emscripten::typed_memory_view(static_cast<size_t>(count), out)).call<void>("set", piece);
  };
  std::unique_ptr<train::Model<float>> model;
  status_ = train::LoadGpt2CheckpointStreamed(config, static_cast<uint64_t>(size), source, &model);
  if (!status_.ok()) return false;
  // Until a tokenizer names them, a token is its id.
  for (int id = 0; id < model->config().vocab_size; ++id) vocabulary_.push_back(std::to_string(id));
  // The engine's own keys (what a page reads of any model), and where the weights came from.
  train::FlatJson json = train::ModelConfigJson(model->config());
  json.SetString("source", "gpt2 checkpoint");
  config_json_ = json.Write();
  corpus_model_ = std::move(model);
  return true;
}

}  // namespace attention::bindings
