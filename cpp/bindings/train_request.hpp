// Reads training.js's normalized configuration into the training engine's structs by the rows
// of trainer_fields.hpp, which JS reads too (trainerFields()). One path per request: JS checks
// each value by its row (training_config.js, for the messages before any WASM call), the
// binding reads it and adds only the memory cap, and Trainer::Create or CorpusTrainer::Create
// checks everything else; their Status reaches JS as an AttentionError.
#pragma once

#include <emscripten/val.h>

#include <string>

#include "attention/status.hpp"
#include "attention/train/trainer.hpp"

namespace attention::bindings {

// training.js's flat configuration { task, length, …, seed }, one key per row of
// TrainerFields() (trainer_fields.hpp), into the engine's struct; a value its member cannot hold
// is refused with its row's message, the bounds are Create's. A row the request lacks keeps its
// default (a task trainer's request has no corpus rows).
Status ReadTrainerConfig(const emscripten::val& request, train::TrainerConfig* config);

// TrainerFields() for JS: [{ name, section, kind: "int" | "number" | "bool" | "enum", fallback,
// min, max, minOpen (numbers), values (enums), note, allowed }].
emscripten::val TrainerFieldsVal();

// The most memory one trainer may need: WASM32 memory ends at 2 GiB, which the explorer's
// traces share; beyond it malloc fails inside a step, which must never happen.
inline constexpr int64_t kMaxTrainerBytes = int64_t{1} << 30;
// The bytes of parameters, gradients, AdamW's two moments and the activations of one batch
// (which evaluation uses too) of a model trained on sequences of `length` tokens, at most
// kMaxTrainerBytes (kLimitExceeded naming "batchSize" when a smaller batch would fit, else
// "dModel"; `length_field` names the field that sets the length: "length" for tasks,
// "contextLength" for text).
Status CheckTrainingMemory(const train::ModelConfig& model, int batch_size, int length,
                           const std::string& length_field);
// CheckTrainingMemory as the check Create runs before it allocates (the model's contextLength
// is the length).
train::BeforeAllocation MemoryCap(const std::string& length_field);

}  // namespace attention::bindings
