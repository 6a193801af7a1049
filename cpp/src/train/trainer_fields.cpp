#include "attention/train/trainer_fields.hpp"

#include <cmath>
#include <cstdint>

#include "format.hpp"

namespace attention::train {
namespace {

constexpr double kUint32Max = 4294967295.0;

using K = FieldKind;
using S = FieldSection;

// One accessor pair per member: the row's get and set (an int member stores the checked value).
#define ATTENTION_FIELD(member, type)                                   \
  [](const TrainerConfig& c) { return static_cast<double>(c.member); }, \
      [](TrainerConfig* c, double v) { c->member = static_cast<type>(v); }

std::vector<TrainerField> MakeFields() {
  std::vector<std::string> tasks;
  for (const TaskSpec& spec : Tasks()) tasks.push_back(spec.name);
  const double width = ModelLimits::kMaxWidth;
  return {
      {"task", S::kTask, K::kEnum, static_cast<double>(TaskKind::kSort), 0, 0, false, tasks, "",
       ATTENTION_FIELD(task.kind, TaskKind)},
      {"length",
       S::kTask,
       K::kInt,
       8,
       1,
       TaskLimits::kMaxLength,
       false,
       {},
       "",
       ATTENTION_FIELD(task.length, int)},
      {"alphabet",
       S::kTask,
       K::kInt,
       10,
       2,
       TaskLimits::kMaxAlphabet,
       false,
       {},
       "",
       ATTENTION_FIELD(task.alphabet, int)},
      {"modulus",
       S::kTask,
       K::kInt,
       97,
       2,
       TaskLimits::kMaxModulus,
       false,
       {},
       "",
       ATTENTION_FIELD(task.modulus, int)},
      {"layers",
       S::kModel,
       K::kInt,
       2,
       1,
       ModelLimits::kMaxLayers,
       false,
       {},
       "",
       ATTENTION_FIELD(model.layers, int)},
      {"heads", S::kModel, K::kInt, 4, 1, width, false, {}, "", ATTENTION_FIELD(model.heads, int)},
      {"dModel",
       S::kModel,
       K::kInt,
       64,
       1,
       width,
       false,
       {},
       "",
       ATTENTION_FIELD(model.d_model, int)},
      {"dK",
       S::kModel,
       K::kInt,
       0,
       0,
       width,
       false,
       {},
       "0: dModel / heads",
       ATTENTION_FIELD(model.d_k, int)},
      {"dFF",
       S::kModel,
       K::kInt,
       0,
       0,
       4 * width,
       false,
       {},
       "0: 4 · dModel",
       ATTENTION_FIELD(model.d_ff, int)},
      {"causal", S::kModel, K::kBool, 1, 0, 0, false, {}, "", ATTENTION_FIELD(model.causal, bool)},
      {"scale", S::kModel, K::kBool, 1, 0, 0, false, {}, "", ATTENTION_FIELD(model.scale, bool)},
      {"residual",
       S::kModel,
       K::kBool,
       1,
       0,
       0,
       false,
       {},
       "",
       ATTENTION_FIELD(model.residual, bool)},
      {"attentionOnly",
       S::kModel,
       K::kBool,
       0,
       0,
       0,
       false,
       {},
       "",
       ATTENTION_FIELD(model.attention_only, bool)},
      {"tiedEmbeddings",
       S::kModel,
       K::kBool,
       1,
       0,
       0,
       false,
       {},
       "",
       ATTENTION_FIELD(model.tied_embeddings, bool)},
      {"positionalEncoding",
       S::kModel,
       K::kEnum,
       0,
       0,
       0,
       false,
       {"sinusoidal", "learned"},
       "",
       ATTENTION_FIELD(model.positional, PositionalKind)},
      {"initStd",
       S::kModel,
       K::kNumber,
       0.02,
       0,
       10,
       true,
       {},
       "",
       ATTENTION_FIELD(model.init_std, double)},
      {"queryKeyInit",
       S::kModel,
       K::kNumber,
       1,
       0,
       10,
       true,
       {},
       "",
       ATTENTION_FIELD(model.query_key_init, double)},
      {"learningRate",
       S::kOptimizer,
       K::kNumber,
       1e-3,
       0,
       10,
       true,
       {},
       "",
       ATTENTION_FIELD(optimizer.learning_rate, double)},
      // β stays below 1: the bias correction divides by 1 − βᵗ.
      {"beta1",
       S::kOptimizer,
       K::kNumber,
       0.9,
       0,
       0.999999,
       false,
       {},
       "",
       ATTENTION_FIELD(optimizer.beta1, double)},
      {"beta2",
       S::kOptimizer,
       K::kNumber,
       0.95,
       0,
       0.999999,
       false,
       {},
       "",
       ATTENTION_FIELD(optimizer.beta2, double)},
      {"epsilon",
       S::kOptimizer,
       K::kNumber,
       1e-8,
       0,
       1,
       true,
       {},
       "",
       ATTENTION_FIELD(optimizer.epsilon, double)},
      {"weightDecay",
       S::kOptimizer,
       K::kNumber,
       0.1,
       0,
       10,
       false,
       {},
       "",
       ATTENTION_FIELD(optimizer.weight_decay, double)},
      {"warmupSteps",
       S::kOptimizer,
       K::kInt,
       0,
       0,
       1e9,
       false,
       {},
       "",
       ATTENTION_FIELD(optimizer.warmup_steps, int)},
      {"totalSteps",
       S::kOptimizer,
       K::kInt,
       0,
       0,
       1e9,
       false,
       {},
       "0: no cosine decay",
       ATTENTION_FIELD(optimizer.total_steps, int)},
      {"minLearningRate",
       S::kOptimizer,
       K::kNumber,
       1e-4,
       0,
       10,
       false,
       {},
       "",
       ATTENTION_FIELD(optimizer.min_learning_rate, double)},
      {"clipNorm",
       S::kOptimizer,
       K::kNumber,
       1,
       0,
       1e6,
       false,
       {},
       "0: no clipping",
       ATTENTION_FIELD(optimizer.clip_norm, double)},
      {"batchSize",
       S::kTrainer,
       K::kInt,
       32,
       1,
       TrainerConfig::kMaxBatch,
       false,
       {},
       "",
       ATTENTION_FIELD(batch_size, int)},
      {"seed",
       S::kTrainer,
       K::kInt,
       1,
       0,
       kUint32Max,
       false,
       {},
       "",
       ATTENTION_FIELD(seed, uint32_t)},
      {"threads",
       S::kTrainer,
       K::kInt,
       1,
       1,
       TrainerConfig::kMaxThreads,
       false,
       {},
       "the batch's shards, run at once",
       ATTENTION_FIELD(threads, int)},
  };
}

#undef ATTENTION_FIELD

// A bound as JS prints it: integers in full (4294967295, not 4.29497e+09), others as %g.
std::string Shown(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e15) return Format("%.0f", value);
  return Format("%g", value);
}

}  // namespace

