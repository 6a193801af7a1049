// Reads training.js's normalized configuration objects into the training engine's structs.
// training.js has checked every type and range; the engine checks again (Trainer::Create,
// ValidateModelConfig) and its Status reaches JS as an AttentionError.
#pragma once

#include <emscripten/val.h>

#include "attention/status.hpp"
#include "attention/train/trainer.hpp"

namespace attention::bindings {

// { vocabSize, contextLength, dModel, heads, dK, layers, dFF, causal, scale, residual,
//   attentionOnly, tiedEmbeddings, positionalEncoding: "sinusoidal" | "learned", initStd }
Status ReadModelConfig(const emscripten::val& model, train::ModelConfig* config);

// { task: { name, length, alphabet, modulus }, model: {…as above}, optimizer: { learningRate,
//   beta1, beta2, epsilon, weightDecay, warmupSteps, totalSteps, minLearningRate, clipNorm },
//   batchSize, seed }
Status ReadTrainerConfig(const emscripten::val& request, train::TrainerConfig* config);

// The most memory one trainer may need: WASM32 memory ends at 2 GiB, which the explorer's
// traces share; beyond it malloc fails inside a step, which must never happen.
inline constexpr int64_t kMaxTrainerBytes = int64_t{1} << 30;
// The model a trainer configuration makes (Trainer::Create's: the task sets vocabSize and
// contextLength), checked without allocating anything: the task and model fields, and the
// bytes of parameters, gradients, AdamW's two moments and the activations of one batch (which
// evaluation uses too), at most kMaxTrainerBytes (kLimitExceeded naming "batchSize" when a
// smaller batch would fit, else "dModel").
Status ResolveTrainerModel(const train::TrainerConfig& config, train::ModelConfig* model);

}  // namespace attention::bindings
