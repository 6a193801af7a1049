#include "attention/train/trainer_fields.hpp"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "attention/config.hpp"
#include "format.hpp"

namespace attention::train {
namespace {

// The struct of a TrainerConfig a member lives in: the row's section, and where it is.
template <typename Part>
struct PartOf;
template <>
struct PartOf<TaskConfig> {
  static constexpr FieldSection kSection = FieldSection::kTask;
  template <typename C>
  static auto& In(C& c) {
    return c.task;
  }
};
template <>
struct PartOf<ModelConfig> {
  static constexpr FieldSection kSection = FieldSection::kModel;
  template <typename C>
  static auto& In(C& c) {
    return c.model;
  }
};
template <>
struct PartOf<AdamWConfig> {
  static constexpr FieldSection kSection = FieldSection::kOptimizer;
  template <typename C>
  static auto& In(C& c) {
    return c.optimizer;
  }
};
template <>
struct PartOf<TrainerConfig> {
  static constexpr FieldSection kSection = FieldSection::kTrainer;
  template <typename C>
  static auto& In(C& c) {
    return c;
  }
};
template <>
struct PartOf<CorpusConfig> {
  static constexpr FieldSection kSection = FieldSection::kCorpus;
  template <typename C>
  static auto& In(C& c) {
    return c.corpus;
  }
};

template <typename Member>
struct MemberOf;
template <typename Part, typename Value>
struct MemberOf<Value Part::*> {
  using P = Part;
  using V = Value;
};

// A row being built: each builder below returns one, and `.Is("…")` says what the field is
// (TrainerField::about), so that a row stays one line from its name to its meaning.
struct Built : TrainerField {
  Built Is(const char* text) && {
    about = text;
    return std::move(*this);
  }
};

// A row of `member` (e.g. &ModelConfig::layers): its section and accessors; the builders below
// add the kind, default and bounds.
template <auto member>
Built Row(const char* name, FieldKind kind, double fallback, const char* note) {
  using Part = typename MemberOf<decltype(member)>::P;
  using Value = typename MemberOf<decltype(member)>::V;
  Built f;
  f.name = name;
  f.section = PartOf<Part>::kSection;
  f.kind = kind;
  f.fallback = fallback;
  f.note = note;
  f.in_model_file = f.section == FieldSection::kModel;
  f.get = [](const TrainerConfig& c) { return static_cast<double>(PartOf<Part>::In(c).*member); };
  f.set = [](TrainerConfig* c, double v) { PartOf<Part>::In(*c).*member = static_cast<Value>(v); };
  f.holds = [](double v) {
    if constexpr (std::is_floating_point_v<Value>) {
      return std::fabs(v) <= static_cast<double>(std::numeric_limits<Value>::max());
    } else {
      using Whole = typename std::conditional_t<std::is_enum_v<Value>, std::underlying_type<Value>,
                                                std::enable_if<true, Value>>::type;
      return v == std::floor(v) && v >= static_cast<double>(std::numeric_limits<Whole>::lowest()) &&
             v <= static_cast<double>(std::numeric_limits<Whole>::max());
    }
  };
  f.set_part = [](void* part, double v) {
    static_cast<Part*>(part)->*member = static_cast<Value>(v);
  };
  return f;
}

// An integer from min to max.
template <auto member>
Built Int(const char* name, double fallback, double min, double max, const char* note = "") {
  Built f = Row<member>(name, FieldKind::kInt, fallback, note);
  f.min = min;
  f.max = max;
  return f;
}

// A number from min to max.
template <auto member>
Built Number(const char* name, double fallback, double min, double max, const char* note = "") {
  Built f = Row<member>(name, FieldKind::kNumber, fallback, note);
  f.min = min;
  f.max = max;
  return f;
}

// A number greater than min, at most max.
template <auto member>
Built Above(const char* name, double fallback, double min, double max) {
  Built f = Number<member>(name, fallback, min, max);
  f.min_open = true;
  return f;
}

template <auto member>
Built Bool(const char* name, bool fallback) {
  return Row<member>(name, FieldKind::kBool, fallback ? 1 : 0, "");
}

// One of `values`, stored as its index (the member's enum in the same order).
template <auto member, typename Enum>
Built OneOf(const char* name, Enum fallback, std::vector<std::string> values) {
  Built f = Row<member>(name, FieldKind::kEnum, static_cast<double>(fallback), "");
  f.values = std::move(values);
  return f;
}

// A model row that a model file does not record (it matters only when the weights are drawn).
Built NotInModelFile(Built f) {
  f.in_model_file = false;
  return f;
}

std::vector<TrainerField> MakeFields() {
  // The "task" field's value is the TaskKind, so its names stand at their kinds' indices.
  std::vector<std::string> tasks(Tasks().size());
  for (const TaskSpec& spec : Tasks()) tasks.at(static_cast<size_t>(spec.kind)) = spec.name;
  const double width = ModelLimits::kMaxWidth;
  using M = ModelConfig;
  using A = AdamWConfig;
  using T = TrainerConfig;
  // Each row: name, default, bounds (and a note on a special value), then what it is.
  // clang-format off
  return {
      OneOf<&TaskConfig::kind>("task", TaskKind::kSort, tasks).Is("the toy task"),
      Int<&TaskConfig::length>("length", 8, 1, TaskLimits::kMaxLength)
          .Is("symbols per example (copy, reverse, sort; induction at least 2)"),
      Int<&TaskConfig::alphabet>("alphabet", 10, 2, TaskLimits::kMaxAlphabet)
          .Is("distinct symbols (copy, reverse, sort, induction)"),
      Int<&TaskConfig::modulus>("modulus", 97, 2, TaskLimits::kMaxModulus)
          .Is("the modulus p of (a + b) mod p"),
      Int<&M::layers>("layers", 2, 1, ModelLimits::kMaxLayers).Is("transformer blocks"),
      Int<&M::heads>("heads", 4, 1, width)
          .Is("attention heads per block (they divide dModel unless dK is set)"),
      Int<&M::d_model>("dModel", 64, 1, width).Is("the width of the residual stream"),
      Int<&M::d_k>("dK", 0, 0, width, "0: dModel / heads").Is("the width of one head"),
      Int<&M::d_ff>("dFF", 0, 0, 4 * width, "0: 4 · dModel").Is("the FFN's hidden width"),
      Bool<&M::causal>("causal", true).Is("a query sees only earlier keys"),
      Bool<&M::scale>("scale", true).Is("divide scores by √dK"),
      Bool<&M::residual>("residual", true).Is("the two residual adds of each block"),
      Bool<&M::attention_only>("attentionOnly", false)
          .Is("no FFN and no LayerNorm (the attention-only model of induction-head studies)"),
      Bool<&M::tied_embeddings>("tiedEmbeddings", true)
          .Is("logits from the token embedding, else from a separate matrix"),
      OneOf<&M::positional>("positionalEncoding", PositionalKind::kSinusoidal, {"sinusoidal", "learned"})
          .Is("the positions added to the token embedding: fixed sines or trained"),
      Above<&M::init_std>("initStd", 0.02, 0, 10).Is("the standard deviation of the initial weights"),
      NotInModelFile(Above<&M::query_key_init>("queryKeyInit", 1, 0, 10))
          .Is("W_Q's and W_K's multiple of their draw (at d_k^(−1/4) an unscaled model starts as the scaled one)"),
      Above<&A::learning_rate>("learningRate", 1e-3, 0, 10).Is("AdamW's peak learning rate"),
      // β stays below 1: the bias correction divides by 1 − βᵗ.
      Number<&A::beta1>("beta1", 0.9, 0, 0.999999).Is("AdamW's decay of the gradients' running mean"),
      Number<&A::beta2>("beta2", 0.95, 0, 0.999999)
          .Is("AdamW's decay of the squared gradients' running mean"),
      Above<&A::epsilon>("epsilon", 1e-8, 0, 1).Is("added to AdamW's denominator"),
      Number<&A::weight_decay>("weightDecay", 0.1, 0, 10)
          .Is("decoupled weight decay on the linear maps' matrices"),
      Int<&A::warmup_steps>("warmupSteps", 0, 0, 1e9).Is("linear warmup over these steps"),
      Int<&A::total_steps>("totalSteps", 0, 0, 1e9, "0: no cosine decay")
          .Is("cosine decay to minLearningRate at this step"),
      Number<&A::min_learning_rate>("minLearningRate", 1e-4, 0, 10)
          .Is("the learning rate the cosine decay ends at"),
      Number<&A::clip_norm>("clipNorm", 1, 0, 1e6, "0: no clipping").Is("global gradient-norm clipping"),
      Int<&T::batch_size>("batchSize", 32, 1, TrainerConfig::kMaxBatch).Is("sequences per update"),
      Int<&T::seed>("seed", 1, 0, Limits::kMaxSeed).Is("draws the initial weights and the examples"),
      Int<&T::threads>("threads", 1, 1, TrainerConfig::kMaxThreads, "the batch's shards, run at once")
          .Is("shards per batch, their gradients added in order (the weights depend on it, not on the cores)"),
      Number<&CorpusConfig::repeat_spans>("repeatSpans", 0, 0, 1, "the share of windows that repeat a span")
          .Is("windows repeating a span of T/8 to T/4 tokens, which only an induction head predicts (docs/models.md)"),
  };
  // clang-format on
}

// The rows of `Part`'s section into `part`: the structs' defaults.
template <typename Part>
void FillDefaults(Part* part) {
  for (const TrainerField& f : TrainerFields()) {
    if (f.section == PartOf<Part>::kSection) f.set_part(part, f.fallback);
  }
}

// A bound as JS prints it: integers in full (4294967295, not 4.29497e+09), others as %g.
std::string Shown(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e15) return Format("%.0f", value);
  return Format("%g", value);
}

}  // namespace

