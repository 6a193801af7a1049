#include "model_handle.hpp"

#include <algorithm>
#include <cmath>

#include "attention/train/flat_json.hpp"
#include "attention/train/language_model.hpp"
#include "attention/train/model_file.hpp"
#include "attention/train/model_io.hpp"
#include "attention/train/trainer_fields.hpp"
#include "convert.hpp"
#include "request.hpp"
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

// The trainer configuration a task model's file describes: its model keys (model_io.hpp), the
// task keys Trainer::Save writes, and the trainer's defaults for the rest, with the largest
// batch (≤ 64) within the memory limit. Nothing is allocated.
Status TaskTrainerConfig(const train::FlatJson& json, const train::ModelConfig& model,
                         train::TrainerConfig* config) {
  // Every task row under its key (train::TaskFileKey), as Trainer::Save writes them.
  Status status;
  for (const train::TrainerField& f : train::TrainerFields()) {
    if (f.section != train::FieldSection::kTask) continue;
    if (f.kind == train::FieldKind::kEnum) {
      std::string task;
      status = json.GetString(train::TaskFileKey(f), &task);
      if (status.ok()) status = train::ParseTaskKind(task, &config->task.kind);
      if (!status.ok() && status.field() == "task") {
        return Status(status.code(), "model.config.task", "model.config." + status.message());
      }
    } else {
      int value = 0;
      status = json.GetInt(train::TaskFileKey(f), &value);
      if (status.ok()) f.set(config, value);
    }
    if (!status.ok()) return status;
  }
  config->model = model;  // checked by ModelConfigFromJson
  // LayoutOf reads a valid task only; Trainer::Create checks the whole configuration later.
  if (status.ok()) status = train::ValidateTaskConfig(config->task);
  if (!status.ok()) {
    return Status(status.code(), "model.config." + status.field(), status.message());
  }
  // The task must give the model the vocabulary and context the file says it has.
  const train::TaskLayout layout = train::LayoutOf(config->task);
  if (layout.vocab_size != model.vocab_size || layout.sequence_length != model.context_length) {
    return Status(ErrorCode::kShapeMismatch, "model.config.task",
                  "model.config.task makes vocabSize " + std::to_string(layout.vocab_size) +
                      " and contextLength " + std::to_string(layout.sequence_length) +
                      "; the model has " + std::to_string(model.vocab_size) + " and " +
                      std::to_string(model.context_length));
  }
  for (config->batch_size = 64;; config->batch_size /= 2) {
    status = CheckTrainingMemory(model, config->batch_size, model.context_length, "length");
    if (status.ok() || config->batch_size == 1) break;
  }
  if (!status.ok()) {
    return Status(status.code(), "model.config." + status.field(), status.message());
  }
  return Status::Ok();
}

}  // namespace

Status ModelHandle::Fail(ErrorCode code, const std::string& field, const std::string& message) {
  status_ = Status(code, field, message);
  return status_;
}

train::Model<float>* ModelHandle::model() {
  if (trainer_) return &trainer_->model();
  return corpus_trainer_ ? &corpus_trainer_->model() : corpus_model_.get();
}

void ModelHandle::FailNoTrainer(const std::string& call) {
  if (corpus_reader_) {
    Fail(ErrorCode::kInvalidArgument, "model",
         call + "() needs a toy-task model; this is a " +
             train::VocabularyLevelName(corpus_reader_->vocabulary.level()) +
             "-level language model (trace, predict and generate read text)");
  } else if (corpus_model_) {
    Fail(ErrorCode::kInvalidArgument, "model",
         call +
             "() needs a toy-task model; this is a GPT-2 checkpoint (trace and generate read "
             "token ids)");
  } else {
    Fail(ErrorCode::kInvalidArgument, "model", "no model: create() or load() did not succeed");
  }
}

train::Trainer* ModelHandle::trainer(const std::string& call) {
  if (!trainer_) FailNoTrainer(call);
  return trainer_.get();
}

bool ModelHandle::create(const val& config) {
  DropModel();
  train::TrainerConfig trainer_config;
  status_ = ReadTrainerConfig(config, &trainer_config);
  if (status_.ok())
    status_ = train::Trainer::Create(trainer_config, &trainer_, MemoryCap("length"));
  if (!status_.ok()) return false;
  vocabulary_ = trainer_->layout().symbols;
  return true;
}

void ModelHandle::DropModel() {
  trace_.Clear();
  roles_.reset();  // it points into the model replaced here
  trainer_.reset();
  corpus_trainer_.reset();
  corpus_text_.reset();
  corpus_model_.reset();
  corpus_reader_.reset();
}

