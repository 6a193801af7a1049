#include "attention/train/trainer.hpp"

#include <chrono>
#include <cmath>

#include "attention/train/model_io.hpp"
#include "format.hpp"

namespace attention::train {
namespace {

// The model's config with the task's vocabulary and sequence length.
ModelConfig ForTask(ModelConfig model, const TaskLayout& layout) {
  model.vocab_size = layout.vocab_size;
  model.context_length = layout.sequence_length;
  return model;
}

// Arg-max of each row of `values` [rows × width].
std::vector<int> ArgMaxRows(const float* values, int rows, int width) {
  std::vector<int> best(static_cast<size_t>(rows), 0);
  for (int r = 0; r < rows; ++r) {
    const float* row = values + static_cast<size_t>(r) * width;
    for (int j = 1; j < width; ++j) {
      if (row[j] > row[best[r]]) best[r] = j;
    }
  }
  return best;
}

}  // namespace

Trainer::Trainer(const TrainerConfig& config, const TaskLayout& layout)
    : config_(config),
      layout_(layout),
      model_(config.model),
      optimizer_(config.optimizer, model_.layout()),
      stream_(config.task, config.seed, Split::kTrain) {
  model_.InitParameters(config.seed);
}

Status Trainer::Create(const TrainerConfig& config, std::unique_ptr<Trainer>* trainer) {
  Status status = ValidateTaskConfig(config.task);
  if (!status.ok()) return status;
  const TaskLayout layout = LayoutOf(config.task);
  TrainerConfig resolved = config;
  resolved.model = ForTask(config.model, layout);
  status = ValidateTraining(resolved.model, config.optimizer, config.batch_size);
  if (!status.ok()) return status;
  trainer->reset(new Trainer(resolved, layout));
  return Status::Ok();
}

Status ValidateTraining(const ModelConfig& model, const AdamWConfig& optimizer, int batch_size) {
  Status status = ValidateModelConfig(model);
  if (!status.ok()) return status;
  if (!(status = ValidateAdamWConfig(optimizer)).ok()) return status;
  if (batch_size < 1 || batch_size > TrainerConfig::kMaxBatch) {
    return Status(ErrorCode::kInvalidArgument, "batchSize",
                  Format("batchSize (%d) must be an integer from 1 to %d", batch_size,
                         TrainerConfig::kMaxBatch));
  }
  return Status::Ok();
}

Status ValidateStepCount(int count) {
  if (count < 1) {
    return Status(ErrorCode::kInvalidArgument, "count",
                  Format("count (%d) must be at least 1", count));
  }
  return Status::Ok();
}

Status Trainer::Step(int count, StepMetrics* metrics) {
  if (Status status = ValidateStepCount(count); !status.ok()) return status;
  const auto start = std::chrono::steady_clock::now();
  double loss_sum = 0.0;
  int64_t right = 0, answers = 0;
  StepReport report;
  for (int i = 0; i < count; ++i) {
    const Batch batch = MakeBatch(stream_.Take(config_.batch_size));
    Status status = model_.Forward(batch);
    if (!status.ok()) return status;
    loss_sum += model_.loss();
    int width = 0;
    const float* logits = model_.Activation("logits", -1, &width);
    const std::vector<int> best = ArgMaxRows(logits, static_cast<int>(batch.tokens.size()), width);
    for (size_t n = 0; n < best.size(); ++n) {
      if (batch.loss_weights[n] == 0.0f) continue;
      ++answers;
      right += best[n] == batch.targets[n] ? 1 : 0;
    }
    model_.ZeroGradients();
    model_.Backward();
    report = optimizer_.Step(model_.parameters(), model_.gradients());
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  metrics->step = optimizer_.steps();
  metrics->loss = loss_sum / count;
  metrics->accuracy = answers > 0 ? static_cast<double>(right) / answers : 0.0;
  metrics->gradient_norm = report.gradient_norm;
  metrics->learning_rate = report.learning_rate;
  const double tokens = static_cast<double>(config_.batch_size) * layout_.sequence_length * count;
  metrics->tokens_per_second = seconds > 0 ? tokens / seconds : 0.0;
  return Status::Ok();
}

Predictor Trainer::MakePredictor() {
  return [this](const std::vector<std::vector<int>>& sequences) {
    std::vector<std::vector<int>> predicted;
    if (sequences.empty() || sequences[0].empty()) return predicted;
    Batch batch;
    batch.size = static_cast<int>(sequences.size());
    batch.length = static_cast<int>(sequences[0].size());
    for (const std::vector<int>& s : sequences) {
      batch.tokens.insert(batch.tokens.end(), s.begin(), s.end());
    }
    // Without targets a forward pass cannot fail on a batch of valid tokens.
    if (!model_.Forward(batch).ok()) return predicted;
    int width = 0;
    const float* logits = model_.Activation("logits", -1, &width);
    const std::vector<int> best = ArgMaxRows(logits, batch.size * batch.length, width);
    for (int b = 0; b < batch.size; ++b) {
      predicted.emplace_back(best.begin() + b * batch.length,
                             best.begin() + (b + 1) * batch.length);
    }
    return predicted;
  };
}

Accuracy Trainer::Evaluate(int count, Decoding decoding) {
  TaskStream held_out(config_.task, config_.seed, Split::kHeldOut);
  return attention::train::Evaluate(config_.task, held_out.Take(count), MakePredictor(), decoding);
}

Status Trainer::Save(TensorType stored_as, std::vector<uint8_t>* bytes) const {
  FlatJson extra;
  extra.SetString("task", TaskKindName(config_.task.kind));
  extra.SetNumber("taskLength", config_.task.length);
  extra.SetNumber("taskAlphabet", config_.task.alphabet);
  extra.SetNumber("taskModulus", config_.task.modulus);
  extra.SetString("vocabulary", "task");
  return SaveModel(model_, layout_.symbols, extra, stored_as, bytes);
}

}  // namespace attention::train
