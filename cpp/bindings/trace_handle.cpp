#include "trace_handle.hpp"

#include <malloc.h>

#include <vector>

#include "attention/attend.hpp"
#include "attention/given.hpp"
#include "attention/parallel.hpp"
#include "attention/tokenizer.hpp"
#include "attention/train/language_model.hpp"
#include "attention/train/model_io.hpp"
#include "convert.hpp"
#include "request.hpp"

namespace attention::bindings {
namespace {

using emscripten::val;

val ErrorObject(const Status& status) {
  val out = val::object();
  out.set("ok", false);
  out.set("code", std::string(ErrorCodeName(status.code())));
  out.set("field", status.field());
  out.set("message", status.message());
  return out;
}

}  // namespace

bool TraceHandle::run(const val& request, WeightCache& weights) {
  Config config;
  Input input;
  status_ = ReadRequest(request, &config, &input);
  // The heads of a long trace run on every thread the build has (1 in the single-threaded
  // build), the process's pool that the trainers share: JS runs one call at a time.
  if (status_.ok()) status_ = Trace::Run(config, input, &trace_, &weights, &SharedPool());
  has_trace_ = status_.ok();
  return has_trace_;
}

val TraceHandle::summary() const {
  if (!has_trace_) return val::null();
  const Config& c = trace_.config();
  val out = val::object();
  out.set("nQuery", trace_.n_query());
  out.set("nKey", trace_.n_key());
  out.set("dModel", c.d_model);
  out.set("heads", c.heads);
  out.set("dK", c.ResolvedDK());
  out.set("projectionWidth", c.ProjectionWidth());
  out.set("parameterCount", static_cast<double>(trace_.parameter_count()));
  const Flops f = trace_.flops();
  val flops = val::object();
  const std::pair<const char*, int64_t> counts[] = {
      {"qProjection", f.q_projection}, {"kProjection", f.k_projection},
      {"vProjection", f.v_projection}, {"scores", f.scores},
      {"scaling", f.scaling},          {"mask", f.mask},
      {"softmax", f.softmax},          {"weightedSum", f.weighted_sum},
      {"featureMap", f.feature_map},   {"summary", f.summary},
      {"normaliser", f.normaliser},    {"outputProjection", f.output_projection},
  };
  for (const auto& [name, count] : counts) flops.set(name, static_cast<double>(count));
  flops.set("total", static_cast<double>(f.Total()));
  out.set("flops", flops);
  // How many of the n × m scores a head computes: all of them but with a sparse pattern.
  const double computed = static_cast<double>(trace_.computed_scores());
  out.set("computedScores", computed);
  out.set("computedScoreFraction",
          computed / (static_cast<double>(trace_.n_query()) * trace_.n_key()));
  out.set("cross", trace_.cross());
  out.set("attention", std::string(AttentionKindName(c.attention)));
  out.set("tokens", StringArray(trace_.tokens()));
  out.set("kvTokens", StringArray(trace_.key_tokens()));
  val steps = val::array();
  unsigned index = 0;
  for (const StepInfo& info : StepCatalog()) {
    if (!trace_.HasStep(info)) continue;
    val s = val::object();
    s.set("name", std::string(info.name));
    s.set("perHead", info.per_head);
    s.set("rowsAxis", std::string(AxisKey(info.rows)));
    s.set("colsAxis", std::string(AxisKey(trace_.ColsAxis(info))));
    steps.set(index++, s);
  }
  out.set("steps", steps);
  return out;
}

val TraceHandle::step(const std::string& name, int head) {
  if (!has_trace_) {
    status_ = Status(ErrorCode::kUnknownStep, "trace", "no trace: run() did not succeed");
    return val::null();
  }
  const Matrix* view = nullptr;
  status_ = trace_.View(name, head, &view);
  if (!status_.ok()) return val::null();
  val out = val::object();
  out.set("rows", static_cast<int>(view->rows()));
  out.set("cols", static_cast<int>(view->cols()));
  out.set("data",
          val(emscripten::typed_memory_view(static_cast<size_t>(view->size()), view->data())));
  return out;
}

val Tokenize(const std::string& text) {
  std::vector<std::string> tokens;
  const Status status = attention::Tokenize(text, &tokens);
  if (!status.ok()) return ErrorObject(status);
  val out = val::object();
  out.set("ok", true);
  out.set("tokens", StringArray(tokens));
  return out;
}

val AttendOutput(const val& request, WeightCache& weights) {
  Config config;
  Input input;
  Attended attended;
  Status status = ReadRequest(request, &config, &input);
  if (status.ok()) status = Attend(config, input, &attended, &weights);
  if (!status.ok()) return ErrorObject(status);
  val out = val::object();
  out.set("ok", true);
  out.set("rows", static_cast<int>(attended.output.rows()));
  out.set("cols", static_cast<int>(attended.output.cols()));
  out.set("computedScores", static_cast<double>(attended.computed_scores));
  out.set("scoreBytes", static_cast<double>(attended.score_bytes));
  // A copy made in JS (new Float32Array(view)) before the output is freed on return.
  out.set("data", val::global("Float32Array")
                      .new_(val(emscripten::typed_memory_view(
                          static_cast<size_t>(attended.output.size()), attended.output.data()))));
  return out;
}

val GetLimits() {
  val out = val::object();
  out.set("maxTokens", Limits::kMaxTokens);
  out.set("maxAttendTokens", Limits::kMaxAttendTokens);
  out.set("maxTextBytes", Limits::kMaxTextBytes);
  out.set("maxTokenBytes", Limits::kMaxTokenBytes);
  out.set("maxDModel", Limits::kMaxDModel);
  out.set("maxDK", Limits::kMaxDK);
  out.set("maxProjectionWidth", Limits::kMaxProjectionWidth);
  out.set("minTemperature", Limits::kMinTemperature);
  out.set("maxTemperature", Limits::kMaxTemperature);
  out.set("maxSeed", static_cast<double>(Limits::kMaxSeed));
  // The most tokens one generate() call adds.
  out.set("maxGenerate", train::kMaxGenerate);
  // The longest file loadModel can accept: readers of files (the CLI) read no further.
  out.set("maxModelFileBytes", static_cast<double>(train::MaxModelFileBytes()));
  return out;
}

val GivenNames() {
  val out = val::array();
  unsigned index = 0;
  for (const GivenSlot& slot : kGivenSlots) out.set(index++, std::string(slot.name));
  return out;
}

double HeapBytesInUse() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace attention::bindings
