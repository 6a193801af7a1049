#include "train_request.hpp"

#include <string>

namespace attention::bindings {

using emscripten::val;

Status ReadModelConfig(const val& model, train::ModelConfig* config) {
  config->vocab_size = model["vocabSize"].as<int>();
  config->context_length = model["contextLength"].as<int>();
  config->d_model = model["dModel"].as<int>();
  config->heads = model["heads"].as<int>();
  config->d_k = model["dK"].as<int>();
  config->layers = model["layers"].as<int>();
  config->d_ff = model["dFF"].as<int>();
  config->causal = model["causal"].as<bool>();
  config->scale = model["scale"].as<bool>();
  config->residual = model["residual"].as<bool>();
  config->attention_only = model["attentionOnly"].as<bool>();
  config->tied_embeddings = model["tiedEmbeddings"].as<bool>();
  config->init_std = model["initStd"].as<double>();
  const std::string positional = model["positionalEncoding"].as<std::string>();
  if (positional == "sinusoidal") {
    config->positional = train::PositionalKind::kSinusoidal;
  } else if (positional == "learned") {
    config->positional = train::PositionalKind::kLearned;
  } else {
    return Status(ErrorCode::kInvalidArgument, "positionalEncoding",
                  "positionalEncoding (\"" + positional + "\") must be one of sinusoidal, learned");
  }
  return Status::Ok();
}

Status ReadTrainerConfig(const val& request, train::TrainerConfig* config) {
  const val task = request["task"];
  Status status = train::ParseTaskKind(task["name"].as<std::string>(), &config->task.kind);
  if (!status.ok()) return status;
  config->task.length = task["length"].as<int>();
  config->task.alphabet = task["alphabet"].as<int>();
  config->task.modulus = task["modulus"].as<int>();

  if (!(status = ReadModelConfig(request["model"], &config->model)).ok()) return status;

  const val o = request["optimizer"];
  train::AdamWConfig& adam = config->optimizer;
  adam.learning_rate = o["learningRate"].as<double>();
  adam.beta1 = o["beta1"].as<double>();
  adam.beta2 = o["beta2"].as<double>();
  adam.epsilon = o["epsilon"].as<double>();
  adam.weight_decay = o["weightDecay"].as<double>();
  adam.warmup_steps = o["warmupSteps"].as<int>();
  adam.total_steps = o["totalSteps"].as<int>();
  adam.min_learning_rate = o["minLearningRate"].as<double>();
  adam.clip_norm = o["clipNorm"].as<double>();

  config->batch_size = request["batchSize"].as<int>();
  config->seed = request["seed"].as<unsigned>();
  return Status::Ok();
}

Status ResolveTrainerModel(const train::TrainerConfig& config, train::ModelConfig* model) {
  Status status = train::ValidateTaskConfig(config.task);
  if (!status.ok()) return status;
  const train::TaskLayout layout = train::LayoutOf(config.task);
  *model = config.model;
  model->vocab_size = layout.vocab_size;
  model->context_length = layout.sequence_length;
  if (!(status = train::ValidateModelConfig(*model)).ok()) return status;

  const int length = layout.sequence_length;
  // Activations and scratch grow linearly with the batch: estimated for one sequence and
  // multiplied here in 64 bits (EstimateMemory counts in size_t, 32 bits in WASM, which a
  // large batch overflows). Scratch's T×T part is counted per sequence: an upper bound.
  const train::MemoryUse one = train::EstimateMemory(*model, 1, length, 4);
  auto bytes = [&](int batch) {
    // Parameters, gradients and AdamW's first and second moments: four times the parameters.
    return one.parameters * 3 + one.gradients + (one.activations + one.scratch) * batch;
  };
  const int64_t need = bytes(config.batch_size);
  if (need <= kMaxTrainerBytes) return Status::Ok();
  const auto mib = [](int64_t b) { return std::to_string((b + (1 << 20) - 1) >> 20); };
  return Status(ErrorCode::kLimitExceeded, bytes(1) <= kMaxTrainerBytes ? "batchSize" : "dModel",
                "this model needs " + mib(need) +
                    " MiB (parameters, gradients, AdamW moments and the activations of " +
                    std::to_string(config.batch_size) + " sequences of " + std::to_string(length) +
                    " tokens); the engine allows " + mib(kMaxTrainerBytes) +
                    " MiB: lower batchSize, dModel, dFF, layers or length");
}

}  // namespace attention::bindings
