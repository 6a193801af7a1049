// The object JS holds for a trainable or loaded model (training.js wraps it as a Trainer or a
// Model). Errors are recorded, never thrown: after a false or null result JS reads
// errorCode/errorField/errorMessage and throws an AttentionError.
//
//   create(config)           a new model with seeded weights and its task's trainer
//   read(bytes) → build(config)   a model file: read() checks the file and returns its JSON
//                            configuration and vocabulary for JS to parse; build() makes the
//                            model that configuration describes and takes the file's tensors
#pragma once

#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "attention/status.hpp"
#include "attention/train/model_file.hpp"
#include "attention/train/trainer.hpp"
#include "model_trace.hpp"

namespace attention::bindings {

class ModelHandle {
 public:
  // A trainer for `config` (train_request.hpp). False on error.
  bool create(const emscripten::val& config);

  // Parses a model file (Uint8Array). { configJson, vocabulary: string[] } or null.
  emscripten::val read(const emscripten::val& bytes);
  // After read(): the model of the trainer configuration `config` (ReadTrainerConfig), every
  // tensor it needs taken from the file. False on error.
  bool build(const emscripten::val& config);

  // { parameterCount, vocabulary: string[], vocabSize, contextLength, sequenceLength,
  //   answerLength } (the last two for task models), or null before create/build.
  emscripten::val info() const;

  // `count` training updates: { step, loss, accuracy, gradientNorm, learningRate,
  // tokensPerSecond } or null. Task models only.
  emscripten::val step(int count);
  // The first `count` held-out examples: { examples, exactMatch, tokenAccuracy, loss } or null.
  emscripten::val evaluate(int count);

  // One sequence of token ids (Int32Array) through the model; then traceSummary/traceStep
  // (model_trace.hpp) read it until the next call that runs the model.
  bool trace(const emscripten::val& tokens);
  emscripten::val traceSummary() const { return trace_.Summary(); }
  emscripten::val traceStep(const std::string& name, int layer, int head);

  // The model file, a Uint8Array VIEW into WASM memory valid until the next call: JS copies it.
  emscripten::val save(const std::string& config_json, bool float16);

  std::string errorCode() const { return ErrorCodeName(status_.code()); }
  std::string errorField() const { return status_.field(); }
  std::string errorMessage() const { return status_.message(); }

 private:
  train::Model<float>* model();
  Status Fail(ErrorCode code, const std::string& field, const std::string& message);

  std::unique_ptr<train::Trainer> trainer_;  // the weights, the optimizer, the task's examples
  std::vector<std::string> vocabulary_;      // [V]
  train::ModelFile file_;                    // between read() and build()
  ModelTrace trace_;
  std::vector<uint8_t> saved_;
  Status status_;
};

}  // namespace attention::bindings
