// The trainer's fields, one row each: name, section, kind, default and allowed values. The rows
// are the one place each of these is written: the structs' defaults are filled from them
// (TaskConfig, ModelConfig, AdamWConfig, CorpusConfig and TrainerConfig have no default of their
// own), the engine validates with them (ValidateFields), exports them to JS (trainerFields(),
// which training_config.js builds its checks and defaults from), reads JS requests by them,
// writes and reads a model file's model keys by them (model_io.cpp), and the native corpus
// trainer takes its flags from them. A new option is one row here, its member, and one line where
// the engine uses it.
//
//   for (const TrainerField& f : TrainerFields()) …         // "layers": int 1 … 12, default 2
//   Status s = CheckField(*FindTrainerField("layers"), 13);  // "layers (13) must be an integer
//                                                            // from 1 to 12"
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "attention/status.hpp"
#include "attention/train/trainer.hpp"

namespace attention::train {

enum class FieldKind { kInt, kNumber, kBool, kEnum };
// Where the engine reads a field: the task (toy tasks only), the model, AdamW, the trainer, or
// the corpus trainer (text models only). The struct a row's member lives in says which.
enum class FieldSection { kTask, kModel, kOptimizer, kTrainer, kCorpus };

struct TrainerField {
  const char* name = "";  // the JS field, the model file's key and (kebab-cased) the flag
  FieldSection section = FieldSection::kTrainer;
  FieldKind kind = FieldKind::kInt;
  double fallback = 0;              // the default (bool: 0 / 1; enum: the index into values)
  double min = 0, max = 0;          // int and number: min ≤ value ≤ max
  bool min_open = false;            // value > min instead
  std::vector<std::string> values;  // enum: the allowed names; the value is the index
  const char* note = "";            // e.g. "0: dModel / heads" (errors end with it)
  // What the field is, for a reader of the API ("transformer blocks"): the generated
  // TrainerConfig's doc comment (training_fields.d.ts) and the docs' tables of options.
  const char* about = "";
  bool in_model_file = false;  // a model file records it (the model's rows but one)
  double (*get)(const TrainerConfig&) = nullptr;
  void (*set)(TrainerConfig*, double) = nullptr;
  // Whether the member's type holds `value` (finite; a whole number within an integer's or
  // enum's type): what `set` needs for a defined cast, not the row's bounds (CheckField's).
  bool (*holds)(double value) = nullptr;
  // The same member in its section's own struct (a TaskConfig, ModelConfig, AdamWConfig,
  // TrainerConfig or CorpusConfig): how those structs' constructors take their defaults.
  void (*set_part)(void* part, double) = nullptr;
};

// Every field, in the order of the API's documentation. Not for static initialisation: the task
// row's names come from the task table (tasks.hpp).
const std::vector<TrainerField>& TrainerFields();
// The row named `name`, or nullptr.
const TrainerField* FindTrainerField(std::string_view name);

// What `field` allows, as a message ends: "an integer from 1 to 12", "a number greater than 0
// and at most 10", "true or false", "one of sinusoidal, learned".
std::string AllowedValues(const TrainerField& field);
// kInvalidArgument for field.name unless `value` is allowed ("layers (13) must be an integer
// from 1 to 12"); an enum's value is its index.
Status CheckField(const TrainerField& field, double value);
// CheckField for every row of `section` read from `config`; the first failure.
Status ValidateFields(const TrainerConfig& config, FieldSection section);

// A task row's key in a task model's file (Trainer::Save writes them, the engine's loader reads
// them): "task" for the task's kind, "task" + the name capitalised for the others (taskLength,
// taskAlphabet, taskModulus); "" for a row of another section.
std::string TaskFileKey(const TrainerField& field);

// The command-line flag of a field: "learningRate" → "learning-rate".
std::string FlagOf(std::string_view name);

}  // namespace attention::train