const std::vector<TrainerField>& TrainerFields() {
  static const std::vector<TrainerField> fields = MakeFields();
  return fields;
}

const TrainerField* FindTrainerField(std::string_view name) {
  for (const TrainerField& f : TrainerFields()) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

std::string AllowedValues(const TrainerField& f) {
  if (f.kind == K::kBool) return "true or false";
  if (f.kind == K::kEnum) {
    std::string out = "one of ";
    for (size_t i = 0; i < f.values.size(); ++i) out += (i ? ", " : "") + f.values[i];
    return out;
  }
  const std::string low = Shown(f.min), high = Shown(f.max);
  const std::string range =
      f.min_open ? "greater than " + low + " and at most " + high : "from " + low + " to " + high;
  const std::string note = *f.note ? Format(" (%s)", f.note) : "";
  return (f.kind == K::kInt ? "an integer " : "a number ") + range + note;
}

Status CheckField(const TrainerField& f, double value) {
  bool ok = std::isfinite(value);
  if (ok && f.kind == K::kEnum) {
    ok = value >= 0 && value < static_cast<double>(f.values.size()) && value == std::floor(value);
  } else if (ok && f.kind == K::kBool) {
    ok = value == 0 || value == 1;
  } else if (ok) {
    ok = (f.min_open ? value > f.min : value >= f.min) && value <= f.max &&
         (f.kind != K::kInt || value == std::floor(value));
  }
  if (ok) return Status::Ok();
  return Status(
      ErrorCode::kInvalidArgument, f.name,
      Format("%s (%s) must be %s", f.name, Shown(value).c_str(), AllowedValues(f).c_str()));
}

Status ValidateFields(const TrainerConfig& config, FieldSection section) {
  for (const TrainerField& f : TrainerFields()) {
    if (f.section != section) continue;
    if (Status status = CheckField(f, f.get(config)); !status.ok()) return status;
  }
  return Status::Ok();
}

std::string FlagOf(std::string_view name) {
  // As the JS command's: a run of capitals is one word ("dFF" → "d-ff").
  std::string flag;
  bool upper_run = false;
  for (char c : name) {
    const bool upper = c >= 'A' && c <= 'Z';
    if (upper && !upper_run) flag += '-';
    flag += upper ? static_cast<char>(c - 'A' + 'a') : c;
    upper_run = upper;
  }
  return flag;
}

}  // namespace attention::train
