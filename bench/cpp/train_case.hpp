// The training benchmark's unit of work, shared by the WebAssembly module
// (train_wasm.cpp) and the native program (train_native.cpp), so both time exactly the same
// engine calls: one step = Model::Forward, ZeroGradients, Backward, AdamW::Step.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attention/status.hpp"
#include "attention/train/model.hpp"
#include "attention/train/optimizer.hpp"
#include "attention/train/tasks.hpp"

namespace attention::bench {

struct TrainSpec {
  int vocab = 16;
  int layers = 2;
  int d_model = 64;
  int heads = 4;
  int d_k = 0;  // 0: d_model / heads
  int d_ff = 256;
  int context = 32;  // T: every batch is B sequences of exactly this length
  int batch = 32;    // B
  bool scale = true;
  bool learned_positions = true;  // "about 103k parameters" (docs/benchmarks.md) counts them
  double init_std = 0.02;
  double learning_rate = 1e-3;
  uint32_t seed = 1;
  // Data: "random" (seeded random sequences, next-token targets: for throughput), or a toy
  // task name of tasks.hpp ("sort", "copy", ...; length 8, alphabet 10), which then sets vocab
  // and context.
  std::string data = "random";
};

// One line of the √dK experiment's log, after a step.
struct StepLog {
  double loss = 0.0;
  double gradient_norm = 0.0;  // ‖∂L/∂θ‖₂ before clipping
  double entropy = 0.0;        // mean softmax entropy per row, nats, over every layer and head
  double max_attention = 0.0;  // the largest attention weight anywhere (the model's)
  // Each attention row's largest weight, averaged over the rows that see more than one key
  // (causal row 0 always has weight 1), recomputed here from the step's q and k: how peaked,
  // or saturated, the softmax is.
  double mean_row_max = 0.0;
  double dscores_norm = 0.0;   // ‖∂L/∂(q·kᵀ)‖₂ over every layer, head and sequence
  double max_qk_weight = 0.0;  // the largest |w| in any W_Q or W_K
  double max_weight = 0.0;     // the largest |w| of any parameter
  std::vector<double> layer_entropy, layer_dscores_norm;  // [layers]
};

// Parses "key=value" words separated by spaces: vocab, layers, dModel, heads, dK, dFF, context,
// batch, scale (0/1), learnedPositions (0/1), initStd, learningRate, seed, data.
Status ParseTrainSpec(const std::string& text, TrainSpec* spec);

// One JSON object (no newline): the StepLog's fields, in the spelling of bench/train/*.mjs.
std::string StepLogJson(const StepLog& log);

class TrainCase {
 public:
  explicit TrainCase(const TrainSpec& spec);
  // Whether the spec made a valid model (else status() says why and nothing else works).
  const Status& status() const { return status_; }

  // One training step on the next batch.
  Status Step();
  // The loss of batch 0 under the current weights, without training.
  Status Evaluate(double* loss);
  // The statistics of the last step.
  StepLog Log() const;
  // Exact-match accuracy on `count` held-out examples of the task (teacher-forced); −1 for
  // random data.
  double HeldOutAccuracy(int count);

  const train::ModelConfig& config() const { return config_; }
  train::Model<float>& model() { return *model_; }
  const train::Batch& batch(int i) const { return pool_[static_cast<size_t>(i)]; }
  double loss() const { return loss_; }
  int tokens_per_step() const { return spec_.batch * config_.context_length; }
  // {"parameters": n, "tensors": [{"name", "rows", "cols", "offset", "decay"}, …]}
  std::string LayoutJson() const;
  // {"activations", "parameters", "gradients", "adam", "scratch"} in bytes: activations kept for
  // backward, the weights, their gradients, AdamW's two moments, backward's scratch.
  std::string MemoryJson() const;

 private:
  const train::Batch& NextBatch();
  double MeanRowMax() const;  // StepLog::mean_row_max

  TrainSpec spec_;
  Status status_;
  train::ModelConfig config_;
  std::unique_ptr<train::Model<float>> model_;
  std::unique_ptr<train::AdamW<float>> adamw_;
  train::TaskConfig task_;
  std::unique_ptr<train::TaskStream> stream_;  // toy-task data, a fresh batch per step
  std::vector<train::Batch> pool_;             // random data: a few batches, cycled
  size_t next_ = 0;
  double loss_ = 0.0;
  train::StepReport report_;
};

}  // namespace attention::bench
