// Reads training.js's normalized configuration objects into the training engine's structs.
// training.js has checked every type and range; the engine checks again (Trainer::Create,
// ValidateModelConfig) and its Status reaches JS as an AttentionError.
#pragma once

#include <emscripten/val.h>

#include "attention/status.hpp"
#include "attention/train/trainer.hpp"

namespace attention::bindings {

// { vocabSize, contextLength, dModel, heads, dK, layers, dFF, causal, scale, residual,
//   attentionOnly, tiedEmbeddings, positional: "sinusoidal" | "learned", initStd }
Status ReadModelConfig(const emscripten::val& model, train::ModelConfig* config);

// { task: { name, length, alphabet, modulus }, model: {…as above}, optimizer: { learningRate,
//   beta1, beta2, epsilon, weightDecay, warmupSteps, totalSteps, minLearningRate, clipNorm },
//   batchSize, seed }
Status ReadTrainerConfig(const emscripten::val& request, train::TrainerConfig* config);

}  // namespace attention::bindings
