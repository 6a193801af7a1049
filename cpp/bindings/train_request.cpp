#include "train_request.hpp"

#include <algorithm>
#include <string>

#include "attention/train/trainer_fields.hpp"

namespace attention::bindings {

using emscripten::val;

Status ReadTrainerConfig(const val& request, train::TrainerConfig* config) {
  for (const train::TrainerField& f : train::TrainerFields()) {
    const val value = request[f.name];
    // A section the request does not carry (a task's has no corpus rows) keeps its defaults.
    if (value.isUndefined()) continue;
    double number = 0;
    if (f.kind == train::FieldKind::kBool) {
      number = value.as<bool>() ? 1 : 0;
    } else if (f.kind == train::FieldKind::kEnum) {
      const std::string name = value.as<std::string>();
      const auto it = std::find(f.values.begin(), f.values.end(), name);
      number = it == f.values.end() ? -1 : static_cast<double>(it - f.values.begin());
    } else {
      number = value.as<double>();
    }
    // training.js checked every value by these rows and Create checks the struct it is given:
    // here only a value the member cannot hold (a fraction for an integer, beyond its type) is
    // refused, before the cast, in the row's words.
    if (!f.holds(number)) {
      const Status status = train::CheckField(f, number);
      return status.ok() ? Status(ErrorCode::kInvalidArgument, f.name,
                                  std::string(f.name) + " must be " + train::AllowedValues(f))
                         : status;
    }
    f.set(config, number);
  }
  return Status::Ok();
}

val TrainerFieldsVal() {
  val rows = val::array();
  for (const train::TrainerField& f : train::TrainerFields()) {
    static const char* const kKinds[] = {"int", "number", "bool", "enum"};
    static const char* const kSections[] = {"task", "model", "optimizer", "trainer", "corpus"};
    val row = val::object();
    row.set("name", std::string(f.name));
    row.set("section", std::string(kSections[static_cast<int>(f.section)]));
    row.set("kind", std::string(kKinds[static_cast<int>(f.kind)]));
    row.set("allowed", train::AllowedValues(f));
    if (f.kind == train::FieldKind::kBool) {
      row.set("fallback", f.fallback != 0);
    } else if (f.kind == train::FieldKind::kEnum) {
      row.set("fallback", f.values[static_cast<size_t>(f.fallback)]);
      val values = val::array();
      for (const std::string& name : f.values) values.call<void>("push", name);
      row.set("values", values);
    } else {
      row.set("fallback", f.fallback);
      row.set("min", f.min);
      row.set("max", f.max);
      row.set("minOpen", f.min_open);
    }
    if (*f.note) row.set("note", std::string(f.note));
    // What it is: the generated TrainerConfig's doc comments and the docs' tables read it.
    row.set("about", std::string(f.about));
    // A model file records it under its name (model_io.cpp): model_config.js checks it so.
    row.set("inModelFile", f.in_model_file);
    // A task row's key in a task model's file (taskLength, …), checked by model_config.js too.
    if (f.section == train::FieldSection::kTask) row.set("taskFileKey", train::TaskFileKey(f));
    rows.call<void>("push", row);
  }
  return rows;
}

train::BeforeAllocation MemoryCap(const std::string& length_field) {
  return [length_field](const train::ModelConfig& model, int batch_size) {
    return CheckTrainingMemory(model, batch_size, model.context_length, length_field);
  };
}

Status CheckTrainingMemory(const train::ModelConfig& model, int batch_size, int length,
                           const std::string& length_field) {
  // Activations and scratch grow linearly with the batch: estimated for one sequence and
  // multiplied here in 64 bits (EstimateMemory counts in size_t, 32 bits in WASM, which a
  // large batch overflows). Scratch's T×T part is counted per sequence: an upper bound.
  const train::MemoryUse one = train::EstimateMemory(model, 1, length, 4);
  auto bytes = [&](int batch) {
    // Parameters, gradients and AdamW's first and second moments: four times the parameters.
    return one.parameters * 3 + one.gradients + (one.activations + one.scratch) * batch;
  };
  const int64_t need = bytes(batch_size);
  if (need <= kMaxTrainerBytes) return Status::Ok();
  const auto mib = [](int64_t b) { return std::to_string((b + (1 << 20) - 1) >> 20); };
  return Status(ErrorCode::kLimitExceeded, bytes(1) <= kMaxTrainerBytes ? "batchSize" : "dModel",
                "this model needs " + mib(need) +
                    " MiB (parameters, gradients, AdamW moments and the activations of " +
                    std::to_string(batch_size) + " sequences of " + std::to_string(length) +
                    " tokens); the engine allows " + mib(kMaxTrainerBytes) +
                    " MiB: lower batchSize, dModel, dFF, layers or " + length_field);
}

}  // namespace attention::bindings
