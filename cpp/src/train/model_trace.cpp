#include "attention/train/model_trace.hpp"

#include <optional>
#include <utility>

#include "format.hpp"

namespace attention::train {

const std::vector<const char*>& BlockStepNames() {
  static const std::vector<const char*> names = {
      "ln1", "attention", "residual1", "ln2", "ffnHidden", "ffnActivation", "ffnOut", "residual2",
  };
  return names;
}

const std::vector<const char*>& ModelStepNames() {
  static const std::vector<const char*> names = {"embedding", "lnFinal", "logits", "probabilities"};
  return names;
}

namespace {

Matrix Rows(const float* data, int rows, int cols) {
  return Eigen::Map<const Matrix>(data, rows, cols);
}

// The explorer's configuration and inputs for layer `l`: x = what the attention reads, no
// positional encoding (already in the residual stream), the layer's weights and biases given.
Status AttentionTrace(Model<float>* model, int l, const std::vector<std::string>& labels,
                      Trace* out) {
  const ModelConfig& mc = model->config();
  Config config;
  config.d_model = mc.d_model;
  config.heads = mc.heads;
  config.d_k = mc.ResolvedDK();
  config.mask.type = mc.causal ? MaskType::kCausal : MaskType::kNone;
  config.scale = mc.scale;
  config.bias = true;
  config.output_projection = true;
  config.positional_encoding = false;
  config.embedding = EmbeddingSource::kGiven;
  Input input;
  input.tokens = labels;
  const int t = static_cast<int>(labels.size());
  int width = 0;
  const float* x = mc.has_layer_norm() ? model->Activation("ln1", l, &width) : nullptr;
  if (x == nullptr) {
    // Attention-only: the attention reads the layer's input, the previous residual stream.
    x = l == 0 ? model->Activation("embedding", -1, &width)
               : model->Activation(mc.has_ffn() ? "residual2" : "residual1", l - 1, &width);
  }
  input.given.x = Rows(x, t, mc.d_model);
  const std::pair<const char*, std::optional<Matrix>*> weights[] = {
      {"wQ", &input.given.w_q}, {"wK", &input.given.w_k}, {"wV", &input.given.w_v},
      {"wO", &input.given.w_o}, {"bQ", &input.given.b_q}, {"bK", &input.given.b_k},
      {"bV", &input.given.b_v}, {"bO", &input.given.b_o},
  };
  for (const auto& [name, slot] : weights) {
    const TensorInfo* info = model->FindTensor(Format("layers.%d.%s", l, name));
    *slot = Rows(model->parameters() + info->offset, info->rows, info->cols);
  }
  return Trace::Run(config, input, out);
}

}  // namespace

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
    status = AttentionTrace(model, l, names, &trace.attention_.back());
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
