#include "model_handle.hpp"

#include <algorithm>
#include <cmath>

#include "convert.hpp"
#include "train_request.hpp"

namespace attention::bindings {
namespace {

using emscripten::val;

std::vector<uint8_t> ReadBytes(const val& bytes) {
  std::vector<uint8_t> out(bytes["length"].as<size_t>());
  val view(emscripten::typed_memory_view(out.size(), out.data()));
  view.call<void>("set", bytes);
  return out;
}

}  // namespace

Status ModelHandle::Fail(ErrorCode code, const std::string& field, const std::string& message) {
  status_ = Status(code, field, message);
  return status_;
}

train::Model<float>* ModelHandle::model() { return trainer_ ? &trainer_->model() : nullptr; }

bool ModelHandle::create(const val& config) {
  train::TrainerConfig trainer_config;
  train::ModelConfig model_config;
  status_ = ReadTrainerConfig(config, &trainer_config);
  if (status_.ok()) status_ = ResolveTrainerModel(trainer_config, &model_config);
  if (status_.ok()) status_ = train::Trainer::Create(trainer_config, &trainer_);
  if (!status_.ok()) return false;
  vocabulary_ = trainer_->layout().symbols;
  return true;
}

val ModelHandle::read(const val& bytes) {
  const std::vector<uint8_t> data = ReadBytes(bytes);
  status_ = train::ReadModelFile(data, &file_);
  if (!status_.ok()) return val::null();
  val out = val::object();
  out.set("configJson", file_.config_json);
  out.set("vocabulary", StringArray(file_.vocabulary));
  return out;
}

bool ModelHandle::build(const val& config) {
  trainer_.reset();
  train::TrainerConfig trainer_config;
  status_ = ReadTrainerConfig(config, &trainer_config);
  // The model the task implies (as Trainer::Create makes it), checked against the file's
  // tensors before anything is allocated: a forged configuration cannot make the engine
  // allocate more than the file holds.
  train::ModelConfig model_config;
  if (status_.ok()) status_ = ResolveTrainerModel(trainer_config, &model_config);
  if (!status_.ok()) {
    // A configuration the engine refuses is a fault of the file, not of the caller.
    status_ = Status(status_.code(), "model.config." + status_.field(), status_.message());
    return false;
  }
  if (static_cast<int>(file_.vocabulary.size()) != model_config.vocab_size) {
    Fail(ErrorCode::kShapeMismatch, "model.vocabulary",
         "the vocabulary has " + std::to_string(file_.vocabulary.size()) +
             " symbols but the configuration needs " + std::to_string(model_config.vocab_size));
    return false;
  }
  const std::vector<train::TensorInfo> layout = train::ParameterLayout(model_config);
  std::vector<const train::NamedTensor*> tensors(layout.size(), nullptr);
  for (size_t i = 0; i < layout.size(); ++i) {
    status_ =
        train::ExpectTensor(file_, layout[i].name, {layout[i].rows, layout[i].cols}, &tensors[i]);
    if (!status_.ok()) return false;
  }
  status_ = train::Trainer::Create(trainer_config, &trainer_);
  if (!status_.ok()) {
    status_ = Status(status_.code(), "model.config." + status_.field(), status_.message());
    return false;
  }
  train::Model<float>& m = trainer_->model();
  for (size_t i = 0; i < tensors.size(); ++i) {
    std::copy(tensors[i]->data.begin(), tensors[i]->data.end(), m.parameter(i));
  }
  vocabulary_ = file_.vocabulary;
  file_ = train::ModelFile();
  return true;
}

val ModelHandle::info() const {
  const train::Model<float>* m = trainer_ ? &trainer_->model() : nullptr;
  if (m == nullptr) return val::null();
  val out = val::object();
  out.set("parameterCount", static_cast<double>(m->parameter_count()));
  out.set("vocabulary", StringArray(vocabulary_));
  out.set("vocabSize", m->config().vocab_size);
  out.set("contextLength", m->config().context_length);
  if (trainer_) {
    out.set("sequenceLength", trainer_->layout().sequence_length);
    out.set("answerLength", trainer_->layout().answer_length);
    out.set("steps", trainer_->steps());
  }
  return out;
}

val ModelHandle::step(int count) {
  trace_.Clear();
  if (!trainer_) {
    Fail(ErrorCode::kInvalidArgument, "model", "no model: create() or build() did not succeed");
    return val::null();
  }
  train::StepMetrics metrics;
  status_ = trainer_->Step(count, &metrics);
  if (!status_.ok()) return val::null();
  val out = val::object();
  out.set("step", metrics.step);
  out.set("loss", metrics.loss);
  out.set("accuracy", metrics.accuracy);
  out.set("gradientNorm", metrics.gradient_norm);
  out.set("learningRate", metrics.learning_rate);
  out.set("tokensPerSecond", metrics.tokens_per_second);
  return out;
}

val ModelHandle::evaluate(int count) {
  trace_.Clear();
  if (!trainer_) {
    Fail(ErrorCode::kInvalidArgument, "model", "no model: create() or build() did not succeed");
    return val::null();
  }
  // Batches of the training batch size: the memory ResolveTrainerModel allowed for.
  const train::TrainerConfig& config = trainer_->config();
  train::TaskStream held_out(config.task, config.seed, train::Split::kHeldOut);
  const std::vector<train::Example> examples = held_out.Take(count);
  // The loss: Σ over answer positions of −ln p, over the answer positions of every example.
  double loss_sum = 0.0, weight_sum = 0.0;
  for (int start = 0; start < count; start += config.batch_size) {
    const int end = std::min(count, start + config.batch_size);
    const train::Batch batch = train::MakeBatch(
        std::vector<train::Example>(examples.begin() + start, examples.begin() + end));
    status_ = trainer_->model().Forward(batch);
    if (!status_.ok()) return val::null();
    double weight = 0.0;
    for (float w : batch.loss_weights) weight += w;
    loss_sum += static_cast<double>(trainer_->model().loss()) * weight;
    weight_sum += weight;
  }
  // Trainer::Evaluate's scoring, on the same held-out examples, in the same batches.
  const train::Accuracy accuracy = train::Evaluate(config.task, examples, trainer_->MakePredictor(),
                                                   train::Decoding::kGreedy, config.batch_size);
  val out = val::object();
  out.set("examples", accuracy.examples);
  out.set("exactMatch", accuracy.exact_match);
  out.set("tokenAccuracy", accuracy.token);
  out.set("loss", weight_sum > 0 ? loss_sum / weight_sum : 0.0);
  return out;
}

bool ModelHandle::trace(const val& tokens) {
  train::Model<float>* m = model();
  if (m == nullptr) {
    Fail(ErrorCode::kInvalidArgument, "model", "no model: create() or build() did not succeed");
    return false;
  }
  const std::vector<int> ids = emscripten::convertJSArrayToNumberVector<int>(tokens);
  std::vector<std::string> labels;
  labels.reserve(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] >= static_cast<int>(vocabulary_.size())) {
      Fail(ErrorCode::kInvalidArgument, "tokens[" + std::to_string(i) + "]",
           "tokens[" + std::to_string(i) + "] (" + std::to_string(ids[i]) +
               ") must be a token id from 0 to " + std::to_string(vocabulary_.size() - 1));
      return false;
    }
    labels.push_back(vocabulary_[static_cast<size_t>(ids[i])]);
  }
  status_ = trace_.Run(m, ids, labels);
  return status_.ok();
}

val ModelHandle::traceStep(const std::string& name, int layer, int head) {
  return trace_.Step(name, layer, head, &status_);
}

val ModelHandle::save(const std::string& config_json, bool float16) {
  const train::Model<float>* m = trainer_ ? &trainer_->model() : nullptr;
  if (m == nullptr) {
    Fail(ErrorCode::kInvalidArgument, "model", "no model: create() or build() did not succeed");
    return val::null();
  }
  train::ModelFile file;
  file.config_json = config_json;
  file.vocabulary = vocabulary_;
  for (const train::TensorInfo& info : m->layout()) {
    train::NamedTensor tensor;
    tensor.name = info.name;
    tensor.shape = {info.rows, info.cols};
    const float* data = m->parameters() + info.offset;
    tensor.data.assign(data, data + info.size());
    tensor.stored_as = float16 ? train::TensorType::kFloat16 : train::TensorType::kFloat32;
    file.tensors.push_back(std::move(tensor));
  }
  status_ = train::WriteModelFile(file, &saved_);
  if (!status_.ok()) return val::null();
  return val(emscripten::typed_memory_view(saved_.size(), saved_.data()));
}

}  // namespace attention::bindings
