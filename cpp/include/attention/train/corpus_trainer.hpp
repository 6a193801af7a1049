// The training loop of a corpus language model, next to the task Trainer: a
// model, AdamW and a CorpusStream of windows of the encoded training text, every position a
// next-token target. The native command tools/train_corpus.cpp drives it.
//
//   TrainerConfig config;                                   // every trainer field's default
//   config.model.vocab_size = …; config.model.context_length = …;
//   std::unique_ptr<CorpusTrainer> trainer;
//   CorpusTrainer::Create(config, &train_ids, &trainer);   // train_ids outlives the trainer
//   StepMetrics m;  trainer->Step(100, &m);                 // m.loss: mean of the 100 batches
//   HeldOutLoss(&trainer->model(), heldout_ids, &nats);     // corpus.hpp
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attention/status.hpp"
#include "attention/train/checkpoint.hpp"
#include "attention/train/corpus.hpp"
#include "attention/train/flat_json.hpp"
#include "attention/train/model.hpp"
#include "attention/train/model_file.hpp"
#include "attention/train/optimizer.hpp"
#include "attention/train/trainer.hpp"
#include "attention/train/training_loop.hpp"
#include "attention/train/vocabulary.hpp"

namespace attention::train {

class CorpusTrainer {
 public:
  // `config`: the trainer fields but the task's (trainer.hpp), with model.vocab_size the
  // vocabulary's size and model.context_length T. Errors name the field: the model's and
  // optimizer's, "batchSize", "repeatSpans", and "train" when the ids are fewer than
  // contextLength + 1 or outside 0 … vocabSize − 1; then `before_allocation` if given
  // (trainer.hpp).
  static Status Create(const TrainerConfig& config, const std::vector<int>* train_ids,
                       std::unique_ptr<CorpusTrainer>* trainer,
                       const BeforeAllocation& before_allocation = nullptr);

  // `count` (≥ 1) updates (TrainingLoop::Step, the task Trainer's too); metrics->loss is the
  // mean training loss of their batches, accuracy the share of next tokens ranked first. A
  // diverged loss stops it (kNonFinite), and every later call.
  Status Step(int count, StepMetrics* metrics);

  // The run for a later sitting (checkpoint.hpp), and its continuation: the weights, AdamW and
  // the stream of windows where the checkpoint's run left them; Resume on a trainer that has not
  // stepped yet. Errors: LoadCheckpoint's.
  Status SaveCheckpoint(const CheckpointState& state, std::vector<uint8_t>* bytes) const;
  Status Resume(const std::vector<uint8_t>& bytes, const std::string& run, CheckpointState* state);

  Model<float>& model() { return loop_.model(); }
  const TrainerConfig& config() const { return config_; }
  int cores() const { return loop_.cores(); }
  int steps() const { return loop_.steps(); }

 private:
  CorpusTrainer(const TrainerConfig& config, const std::vector<int>* train_ids);

  TrainerConfig config_;
  TrainingLoop loop_;
  CorpusStream stream_;
};

// What a corpus model file records besides the model (docs/model-format.md, "What a model stores in
// it"): "vocabulary"
// ("character" | "word"), "corpus", "title", "titleZh", "trainedSteps", and the held-out
// "heldOutLoss", "unigramLoss", "bigramLoss" in nats per token (+ "bigramLambda"); and
// "lowercase": true when the training text was lower-cased (input should be too). For
// the page's model line, when known (> 0, or true): "kn5Loss" (the Kneser–Ney 5-gram's
// held-out loss), "tokensSeen" and "canonWeighted" (the famous texts repeated in training); and
// "documentStart" (a symbol of the vocabulary, e.g. "\n") when every document of the training
// text (a poem) follows it: the model reads it before typed text (EncodeText); and
// "repeatSpans", the share of training windows that repeated a span of their text.
struct CorpusModelInfo {
  VocabularyLevel level = VocabularyLevel::kCharacter;
  std::string corpus, title, title_zh;
  std::string document_start;
  double repeat_spans = 0.0;  // "repeatSpans" when > 0: the trainer's (CorpusConfig)
  bool lowercase = false;
  bool canon_weighted = false;
  double kn5_loss = 0.0;
  double tokens_seen = 0.0;
  int64_t trained_steps = 0;  // 64-bit: warm restarts add up runs of up to 10^9 steps each
  double held_out_loss = 0.0;
  NgramBaselines baselines;
};
FlatJson CorpusModelJson(const CorpusModelInfo& info);

Status SaveCorpusModel(const Model<float>& model, const Vocabulary& vocabulary,
                       const CorpusModelInfo& info, TensorType stored_as,
                       std::vector<uint8_t>* bytes);

}  // namespace attention::train
