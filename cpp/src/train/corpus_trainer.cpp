#include "attention/train/corpus_trainer.hpp"

#include "attention/train/model_io.hpp"
#include "attention/train/trainer_fields.hpp"
#include "format.hpp"

namespace attention::train {

CorpusTrainer::CorpusTrainer(const TrainerConfig& config, const std::vector<int>* train_ids)
    : config_(config),
      loop_(config.model, config.optimizer, config.seed, config.threads),
      stream_(train_ids, config.model.context_length, config.seed, config.corpus.repeat_spans) {}

Status CorpusTrainer::Create(const TrainerConfig& config, const std::vector<int>* train_ids,
                             std::unique_ptr<CorpusTrainer>* trainer,
                             const BeforeAllocation& before_allocation) {
  Status status =
      ValidateTraining(config.model, config.optimizer, config.batch_size, config.threads);
  if (status.ok()) status = ValidateFields(config, FieldSection::kCorpus);  // repeatSpans
  if (!status.ok()) return status;
  const size_t needed = static_cast<size_t>(config.model.context_length) + 1;
  if (train_ids->size() < needed) {
    return Status(
        ErrorCode::kInvalidArgument, "train",
        Format("train has %zu ids; contextLength + 1 = %zu are needed", train_ids->size(), needed));
  }
  for (size_t i = 0; i < train_ids->size(); ++i) {
    const int id = (*train_ids)[i];
    if (id < 0 || id >= config.model.vocab_size) {
      return Status(
          ErrorCode::kInvalidArgument, "train",
          Format("train[%zu] (%d) must be an id from 0 to %d", i, id, config.model.vocab_size - 1));
    }
  }
  if (before_allocation) {
    if (!(status = before_allocation(config.model, config.batch_size)).ok()) return status;
  }
  trainer->reset(new CorpusTrainer(config, train_ids));
  return Status::Ok();
}

Status CorpusTrainer::Step(int count, StepMetrics* metrics) {
  return loop_.Step(
      count, [this] { return stream_.Take(config_.batch_size); }, metrics);
}

Status CorpusTrainer::SaveCheckpoint(const CheckpointState& state,
                                     std::vector<uint8_t>* bytes) const {
  return train::SaveCheckpoint(loop_, state, bytes);
}

Status CorpusTrainer::Resume(const std::vector<uint8_t>& bytes, const std::string& run,
                             CheckpointState* state) {
  if (Status status = LoadCheckpoint(bytes, run, &loop_, state); !status.ok()) return status;
  stream_.Skip(static_cast<int64_t>(loop_.steps()) * config_.batch_size);
  return Status::Ok();
}

FlatJson CorpusModelJson(const CorpusModelInfo& info) {
  FlatJson extra;
  extra.SetString("vocabulary", VocabularyLevelName(info.level));
  extra.SetString("corpus", info.corpus);
  extra.SetString("title", info.title);
  extra.SetString("titleZh", info.title_zh);
  extra.SetNumber("trainedSteps", static_cast<double>(info.trained_steps));
  extra.SetNumber("heldOutLoss", info.held_out_loss);
  extra.SetNumber("unigramLoss", info.baselines.unigram);
  extra.SetNumber("bigramLoss", info.baselines.bigram);
  extra.SetNumber("bigramLambda", info.baselines.bigram_lambda);
  if (info.lowercase) extra.SetBool("lowercase", true);
  if (info.canon_weighted) extra.SetBool("canonWeighted", true);
  if (!info.document_start.empty()) extra.SetString("documentStart", info.document_start);
  if (info.repeat_spans > 0) extra.SetNumber("repeatSpans", info.repeat_spans);
  if (info.kn5_loss > 0) extra.SetNumber("kn5Loss", info.kn5_loss);
  if (info.tokens_seen > 0) extra.SetNumber("tokensSeen", info.tokens_seen);
  return extra;
}

Status SaveCorpusModel(const Model<float>& model, const Vocabulary& vocabulary,
                       const CorpusModelInfo& info, TensorType stored_as,
                       std::vector<uint8_t>* bytes) {
  return SaveModel(model, vocabulary.symbols(), CorpusModelJson(info), stored_as, bytes);
}

}  // namespace attention::train
