// The one update loop of every trainer (the task Trainer and the CorpusTrainer): a model, AdamW,
// and the step that both run on their own batches, with the same metrics. After a loss that is
// not finite the weights hold NaN or ±Infinity: the loop refuses every later step with that
// error, as the JS API refuses every later call.
//
// With `threads` > 1 each batch is split into that many shards of whole sequences (as even as
// the batch size allows), each run forward and backward by a replica of the model on a thread
// of the process's pool (SharedPool, parallel.hpp), and the shards' gradients are added in shard
// order, each weighted by its share of the batch's loss weight: the gradient of the whole
// batch's mean loss. The split, not the cores, decides the numbers: the same seed and `threads`
// give the same weights on one core or many (a build without threads runs the shards one after
// another).
//
//   TrainingLoop loop(model_config, adamw_config, seed, 2);  // weights drawn from `seed`
//   StepMetrics m;
//   loop.Step(100, [&] { return NextBatch(); }, &m);          // m.loss: mean of the 100 batches
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "attention/parallel.hpp"
#include "attention/status.hpp"
#include "attention/train/model.hpp"
#include "attention/train/optimizer.hpp"

namespace attention::train {

struct StepMetrics {
  int step = 0;                    // updates done so far
  double loss = 0.0;               // mean training loss of this call's batches
  double accuracy = 0.0;           // share of their weighted targets the model ranked first
  double gradient_norm = 0.0;      // ‖g‖₂ of the last update, before clipping
  double learning_rate = 0.0;      // of the last update
  double tokens_per_second = 0.0;  // B·T·count over the call's wall time
  double seconds = 0.0;            // the call's wall time
  // Of the call's last batch (the √dK experiment's curves; SummarizeAttention, model.hpp):
  double attention_entropy = 0.0;  // mean softmax entropy (nats) over every row, layer, head
  double score_gradient_norm = 0.0;  // ‖∂L/∂scores‖₂, scores = q·kᵀ before ÷√dK, every layer
  // ‖∂L/∂(softmax input)‖₂: score_gradient_norm · √dK when the model scales, else the same. The
  // textbook's "small gradients" of a saturated softmax are this one's.
  double softmax_gradient_norm = 0.0;
};

// Validates a step count (field "count", ≥ 1).
Status ValidateStepCount(int count);

class TrainingLoop {
 public:
  // `model`, `optimizer` and `threads` must be valid (ValidateTraining, trainer.hpp).
  TrainingLoop(const ModelConfig& model, const AdamWConfig& optimizer, uint32_t seed,
               int threads = 1);
  ~TrainingLoop();

  // `count` (≥ 1) updates, each on the batch `next_batch()` returns (with targets). A loss that
  // is not finite stops it with kNonFinite for field "loss", and every later call too.
  Status Step(int count, const std::function<Batch()>& next_batch, StepMetrics* metrics);

  Model<float>& model() { return model_; }
  const Model<float>& model() const { return model_; }
  AdamW<float>& optimizer() { return optimizer_; }
  const AdamW<float>& optimizer() const { return optimizer_; }
  int steps() const { return optimizer_.steps(); }
  bool diverged() const { return !diverged_.ok(); }
  int threads() const { return threads_; }  // the shards of a batch
  // The threads that run them at once (a Run while the pool is busy elsewhere runs on one).
  int cores() const { return std::min(threads_, pool_->size()); }

 private:
  // One update on `batch`; adds its mean loss and its arg-max hits to the sums.
  Status Update(const Batch& batch, double* loss_sum, int64_t* right, int64_t* counted,
                StepReport* report);

  Model<float> model_;  // the weights; also the replica of shard 0
  AdamW<float> optimizer_;
  Status diverged_;  // the error of the step whose loss was not finite
  int threads_ = 1;
  std::vector<Model<float>> replicas_;  // shards 1 … threads − 1
  ThreadPool* pool_;  // SharedPool(): a pool per loop left a thread behind in the WASM build
  AttentionSummary attention_;  // of the last update, over its shards
};

}  // namespace attention::train
