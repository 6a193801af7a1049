// The training loop of a toy task: a model, AdamW and a seeded stream of task
// examples. Step(n) runs n updates on fresh batches; Evaluate scores exact match on held-out
// examples, generating the answers greedily.
//
//   std::unique_ptr<Trainer> trainer;
//   Trainer::Create(config, &trainer);     // config.task, config.model, config.optimizer
//   StepMetrics m;  trainer->Step(100, &m);          // m.loss, m.accuracy, …
//   Accuracy a = trainer->Evaluate(1000);            // a.exact_match
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "attention/status.hpp"
#include "attention/train/head_scores.hpp"
#include "attention/train/model.hpp"
#include "attention/train/model_file.hpp"
#include "attention/train/optimizer.hpp"
#include "attention/train/tasks.hpp"
#include "attention/train/training_loop.hpp"

namespace attention::train {

// What a text model's training adds (CorpusTrainer; a task's Trainer does not read it). Its
// members are trainer fields of section kCorpus (trainer_fields.cpp: default and bounds).
struct CorpusConfig {
  CorpusConfig();
  double repeat_spans;  // the share of windows that repeat a span of their text (CorpusStream)
};

// Every trainer field in one struct, each default and bound its row in trainer_fields.cpp (the
// constructors read them). A task's Trainer reads task, model, optimizer and its own members; a
// CorpusTrainer all but task, the corpus setting model.vocab_size and model.context_length.
struct TrainerConfig {
  TrainerConfig();
  TaskConfig task;
  // The task sets vocab_size and context_length (its sequence length T); the rest is used as is.
  ModelConfig model;
  AdamWConfig optimizer;
  CorpusConfig corpus;
  int batch_size;  // B, 1 … kMaxBatch
  uint32_t seed;   // the initial weights and the training examples (or windows)
  // The shards each batch is split into, run at once on as many cores as the build has
  // (training_loop.hpp); 1 … kMaxThreads. The weights depend on it, not on the cores.
  int threads;
  static constexpr int kMaxBatch = 4096;
  static constexpr int kMaxThreads = 64;
};

// The checks every training loop shares (this one and corpus_trainer.hpp's): the model, the
// optimizer, the batch size (field "batchSize") and the shards (field "threads").
Status ValidateTraining(const ModelConfig& model, const AdamWConfig& optimizer, int batch_size,
                        int threads);

// A check that Create runs after its own, on the model it resolved and the batch size, before it
// allocates anything: the WASM binding's memory cap (cpp/bindings/train_request.hpp).
using BeforeAllocation = std::function<Status(const ModelConfig& model, int batch_size)>;

class Trainer {
 public:
  // Checks every part (errors name the field: "length", "dModel", "beta2", "batchSize", …),
  // then `before_allocation` if given, on the model with the task's vocabulary and length.
  static Status Create(const TrainerConfig& config, std::unique_ptr<Trainer>* trainer,
                       const BeforeAllocation& before_allocation = nullptr);

  // `count` (≥ 1) updates (TrainingLoop::Step). A diverged loss stops it with kNonFinite for
  // field "loss", and every later call.
  Status Step(int count, StepMetrics* metrics);

  // Accuracy on the first `count` examples of the held-out stream (the same ones every call).
  Accuracy Evaluate(int count, Decoding decoding = Decoding::kGreedy);
  // The model's arg-max next token at every position (a Predictor for tasks.hpp's Evaluate).
  Predictor MakePredictor();

  // Head scores (head_scores.hpp) on the first `count` held-out examples (the same ones every
  // call, so that scores taken during training are comparable), in training-size batches.
  HeadScores ScoreHeldOutHeads(int count);

  // The model's greedy answer to one task input (ValidateTaskInput: e.g. n symbols to sort).
  // `prompt` gets what the model reads before it answers (the input, then the separator; for
  // induction the input and the repeat's first symbol; for modular addition a + b =) and
  // `answer` the tokens it generates, one per answer position of the task. Errors name "input".
  Status Predict(const std::vector<int>& input, std::vector<int>* prompt, std::vector<int>* answer);

  // The model as a model file (model_io.hpp); its configuration also records the task:
  // "task", "taskLength", "taskAlphabet", "taskModulus", and "vocabulary": "task".
  Status Save(TensorType stored_as, std::vector<uint8_t>* bytes) const;

  const TrainerConfig& config() const { return config_; }
  const TaskLayout& layout() const { return layout_; }
  Model<float>& model() { return loop_.model(); }
  int steps() const { return loop_.steps(); }
  bool diverged() const { return loop_.diverged(); }

 private:
  Trainer(const TrainerConfig& config, const TaskLayout& layout);

  TrainerConfig config_;
  TaskLayout layout_;
  TrainingLoop loop_;
  TaskStream stream_;
};

}  // namespace attention::train