TaskConfig::TaskConfig() { FillDefaults(this); }
ModelConfig::ModelConfig() { FillDefaults(this); }
AdamWConfig::AdamWConfig() { FillDefaults(this); }
CorpusConfig::CorpusConfig() { FillDefaults(this); }
TrainerConfig::TrainerConfig() { FillDefaults(this); }

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

std::string TaskFileKey(const TrainerField& f) {
  if (f.section != FieldSection::kTask) return "";
  std::string key = f.name;
  if (key == "task") return key;
  key[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(key[0])));
  return "task" + key;
}

std::string AllowedValues(const TrainerField& f) {
  if (f.kind == FieldKind::kBool) return "true or false";
  if (f.kind == FieldKind::kEnum) {
    std::string out = "one of ";
    for (size_t i = 0; i < f.values.size(); ++i) out += (i ? ", " : "") + f.values[i];
    return out;
  }
  const std::string low = Shown(f.min), high = Shown(f.max);
  const std::string range =
      f.min_open ? "greater than " + low + " and at most " + high : "from " + low + " to " + high;
  const std::string note = *f.note ? Format(" (%s)", f.note) : "";
  return (f.kind == FieldKind::kInt ? "an integer " : "a number ") + range + note;
}

Status CheckField(const TrainerField& f, double value) {
  bool ok = std::isfinite(value);
  if (ok && f.kind == FieldKind::kEnum) {
    ok = value >= 0 && value < static_cast<double>(f.values.size()) && value == std::floor(value);
  } else if (ok && f.kind == FieldKind::kBool) {
    ok = value == 0 || value == 1;
  } else if (ok) {
    ok = (f.min_open ? value > f.min : value >= f.min) && value <= f.max &&
         (f.kind != FieldKind::kInt || value == std::floor(value));
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
