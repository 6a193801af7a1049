#include "attention/train/training_loop.hpp"

#include <chrono>
#include <cmath>

#include "format.hpp"

namespace attention::train {

Status ValidateStepCount(int count) {
  if (count < 1) {
    return Status(ErrorCode::kInvalidArgument, "count",
                  Format("count (%d) must be at least 1", count));
  }
  return Status::Ok();
}

TrainingLoop::TrainingLoop(const ModelConfig& model, const AdamWConfig& optimizer, uint32_t seed)
    : model_(model), optimizer_(optimizer, model_.layout()) {
  model_.InitParameters(seed);
}

Status TrainingLoop::Step(int count, const std::function<Batch()>& next_batch,
                          StepMetrics* metrics) {
  if (Status status = ValidateStepCount(count); !status.ok()) return status;
  if (diverged()) return diverged_;
  const auto start = std::chrono::steady_clock::now();
  double loss_sum = 0.0, tokens = 0.0;
  int64_t right = 0, counted = 0;
  StepReport report;
  for (int i = 0; i < count; ++i) {
    const Batch batch = next_batch();
    const Status status = model_.Forward(batch);
    if (status.code() == ErrorCode::kNonFinite) diverged_ = status;
    if (!status.ok()) return status;
    loss_sum += model_.loss();
    tokens += static_cast<double>(batch.size) * batch.length;
    // Accuracy over the targets the loss counts: logits [B·T × V], arg-max of each row.
    int width = 0;
    const float* logits = model_.Activation("logits", -1, &width);
    for (size_t n = 0; n < batch.targets.size(); ++n) {
      if (!batch.loss_weights.empty() && batch.loss_weights[n] == 0.0f) continue;
      const float* row = logits + n * static_cast<size_t>(width);
      int best = 0;
      for (int j = 1; j < width; ++j) best = row[j] > row[best] ? j : best;
      ++counted;
      right += best == batch.targets[n] ? 1 : 0;
    }
    model_.ZeroGradients();
    model_.Backward();
    report = optimizer_.Step(model_.parameters(), model_.gradients());
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  *metrics = StepMetrics();
  metrics->step = optimizer_.steps();
  metrics->loss = loss_sum / count;
  metrics->accuracy = counted > 0 ? static_cast<double>(right) / counted : 0.0;
  metrics->gradient_norm = report.gradient_norm;
  metrics->learning_rate = report.learning_rate;
  metrics->seconds = seconds;
  metrics->tokens_per_second = seconds > 0 ? tokens / seconds : 0.0;
  // The last batch's Forward and Backward are the model's last ones: nothing ran it since.
  const AttentionSummary attention = SummarizeAttention(model_.attention_stats());
  metrics->attention_entropy = attention.entropy;
  metrics->score_gradient_norm = attention.score_gradient_norm;
  // ∂L/∂(α·q·kᵀ) = ∂L/∂(q·kᵀ) / α.
  const ModelConfig& config = model_.config();
  metrics->softmax_gradient_norm =
      config.scale
          ? attention.score_gradient_norm * std::sqrt(static_cast<double>(config.ResolvedDK()))
          : attention.score_gradient_norm;
  return Status::Ok();
}

}  // namespace attention::train
