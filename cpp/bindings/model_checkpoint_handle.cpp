// ModelHandle::loadCheckpoint: a Hugging Face GPT-2 checkpoint as a model of token ids
// (attention/train/gpt2_checkpoint.hpp). It is held as a loaded corpus model is, without a text
// reader: trace, layerOptions, attention and generate read ids; reading text is a tokenizer's.
#include <memory>
#include <string>
#include <vector>

#include "attention/train/gpt2_checkpoint.hpp"
#include "attention/train/model_io.hpp"
#include "model_handle.hpp"

namespace attention::bindings {

using emscripten::val;

bool ModelHandle::loadCheckpoint(const std::string& config, const val& safetensors) {
  trace_.Clear();
  trainer_.reset();
  corpus_trainer_.reset();
  corpus_text_.reset();
  corpus_model_.reset();
  corpus_reader_.reset();
  vocabulary_.clear();
  config_json_.clear();
  // The file's bytes live in WASM memory only while the model is read from them (their tensors
  // are widened straight into the model's storage), uninitialised until JS copies them in: with
  // the model's weights that is twice the file at the peak, and WASM memory never shrinks, so a
  // trace later reuses what the file held.
  const size_t size = safetensors["length"].as<size_t>();
  std::unique_ptr<uint8_t[]> bytes(new uint8_t[size]);
  val(emscripten::typed_memory_view(size, bytes.get())).call<void>("set", safetensors);
  std::unique_ptr<train::Model<float>> model;
  status_ = train::LoadGpt2Checkpoint(config, bytes.get(), size, &model);
  bytes.reset();
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
