#include "attention/train/model_trace.hpp"

#include <utility>

#include "attention/given.hpp"
#include "format.hpp"

namespace attention::train {

namespace {

template <size_t N>
std::vector<const char*> TracedNames(const ActivationStep (&steps)[N]) {
  std::vector<const char*> names;
  for (const ActivationStep& step : steps) {
    if (step.traced) names.push_back(step.name);
  }
  return names;
}

}  // namespace

const std::vector<const char*>& BlockStepNames() {
  static const std::vector<const char*> names = TracedNames(kBlockSteps);
  return names;
}

const std::vector<const char*>& ModelStepNames() {
  static const std::vector<const char*> names = TracedNames(kModelSteps);
  return names;
}

namespace {

Matrix Rows(const float* data, int rows, int cols) {
  return Eigen::Map<const Matrix>(data, rows, cols);
}

}  // namespace

const float* AttentionInput(const Model<float>& model, int layer, int* width) {
  // LN₁ of the block input, or the input itself without LayerNorm.
  const float* x = model.Activation("ln1", layer, width);
  if (x != nullptr) return x;
  return layer == 0 ? model.Activation("embedding", -1, width)
                    : model.Activation(model.config().has_ffn() ? "residual2" : "residual1",
                                       layer - 1, width);
}

Status LayerTraceInputs(const Model<float>& model, int layer,
                        const std::vector<std::string>& labels, Config* config, Input* input) {
  const ModelConfig& mc = model.config();
  if (layer < 0 || layer >= mc.layers) {
    return Status(ErrorCode::kInvalidArgument, "layer",
                  Format("layer (%d) must be an integer from 0 to %d", layer, mc.layers - 1));
  }
  int width = 0;
  const float* x = AttentionInput(model, layer, &width);
  if (x == nullptr) {
    return Status(ErrorCode::kUnknownStep, "model",
                  Format("layer %d has not run: no forward pass reached it", layer));
  }
  Config c;
  c.d_model = mc.d_model;
  c.heads = mc.heads;
  c.d_k = mc.ResolvedDK();
  c.mask.type = mc.causal ? MaskType::kCausal : MaskType::kNone;
  c.scale = mc.scale;
  c.bias = true;
  c.output_projection = true;
  c.positional_encoding = false;
  c.embedding = EmbeddingSource::kGiven;
  Input in;
  in.tokens = labels;
  in.given.x = Rows(x, static_cast<int>(labels.size()), width);
  // Every weight and bias the explorer can be given, by its own name: "wQ" is "layers.<l>.wQ".
  for (const GivenSlot& slot : kGivenSlots) {
    if (slot.weight == nullptr) continue;  // x, xKv: inputs, not weights
    const TensorInfo* info = model.FindTensor(Format("layers.%d.%s", layer, slot.name));
    if (info == nullptr) {
      return Status(ErrorCode::kUnknownStep, "model",
                    Format("the model has no tensor layers.%d.%s", layer, slot.name));
    }
    in.given.*slot.given = Rows(model.parameters() + info->offset, info->rows, info->cols);
  }
  *config = c;
  *input = std::move(in);
  return Status::Ok();
}

Status TraceLayer(const Model<float>& model, int layer, const std::vector<std::string>& labels,
                  Trace* out, ThreadPool* pool) {
  Config config;
  Input input;
  Status status = LayerTraceInputs(model, layer, labels, &config, &input);
  if (status.ok()) status = Trace::Run(config, input, out, nullptr, pool);
  if (status.code() != ErrorCode::kNonFinite) return status;
  return Status(ErrorCode::kNonFinite, "model",
                Format("this model's forward pass overflows at layer %d (its %s, as the explorer "
                       "computes it, is not a finite number): its weights are too large for "
                       "float arithmetic",
                       layer, status.field().c_str()));
}

Status TraceModel(Model<float>* model, const std::vector<int>& tokens,
                  const std::vector<std::string>& labels, ModelTrace* out) {
  const ModelConfig& mc = model->config();
  Batch batch;
  batch.size = 1;
  batch.length = static_cast<int>(tokens.size());
  batch.tokens = tokens;
  Status status = model->Forward(batch);
  if (!status.ok()) return status;
  std::vector<std::string> names = labels;
  if (names.empty()) {
    for (int id : tokens) names.push_back(std::to_string(id));
  }
  if (names.size() != tokens.size()) {
    return Status(ErrorCode::kShapeMismatch, "labels",
                  Format("labels must be empty or hold one text per token (%zu), got %zu",
                         tokens.size(), names.size()));
  }
  ModelTrace trace;
  trace.length_ = batch.length;
  auto record = [&](const char* name, int layer) {
    int width = 0;
    const float* data = model->Activation(name, layer, &width);
    if (data != nullptr) trace.steps_.push_back({name, layer, Rows(data, batch.length, width)});
  };
  record("embedding", -1);
  for (int l = 0; l < mc.layers; ++l) {
    trace.attention_.emplace_back();
    status = TraceLayer(*model, l, names, &trace.attention_.back());
    if (!status.ok()) return status;
    for (const char* name : BlockStepNames()) record(name, l);
  }
  for (const char* name : ModelStepNames()) {
    if (std::string_view(name) != "embedding") record(name, -1);
  }
  *out = std::move(trace);
  return Status::Ok();
}

Status ModelTrace::Copy(std::string_view name, int layer, int head, Matrix* out) const {
  if (layer < -1 || layer >= layers()) {
    return Status(ErrorCode::kUnknownStep, "layer",
                  Format("layer (%d) must be from 0 to %d, or −1 for the model-wide steps", layer,
                         layers() - 1));
  }
  for (const Step& step : steps_) {
    if (step.name == name && step.layer == layer) {
      if (head != 0) {
        return Status(
            ErrorCode::kUnknownStep, "head",
            Format("head (%d) must be 0: step \"%s\" is not per head", head, step.name.c_str()));
      }
      *out = step.value;
      return Status::Ok();
    }
  }
  if (layer >= 0 && FindStep(name) != nullptr) return attention(layer).Copy(name, head, out);
  std::string known;
  for (const Step& step : steps_) {
    if (step.layer != layer) continue;
    known += (known.empty() ? "" : ", ") + step.name;
  }
  if (layer >= 0) known += ", and the attention steps (q, k, v, scores, weights, output, …)";
  return Status(ErrorCode::kUnknownStep, "step",
                Format("step \"%.*s\" does not exist at layer %d; steps there are: %s",
                       static_cast<int>(name.size()), name.data(), layer, known.c_str()));
}

}  // namespace attention::train