bool ModelHandle::load(const val& bytes) {
  DropModel();
  const std::vector<uint8_t> data = ReadBytes(bytes);
  // LoadModel's checks in its order, but every tensor is checked against the configuration
  // before a model is allocated: a forged configuration cannot make the engine allocate more
  // than the file holds.
  train::ModelFile file;
  train::FlatJson json;
  train::ModelConfig model;
  train::TrainerConfig trainer_config;
  status_ = train::ReadModelFile(data, &file);
  if (status_.ok()) status_ = train::FlatJson::Parse(file.config_json, "model.config", &json);
  if (status_.ok()) status_ = train::ModelConfigFromJson(json, &model);
  if (status_.ok() && static_cast<int>(file.vocabulary.size()) != model.vocab_size) {
    Fail(ErrorCode::kShapeMismatch, "model.vocabulary",
         "model.vocabulary has " + std::to_string(file.vocabulary.size()) +
             " symbols; model.config.vocabSize is " + std::to_string(model.vocab_size));
  }
  // "task": a toy-task model and its trainer; "character" or "word": a corpus language model.
  std::string level;
  std::unique_ptr<train::TextReader> corpus;
  if (status_.ok()) status_ = json.GetString("vocabulary", &level);
  if (status_.ok() && level == "task") {
    status_ = TaskTrainerConfig(json, model, &trainer_config);
  } else if (status_.ok()) {
    corpus = std::make_unique<train::TextReader>();
    status_ = train::LoadTextReader(json, file.vocabulary, corpus.get());
  }
  if (!status_.ok()) return false;
  const std::vector<train::TensorInfo> layout = train::ParameterLayout(model);
  std::vector<const train::NamedTensor*> tensors(layout.size(), nullptr);
  for (size_t i = 0; i < layout.size(); ++i) {
    status_ =
        train::ExpectTensor(file, layout[i].name, {layout[i].rows, layout[i].cols}, &tensors[i]);
    if (!status_.ok()) return false;
  }
  if (file.tensors.size() != layout.size()) {
    Fail(ErrorCode::kInvalidArgument, "model.tensors",
         "the file holds " + std::to_string(file.tensors.size()) + " tensors; this model has " +
             std::to_string(layout.size()));
    return false;
  }
  if (corpus) {
    corpus_model_ = std::make_unique<train::Model<float>>(model);
    corpus_reader_ = std::move(corpus);
  } else {
    status_ = train::Trainer::Create(trainer_config, &trainer_);
    if (!status_.ok()) return false;
  }
  train::Model<float>& m = *this->model();
  for (size_t i = 0; i < tensors.size(); ++i) {
    std::copy(tensors[i]->data.begin(), tensors[i]->data.end(), m.parameter(i));
  }
  vocabulary_ = std::move(file.vocabulary);
  config_json_ = json.Write();
  return true;
}

val ModelHandle::info() const {
  const train::Model<float>* m = trainer_          ? &trainer_->model()
                                 : corpus_trainer_ ? &corpus_trainer_->model()
                                                   : corpus_model_.get();
  if (m == nullptr) return val::null();
  val out = val::object();
  out.set("parameterCount", static_cast<double>(m->parameter_count()));
  out.set("vocabulary", StringArray(vocabulary_));
  out.set("vocabSize", m->config().vocab_size);
  out.set("contextLength", m->config().context_length);
  out.set(
      "vocabularyLevel",
      std::string(corpus_reader_ ? train::VocabularyLevelName(corpus_reader_->vocabulary.level())
                                 : "task"));
  // A loaded model: its file's configuration, as flat JSON.
  if (!config_json_.empty()) out.set("configJson", config_json_);
  if (trainer_) {
    out.set("sequenceLength", trainer_->layout().sequence_length);
    out.set("answerLength", trainer_->layout().answer_length);
    out.set("steps", trainer_->steps());
  }
  if (corpus_trainer_) out.set("steps", corpus_trainer_->steps());
  return out;
}

val ModelHandle::step(int count) {
  trace_.Clear();
  if (!trainer_ && !corpus_trainer_) {
    FailNoTrainer("step");
    return val::null();
  }
  train::StepMetrics metrics;
  status_ = trainer_ ? trainer_->Step(count, &metrics) : corpus_trainer_->Step(count, &metrics);
  if (!status_.ok()) return val::null();
  val out = val::object();
  out.set("step", metrics.step);
  out.set("loss", metrics.loss);
  out.set("accuracy", metrics.accuracy);
  out.set("gradientNorm", metrics.gradient_norm);
  out.set("learningRate", metrics.learning_rate);
  out.set("tokensPerSecond", metrics.tokens_per_second);
  out.set("attentionEntropy", metrics.attention_entropy);
  out.set("scoreGradientNorm", metrics.score_gradient_norm);
  out.set("softmaxGradientNorm", metrics.softmax_gradient_norm);
  return out;
}

