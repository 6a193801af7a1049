#include "attention/train/trainer.hpp"

#include <algorithm>
#include <cmath>

#include "attention/train/model_io.hpp"
#include "attention/train/trainer_fields.hpp"
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
      loop_(config.model, config.optimizer, config.seed, config.threads),
      stream_(config.task, config.seed, Split::kTrain) {}

Status Trainer::Create(const TrainerConfig& config, std::unique_ptr<Trainer>* trainer,
                       const BeforeAllocation& before_allocation) {
  Status status = ValidateTaskConfig(config.task);
  if (!status.ok()) return status;
  const TaskLayout layout = LayoutOf(config.task);
  TrainerConfig resolved = config;
  resolved.model = ForTask(config.model, layout);
  status = ValidateTraining(resolved.model, config.optimizer, config.batch_size, config.threads);
  if (status.ok() && before_allocation)
    status = before_allocation(resolved.model, config.batch_size);
  if (!status.ok()) return status;
  trainer->reset(new Trainer(resolved, layout));
  return Status::Ok();
}

Status ValidateTraining(const ModelConfig& model, const AdamWConfig& optimizer, int batch_size,
                        int threads) {
  Status status = ValidateModelConfig(model);
  if (!status.ok()) return status;
  if (!(status = ValidateAdamWConfig(optimizer)).ok()) return status;
  TrainerConfig trainer;
  trainer.batch_size = batch_size;
  trainer.threads = threads;
  return ValidateFields(trainer, FieldSection::kTrainer);  // trainer_fields.cpp's rows
}

Status Trainer::Step(int count, StepMetrics* metrics) {
  return loop_.Step(
      count, [this] { return MakeBatch(stream_.Take(config_.batch_size)); }, metrics);
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
    if (!model().Forward(batch).ok()) return predicted;
    int width = 0;
    const float* logits = model().Activation("logits", -1, &width);
    const std::vector<int> best = ArgMaxRows(logits, batch.size * batch.length, width);
    for (int b = 0; b < batch.size; ++b) {
      predicted.emplace_back(best.begin() + b * batch.length,
                             best.begin() + (b + 1) * batch.length);
    }
    return predicted;
  };
}

HeadScores Trainer::ScoreHeldOutHeads(int count) {
  TaskStream held_out(config_.task, config_.seed, Split::kHeldOut);
  return ScoreHeads(&model(), held_out.Take(count), config_.batch_size);
}

Status Trainer::Predict(const std::vector<int>& input, std::vector<int>* prompt,
                        std::vector<int>* answer) {
  Status status = ValidateTaskInput(config_.task, input);
  if (!status.ok()) return status;
  const Example example = MakeExample(config_.task, input);
  // Every task's answer positions run from the first masked one to the end (tasks.hpp).
  const int first = static_cast<int>(std::find(example.mask.begin(), example.mask.end(), 1) -
                                     example.mask.begin());
  const int length = static_cast<int>(example.tokens.size());
  std::vector<std::vector<int>> sequence = {
      std::vector<int>(example.tokens.begin(), example.tokens.begin() + first + 1)};
  *prompt = sequence[0];
  answer->clear();
  const Predictor predict = MakePredictor();
  for (int position = first; position < length; ++position) {
    const std::vector<std::vector<int>> next = predict(sequence);
    if (next.empty() || next[0].empty()) {
      return Status(ErrorCode::kInvalidArgument, "input", "the model did not run on the input");
    }
    answer->push_back(next[0].back());
    sequence[0].push_back(next[0].back());
  }
  return Status::Ok();
}

Accuracy Trainer::Evaluate(int count, Decoding decoding) {
  TaskStream held_out(config_.task, config_.seed, Split::kHeldOut);
  return attention::train::Evaluate(config_.task, held_out.Take(count), MakePredictor(), decoding);
}

Status Trainer::Save(TensorType stored_as, std::vector<uint8_t>* bytes) const {
  FlatJson extra;
  // Every task row under its key (TaskFileKey), the kind by its name.
  for (const TrainerField& f : TrainerFields()) {
    if (f.section != FieldSection::kTask) continue;
    const double value = f.get(config_);
    if (f.kind == FieldKind::kEnum) {
      extra.SetString(TaskFileKey(f), f.values[static_cast<size_t>(value)]);
    } else {
      extra.SetNumber(TaskFileKey(f), value);
    }
  }
  extra.SetString("vocabulary", "task");
  return SaveModel(loop_.model(), layout_.symbols, extra, stored_as, bytes);
}

}  // namespace attention::train
