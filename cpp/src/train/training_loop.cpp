#include "attention/train/training_loop.hpp"

#include <algorithm>
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

namespace {

// Sequences first … first + count − 1 of `batch`.
Batch Slice(const Batch& batch, int first, int count) {
  Batch part;
  part.size = count;
  part.length = batch.length;
  const auto range = [&](const auto& all, auto* out) {
    if (all.empty()) return;
    const size_t from = static_cast<size_t>(first) * batch.length;
    out->assign(all.begin() + from, all.begin() + from + static_cast<size_t>(count) * batch.length);
  };
  range(batch.tokens, &part.tokens);
  range(batch.targets, &part.targets);
  range(batch.loss_weights, &part.loss_weights);
  return part;
}

// Σ w over the batch's targets (each weighs 1 without loss_weights): the loss's denominator.
double LossWeight(const Batch& batch) {
  if (batch.loss_weights.empty()) return static_cast<double>(batch.targets.size());
  double sum = 0.0;
  for (float w : batch.loss_weights) sum += w;
  return sum;
}

// Of the targets the loss counts, how many the model's last Forward ranked first.
void CountHits(const Model<float>& model, const Batch& batch, int64_t* right, int64_t* counted) {
  int width = 0;
  const float* logits = model.Activation("logits", -1, &width);  // [B·T × V]
  for (size_t n = 0; n < batch.targets.size(); ++n) {
    if (!batch.loss_weights.empty() && batch.loss_weights[n] == 0.0f) continue;
    const float* row = logits + n * static_cast<size_t>(width);
    int best = 0;
    for (int j = 1; j < width; ++j) best = row[j] > row[best] ? j : best;
    ++*counted;
    *right += best == batch.targets[n] ? 1 : 0;
  }
}

// Parameters per piece of the shards' gradient sum: fixed, so that the pieces, and with them
// the numbers, do not depend on the pool's size.
constexpr size_t kReduceChunk = size_t{1} << 16;

}  // namespace

TrainingLoop::TrainingLoop(const ModelConfig& model, const AdamWConfig& optimizer, uint32_t seed,
                           int threads)
    : model_(model),
      optimizer_(optimizer, model_.layout()),
      threads_(std::max(1, threads)),
      pool_(&SharedPool()) {
  model_.InitParameters(seed);
  replicas_.reserve(static_cast<size_t>(threads_ - 1));
  for (int i = 1; i < threads_; ++i) replicas_.emplace_back(model);
}

TrainingLoop::~TrainingLoop() = default;

Status TrainingLoop::Update(const Batch& batch, double* loss_sum, int64_t* right, int64_t* counted,
                            StepReport* report) {
  // Shard s holds sequences B·s/S … B·(s + 1)/S − 1. A shard without loss weight has no mean
  // loss: such a batch runs whole.
  const int shards = std::min(threads_, batch.size);
  std::vector<Batch> parts;
  std::vector<double> weights;
  for (int s = 0; s < shards; ++s) {
    const int first = batch.size * s / shards, last = batch.size * (s + 1) / shards;
    parts.push_back(shards == 1 ? batch : Slice(batch, first, last - first));
    weights.push_back(LossWeight(parts.back()));
  }
  if (std::find(weights.begin(), weights.end(), 0.0) != weights.end()) {
    parts.assign(1, batch);
    weights.assign(1, LossWeight(batch));
  }
  const int n = static_cast<int>(parts.size());
  const auto replica = [this](int s) -> Model<float>& {
    return s == 0 ? model_ : replicas_[s - 1];
  };
  const size_t count = model_.parameter_count();
  for (int s = 1; s < n; ++s) {
    std::copy(model_.parameters(), model_.parameters() + count, replica(s).parameters());
  }
  std::vector<Status> status(static_cast<size_t>(n));
  pool_->Run(n, [&](int s) {
    Model<float>& m = replica(s);
    status[s] = m.Forward(parts[s]);
    if (!status[s].ok()) return;
    m.ZeroGradients();
    status[s] = m.Backward();
  });
  for (const Status& st : status) {
    if (st.code() == ErrorCode::kNonFinite) diverged_ = st;
    if (!st.ok()) return st;
  }
  double total = 0.0, loss = 0.0;
  for (int s = 0; s < n; ++s) total += weights[s];
  // Shard s's share Wₛ / W; a batch run whole is all of it, even when no target counts (an
  // induction batch of a small alphabet can have no determined answer: W = 0, loss 0).
  const auto share = [&](int s) { return n == 1 ? 1.0 : weights[s] / total; };
  for (int s = 0; s < n; ++s) {
    loss += share(s) * static_cast<double>(replica(s).loss());
    CountHits(replica(s), parts[s], right, counted);
  }
  // ∇ of the batch's mean loss = Σₛ (Wₛ / W) · ∇ of shard s's mean loss, added in shard order.
  if (n > 1) {
    const int chunks = static_cast<int>((count + kReduceChunk - 1) / kReduceChunk);
    pool_->Run(chunks, [&](int c) {
      const size_t from = static_cast<size_t>(c) * kReduceChunk;
      const size_t to = std::min(count, from + kReduceChunk);
      float* sum = model_.gradients();
      const float share0 = static_cast<float>(share(0));
      for (size_t j = from; j < to; ++j) sum[j] *= share0;
      for (int s = 1; s < n; ++s) {
        const float part = static_cast<float>(share(s));
        const float* g = replica(s).gradients();
        for (size_t j = from; j < to; ++j) sum[j] += part * g[j];
      }
    });
  }
  *report = optimizer_.Step(model_.parameters(), model_.gradients());
  *loss_sum += loss;
  // The softmax statistics of the whole batch: sums over the shards; ∂L/∂scores of shard s
  // enters the batch's gradient times Wₛ / W, so its squares times (Wₛ / W)².
  std::vector<AttentionStats> stats = model_.attention_stats();
  for (AttentionStats& layer : stats) layer.dscores_sq_sum *= std::pow(share(0), 2);
  for (int s = 1; s < n; ++s) {
    const std::vector<AttentionStats>& more = replica(s).attention_stats();
    for (size_t l = 0; l < stats.size(); ++l) {
      stats[l].entropy_sum += more[l].entropy_sum;
      stats[l].rows += more[l].rows;
      stats[l].max_weight = std::max(stats[l].max_weight, more[l].max_weight);
      stats[l].dscores_sq_sum += more[l].dscores_sq_sum * std::pow(share(s), 2);
    }
  }
  attention_ = SummarizeAttention(stats);
  return Status::Ok();
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
    const Status status = Update(batch, &loss_sum, &right, &counted, &report);
    if (!status.ok()) return status;
    tokens += static_cast<double>(batch.size) * batch.length;
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
  metrics->attention_entropy = attention_.entropy;
  metrics->score_gradient_norm = attention_.score_gradient_norm;
  // ∂L/∂(α·q·kᵀ) = ∂L/∂(q·kᵀ) / α.
  const ModelConfig& config = model_.config();
  metrics->softmax_gradient_norm =
      config.scale
          ? attention_.score_gradient_norm * std::sqrt(static_cast<double>(config.ResolvedDK()))
          : attention_.score_gradient_norm;
  return Status::Ok();
}

}  // namespace attention::train
