// The training loop of a toy task (issue 10 §4): a model, AdamW and a seeded stream of task
// examples. Step(n) runs n updates on fresh batches; Evaluate scores exact match on held-out
// examples, generating the answers greedily.
//
//   std::unique_ptr<Trainer> trainer;
//   Trainer::Create(config, &trainer);     // config.task, config.model, config.optimizer
//   StepMetrics m;  trainer->Step(100, &m);          // m.loss, m.accuracy, …
//   Accuracy a = trainer->Evaluate(1000);            // a.exact_match
#pragma once

#include <cstdint>
#include <memory>

#include "attention/status.hpp"
#include "attention/train/model.hpp"
#include "attention/train/model_file.hpp"
#include "attention/train/optimizer.hpp"
#include "attention/train/tasks.hpp"

namespace attention::train {

struct TrainerConfig {
  TaskConfig task;
  // The task sets vocab_size and context_length (its sequence length T); the rest is used as is.
  ModelConfig model;
  AdamWConfig optimizer;
  int batch_size = 64;  // B, 1 … kMaxBatch
  uint32_t seed = 1;    // the initial weights and the training examples
  static constexpr int kMaxBatch = 4096;
};

// The checks every training loop shares (this one and corpus_trainer.hpp's): the model, the
// optimizer and the batch size (field "batchSize"); and a step count (field "count").
Status ValidateTraining(const ModelConfig& model, const AdamWConfig& optimizer, int batch_size);
Status ValidateStepCount(int count);

struct StepMetrics {
  int step = 0;                    // updates done so far
  double loss = 0.0;               // mean training loss of this call's batches
  double accuracy = 0.0;           // share of their answer tokens the model ranked first
  double gradient_norm = 0.0;      // ‖g‖₂ of the last update, before clipping
  double learning_rate = 0.0;      // of the last update
  double tokens_per_second = 0.0;  // B·T·count over the call's wall time
};

class Trainer {
 public:
  // Checks every part (errors name the field: "length", "dModel", "beta2", "batchSize", …).
  static Status Create(const TrainerConfig& config, std::unique_ptr<Trainer>* trainer);

  // `count` (≥ 1) updates. A diverged loss stops it with kNonFinite for field "loss".
  Status Step(int count, StepMetrics* metrics);

  // Accuracy on the first `count` examples of the held-out stream (the same ones every call).
  Accuracy Evaluate(int count, Decoding decoding = Decoding::kGreedy);
  // The model's arg-max next token at every position (a Predictor for tasks.hpp's Evaluate).
  Predictor MakePredictor();

  // The model as a model file (model_io.hpp); its configuration also records the task:
  // "task", "taskLength", "taskAlphabet", "taskModulus", and "vocabulary": "task".
  Status Save(TensorType stored_as, std::vector<uint8_t>* bytes) const;

  const TrainerConfig& config() const { return config_; }
  const TaskLayout& layout() const { return layout_; }
  Model<float>& model() { return model_; }
  int steps() const { return optimizer_.steps(); }

 private:
  Trainer(const TrainerConfig& config, const TaskLayout& layout);

  TrainerConfig config_;
  TaskLayout layout_;
  Model<float> model_;
  AdamW<float> optimizer_;
  TaskStream stream_;
};

}  // namespace attention::train
