#include "model_trace.hpp"

#include <string_view>

#include "attention/parallel.hpp"
#include "convert.hpp"

namespace attention::bindings {
namespace {

using emscripten::val;

val RowMajorView(const float* data, int rows, int cols) {
  val out = val::object();
  out.set("rows", rows);
  out.set("cols", cols);
  out.set("data", val(emscripten::typed_memory_view(static_cast<size_t>(rows) * cols, data)));
  return out;
}

Status UnknownStep(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kUnknownStep, field, message);
}

}  // namespace

void ModelTrace::Clear() {
  model_ = nullptr;
  labels_.clear();
  layers_.clear();
}

Status ModelTrace::Run(train::Model<float>* model, const std::vector<int>& tokens,
                       const std::vector<std::string>& labels, train::Outputs outputs) {
  Clear();
  const train::ModelConfig& mc = model->config();
  const int64_t values = int64_t{mc.vocab_size} * static_cast<int64_t>(tokens.size());
  if (outputs == train::Outputs::kEveryPosition && values > kMaxTracedLogits) {
    return Status(ErrorCode::kLimitExceeded, "tokens",
                  "the logits and probabilities of every position take vocabulary × tokens = " +
                      std::to_string(mc.vocab_size) + " × " + std::to_string(tokens.size()) +
                      " = " + std::to_string(values) + " values each; at most " +
                      std::to_string(kMaxTracedLogits) + ": give at most " +
                      std::to_string(kMaxTracedLogits / mc.vocab_size) +
                      " tokens, or trace without the steps logits and probabilities (predict() "
                      "reads the last position's)");
  }
  train::Batch batch;
  batch.size = 1;
  batch.length = static_cast<int>(tokens.size());
  batch.tokens = tokens;
  Status status = model->Forward(batch, outputs);
  if (!status.ok()) return status;

  // The explorer's attention on each layer's own input and weights (LayerTraceInputs), on the
  // process's pool as engine.open()'s traces: Trace::Run keeps a short one on this thread.
  std::vector<Trace> layers(static_cast<size_t>(mc.layers));
  for (int l = 0; l < mc.layers; ++l) {
    status = train::TraceLayer(*model, l, labels, &layers[static_cast<size_t>(l)], &SharedPool());
    if (!status.ok()) return status;
  }
  model_ = model;
  labels_ = labels;
  layers_ = std::move(layers);
  return Status::Ok();
}

val ModelTrace::NextLogits() const {
  if (model_ == nullptr) return val::null();
  int width = 0;
  const float* all = model_->Activation("logits", -1, &width);
  const float* last = all + static_cast<size_t>(model_->logits_rows() - 1) * width;
  return val(emscripten::typed_memory_view(static_cast<size_t>(width), last));
}

val ModelTrace::Summary() const {
  if (model_ == nullptr) return val::null();
  const train::ModelConfig& mc = model_->config();
  val out = val::object();
  out.set("tokens", StringArray(labels_));
  out.set("layers", mc.layers);
  out.set("heads", mc.heads);
  out.set("dModel", mc.d_model);
  out.set("dK", mc.ResolvedDK());
  out.set("dFF", mc.ResolvedDFF());
  out.set("vocabSize", mc.vocab_size);

  auto describe = [](const char* name, bool per_head, const char* rows, const char* cols) {
    val s = val::object();
    s.set("name", std::string(name));
    s.set("perHead", per_head);
    s.set("rowsAxis", std::string(rows));
    s.set("colsAxis", std::string(cols));
    return s;
  };
  int width = 0;
  val model_steps = val::array();
  unsigned index = 0;
  for (const train::ActivationStep& s : train::kModelSteps) {
    if (model_->Activation(s.name, -1, &width) == nullptr) continue;
    // Every position's rows, or the step was not traced (the vocabulary's, unless asked for).
    if (model_->rows(s.width) != static_cast<int>(labels_.size())) continue;
    model_steps.set(index++, describe(s.name, false, "query", train::WidthKey(s.width)));
  }
  out.set("modelSteps", model_steps);

  val layer_steps = val::array();
  index = 0;
  const Trace& first = layers_.front();
  for (const StepInfo& info : StepCatalog()) {
    if (!first.HasStep(info)) continue;
    layer_steps.set(index++, describe(info.name, info.per_head, AxisKey(info.rows),
                                      AxisKey(first.ColsAxis(info))));
  }
  // The block's steps around its attention layer (q, k, v and concat are the layer's own above).
  for (const train::ActivationStep& s : train::kBlockSteps) {
    if (!s.traced || model_->Activation(s.name, 0, &width) == nullptr) continue;
    layer_steps.set(index++, describe(s.name, false, "query", train::WidthKey(s.width)));
  }
  out.set("layerSteps", layer_steps);
  return out;
}

val ModelTrace::Step(const std::string& name, int layer, int head, Status* status) const {
  if (model_ == nullptr) {
    *status = UnknownStep("trace", "no trace: trace() did not succeed");
    return val::null();
  }
  const int layers = model_->config().layers;
  const int n = static_cast<int>(labels_.size());
  int width = 0;
  if (layer == -1) {
    const float* data = model_->Activation(name, -1, &width);
    // A step over the vocabulary has every position's rows only when the trace asked for them.
    const train::ActivationStep* step = train::FindModelStep(name);
    if (step != nullptr && model_->rows(step->width) != n) {
      *status = UnknownStep(
          "step", "step \"" + name + "\" was not traced: ask trace() for it (steps) to have it");
      return val::null();
    }
    if (data == nullptr) {
      *status = UnknownStep("step", "step \"" + name + "\" is not a model-wide step");
      return val::null();
    }
    return RowMajorView(data, n, width);
  }
  if (layer < 0 || layer >= layers) {
    *status = UnknownStep("layer", "layer (" + std::to_string(layer) + ") must be from 0 to " +
                                       std::to_string(layers - 1));
    return val::null();
  }
  // Block steps first: "q", "k", "v" and "concat" exist in both and are the same numbers.
  if (FindStep(name) == nullptr) {
    const float* data = model_->Activation(name, layer, &width);
    if (data == nullptr) {
      *status = UnknownStep("step", "step \"" + name + "\" does not exist in this model");
      return val::null();
    }
    return RowMajorView(data, n, width);
  }
  const Matrix* view = nullptr;
  *status = layers_[static_cast<size_t>(layer)].View(name, head, &view);
  if (!status->ok()) return val::null();
  return RowMajorView(view->data(), static_cast<int>(view->rows()), static_cast<int>(view->cols()));
}

}  // namespace attention::bindings
