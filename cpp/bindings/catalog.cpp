// The engine's catalogs as data, so that JS reads them instead of restating them: the trace's
// steps (StepCatalog), a trained model's block and model-wide steps (kBlockSteps, kModelSteps),
// the tasks (Tasks()), a text model's text options (CorpusTextFields()) and the head roles with
// their line marks (kRoles, kLineMarks); and, in traceOptions(), the names and defaults of a run's
// options. build-scripts/catalog.mjs writes the JS and .d.ts modules the page and the type
// declarations read from these exports; tests/node/catalog.test.mjs checks they equal them.
#include <emscripten/bind.h>

#include <string>

#include "attention/config.hpp"
#include "attention/trace.hpp"
#include "attention/train/corpus_fields.hpp"
#include "attention/train/head_roles.hpp"
#include "attention/train/model.hpp"
#include "attention/train/tasks.hpp"

namespace attention::bindings {
namespace {

using emscripten::val;

const char* PresenceKey(Presence presence) {
  switch (presence) {
    case Presence::kCross:
      return "cross";
    case Presence::kSoftmax:
      return "softmax";
    case Presence::kLinear:
      return "linear";
    default:
      return "always";
  }
}

template <size_t N>
val ActivationSteps(const train::ActivationStep (&steps)[N]) {
  val out = val::array();
  for (size_t i = 0; i < N; ++i) {
    val s = val::object();
    s.set("name", std::string(steps[i].name));
    s.set("width", std::string(train::WidthKey(steps[i].width)));
    s.set("traced", steps[i].traced);
    s.set("attentionOnly", steps[i].attention_only);
    out.set(i, s);
  }
  return out;
}

// What a person types as a task's input: "operands" (two numbers below the modulus), "sequence"
// (exactly `length` symbols), "prompt" (a prompt of a varying count, continued by the task's
// rule). Read off the row: its numbers, and whether its prompt counts are one count.
const char* InputShape(const train::TaskSpec& spec) {
  if (spec.modular) return "operands";
  train::TaskConfig config;
  config.kind = spec.kind;
  int low = 0;
  int high = 0;
  spec.prompt_counts(config, &low, &high);
  return low == high ? "sequence" : "prompt";
}

// The head roles (kRoles) and the line-ending marks their keys read (kLineMarks), for
// head_roles.js, head_labels.js and the sidecar check (build-scripts/role-sidecar.mjs).
const char* MarkKindKey(train::MarkKind kind) {
  switch (kind) {
    case train::MarkKind::kPoemEnd:
      return "poemEnd";
    case train::MarkKind::kOpening:
      return "opening";
    default:
      return "closing";
  }
}

void SetRoleCatalog(val* out) {
  val roles = val::array();
  unsigned index = 0;
  for (const train::RoleInfo& info : train::kRoles) {
    val r = val::object();
    r.set("name", std::string(info.name));
    r.set("positional", info.positional);
    r.set("needsTags", info.needs_tags);
    r.set("weight", train::IsWeightRole(info));
    roles.set(index++, r);
  }
  val marks = val::array();
  index = 0;
  for (const train::LineMark& mark : train::kLineMarks) {
    val m = val::object();
    m.set("text", std::string(mark.text));
    m.set("kind", std::string(MarkKindKey(mark.kind)));
    m.set("verse", mark.verse);
    marks.set(index++, m);
  }
  out->set("roles", roles);
  out->set("lineMarks", marks);
}

// The text options of a text model (corpus_fields.hpp), one object a row: name, flag (the native
// tool's, "" for none), kind, required, fallback (null when required; an enum's name), min, max
// (the tool's), minOpen, pageMax (the page's max), values (enum), help, and allowed (what the
// page allows, as its messages end). createCorpusTrainer and the pages read these.
val CorpusTextFieldsVal() {
  static const char* const kKinds[] = {"int", "number", "bool", "enum"};
  val rows = val::array();
  for (const train::CorpusTextField& f : train::CorpusTextFields()) {
    val row = val::object();
    row.set("name", std::string(f.name));
    row.set("flag", f.flag);
    row.set("kind", std::string(kKinds[static_cast<int>(f.kind)]));
    row.set("required", f.required);
    if (f.required) {
      row.set("fallback", val::null());
    } else if (f.kind == train::FieldKind::kEnum) {
      row.set("fallback", f.values[static_cast<size_t>(f.fallback)]);
    } else {
      row.set("fallback", f.fallback);
    }
    if (f.kind == train::FieldKind::kEnum) {
      val values = val::array();
      for (const std::string& name : f.values) values.call<void>("push", name);
      row.set("values", values);
    } else {
      row.set("min", f.min);
      row.set("max", f.max);
      row.set("minOpen", f.min_open);
      row.set("pageMax", f.page_max);
    }
    row.set("help", std::string(f.help));
    row.set("allowed", train::CorpusAllowedValues(f, train::CorpusDoor::kPage));
    rows.call<void>("push", row);
  }
  return rows;
}

val CatalogVal() {
  val steps = val::array();
  unsigned index = 0;
  for (const StepInfo& info : StepCatalog()) {
    val s = val::object();
    s.set("name", std::string(info.name));
    s.set("perHead", info.per_head);
    s.set("rowsAxis", std::string(AxisKey(info.rows)));
    s.set("colsAxis", std::string(AxisKey(info.cols)));
    s.set("presence", std::string(PresenceKey(info.presence)));
    steps.set(index++, s);
  }
  val tasks = val::array();
  index = 0;
  for (const train::TaskSpec& spec : train::Tasks()) {
    val t = val::object();
    t.set("name", std::string(spec.name));
    t.set("layout", std::string(spec.layout));
    t.set("input", std::string(InputShape(spec)));
    tasks.set(index++, t);
  }
  val out = val::object();
  out.set("steps", steps);
  out.set("blockSteps", ActivationSteps(train::kBlockSteps));
  out.set("modelSteps", ActivationSteps(train::kModelSteps));
  out.set("tasks", tasks);
  // The two model sizes that are not trainer fields, with the bounds ValidateModelConfig checks.
  val sizes = val::array();
  index = 0;
  for (const train::ModelSize& size : train::kModelSizes) {
    val m = val::object();
    m.set("name", std::string(size.key));
    m.set("kind", std::string("int"));
    m.set("min", size.min);
    m.set("max", size.max);
    sizes.set(index++, m);
  }
  out.set("modelSizes", sizes);
  out.set("corpusTextFields", CorpusTextFieldsVal());
  SetRoleCatalog(&out);
  return out;
}

// The trace's options that name an enum value, each list read off its table (config.hpp), and
// the defaults of a run's options and of a mask's settings, read off a default Config and
// MaskSpec: engine.run's DEFAULTS and the page's lists read these.
template <typename E, size_t N>
val OptionNames(const OptionName<E> (&table)[N]) {
  val out = val::array();
  for (size_t i = 0; i < N; ++i) out.set(i, std::string(table[i].name));
  return out;
}

val TraceOptionsVal() {
  const Config config;
  val defaults = val::object();
  defaults.set("dModel", config.d_model);
  defaults.set("heads", config.heads);
  defaults.set("dK", config.d_k);
  defaults.set("seed", config.seed);
  defaults.set("mask", std::string(MaskTypeName(config.mask.type)));
  defaults.set("scale", config.scale);
  defaults.set("temperature", config.temperature);
  defaults.set("bias", config.bias);
  defaults.set("outputProjection", config.output_projection);
  defaults.set("init", std::string(NameOf(kInits, config.init)));
  defaults.set("positionalEncoding", config.positional_encoding);
  defaults.set("embedding", std::string(NameOf(kEmbeddings, config.embedding)));
  defaults.set("attention", std::string(AttentionKindName(config.attention)));
  const MaskSpec& mask = config.mask;
  val mask_defaults = val::object();
  mask_defaults.set("width", mask.width);
  mask_defaults.set("causal", mask.causal);
  val global = val::array();
  for (size_t i = 0; i < mask.global_tokens.size(); ++i) global.set(i, mask.global_tokens[i]);
  mask_defaults.set("global", global);
  mask_defaults.set("dilation", mask.dilation);
  mask_defaults.set("block", mask.block);
  mask_defaults.set("random", mask.random);
  mask_defaults.set("seed", mask.seed);
  val out = val::object();
  out.set("maskTypes", OptionNames(kMaskTypes));
  out.set("attentionKinds", OptionNames(kAttentionKinds));
  out.set("inits", OptionNames(kInits));
  out.set("embeddings", OptionNames(kEmbeddings));
  out.set("defaults", defaults);
  out.set("maskDefaults", mask_defaults);
  return out;
}

}  // namespace
}  // namespace attention::bindings

EMSCRIPTEN_BINDINGS(attention_catalog) {
  emscripten::function("catalog", &attention::bindings::CatalogVal);
  emscripten::function("traceOptions", &attention::bindings::TraceOptionsVal);
}