val ModelHandle::evaluate(int count) {
  trace_.Clear();
  if (!trainer_) {
    FailNoTrainer("evaluate");
    return val::null();
  }
  // Batches of the training batch size: the memory MemoryCap allowed for.
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

train::Model<float>* ModelHandle::ModelFor(const val& tokens, std::vector<int>* ids) {
  train::Model<float>* m = model();
  if (m == nullptr) {
    Fail(ErrorCode::kInvalidArgument, "model", "no model: create() or load() did not succeed");
    return nullptr;
  }
  *ids = emscripten::convertJSArrayToNumberVector<int>(tokens);
  for (size_t i = 0; i < ids->size(); ++i) {
    const int id = (*ids)[i];
    if (id < 0 || id >= static_cast<int>(vocabulary_.size())) {
      Fail(ErrorCode::kInvalidArgument, "tokens[" + std::to_string(i) + "]",
           "tokens[" + std::to_string(i) + "] (" + std::to_string(id) +
               ") must be a token id from 0 to " + std::to_string(vocabulary_.size() - 1));
      return nullptr;
    }
  }
  return m;
}

bool ModelHandle::trace(const val& tokens, bool every_position) {
  std::vector<int> ids;
  train::Model<float>* m = ModelFor(tokens, &ids);
  if (m == nullptr) return false;
  std::vector<std::string> labels;
  labels.reserve(ids.size());
  for (const int id : ids) labels.push_back(vocabulary_[static_cast<size_t>(id)]);
  status_ =
      trace_.Run(m, ids, labels,
                 every_position ? train::Outputs::kEveryPosition : train::Outputs::kLastPosition);
  return status_.ok();
}

// Runs the model on `tokens` through `layer` only (no logits), for what that layer reads; null
// after recording the error.
train::Model<float>* ModelHandle::ThroughLayer(const val& tokens, int layer,
                                               std::vector<int>* ids) {
  trace_.Clear();  // the model runs again: the last trace's activations are gone
  train::Model<float>* m = ModelFor(tokens, ids);
  if (m == nullptr) return nullptr;
  const int layers = m->config().layers;
  if (layer < 0 || layer >= layers) {
    Fail(ErrorCode::kInvalidArgument, "layer",
         "layer (" + std::to_string(layer) + ") must be an integer from 0 to " +
             std::to_string(layers - 1));
    return nullptr;
  }
  train::Batch batch;
  batch.size = 1;
  batch.length = static_cast<int>(ids->size());
  batch.tokens = *ids;
  // Sized as a pass of the last position's logits: no [T × V] buffers for a layer's input.
  status_ = m->ForwardThrough(batch, layer, train::Outputs::kLastPosition);
  return status_.ok() ? m : nullptr;
}

val ModelHandle::layerInput(const val& tokens, int layer) {
  std::vector<int> ids;
  const train::Model<float>* m = ThroughLayer(tokens, layer, &ids);
  if (m == nullptr) return val::null();
  int width = 0;
  const float* x = train::AttentionInput(*m, layer, &width);
  const int rows = static_cast<int>(ids.size());
  val out = val::object();
  out.set("rows", rows);
  out.set("cols", width);
  out.set("data", val(emscripten::typed_memory_view(static_cast<size_t>(rows) * width, x)));
  return out;
}

val ModelHandle::layerOptions(const val& tokens, int layer) {
  std::vector<int> ids;
  const train::Model<float>* m = ThroughLayer(tokens, layer, &ids);
  if (m == nullptr) return val::null();
  std::vector<std::string> labels;
  labels.reserve(ids.size());
  for (const int id : ids) labels.push_back(vocabulary_[static_cast<size_t>(id)]);
  Config config;
  status_ = train::LayerTraceInputs(*m, layer, labels, &config, &layer_options_);
  return status_.ok() ? WriteRequest(config, layer_options_) : val::null();
}

val ModelHandle::traceStep(const std::string& name, int layer, int head) {
  return trace_.Step(name, layer, head, &status_);
}

val ModelHandle::save(bool float16) {
  const train::TensorType type =
      float16 ? train::TensorType::kFloat16 : train::TensorType::kFloat32;
  if (corpus_trainer_) {
    // The file records the held-out loss of the weights it holds.
    corpus_info_.trained_steps = corpus_trainer_->steps();
    status_ = train::HeldOutLoss(&corpus_trainer_->model(), corpus_text_->held_out_ids(),
                                 &corpus_info_.held_out_loss);
    if (status_.ok()) {
      status_ = train::SaveCorpusModel(corpus_trainer_->model(), corpus_text_->vocabulary(),
                                       corpus_info_, type, &saved_);
    }
  } else if (corpus_model_ && !corpus_reader_) {
    // A model file names how its text is read; a checkpoint has no reader yet (a tokenizer's).
    Fail(ErrorCode::kInvalidArgument, "model",
         "save() writes models the engine trained or read from its model files; a GPT-2 "
         "checkpoint stays in its config.json and model.safetensors");
    return val::null();
  } else if (corpus_model_) {
    status_ = train::SaveCorpusModel(*corpus_model_, vocabulary_, config_json_, type, &saved_);
  } else if (trainer_) {
    status_ = trainer_->Save(type, &saved_);
  } else {
    Fail(ErrorCode::kInvalidArgument, "model", "no model: create() or load() did not succeed");
    return val::null();
  }
  if (!status_.ok()) return val::null();
  return val(emscripten::typed_memory_view(saved_.size(), saved_.data()));
}

}  // namespace attention::bindings
