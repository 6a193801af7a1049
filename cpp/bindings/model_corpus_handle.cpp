// ModelHandle's corpus trainer (model_handle.hpp): a user's text counted and
// encoded in pieces (CorpusText), then train::CorpusTrainer as it is, with the unigram and
// bigram baselines of the held-out tail (corpus.hpp) computed once for the model's context.
#include <emscripten/val.h>

#include <cmath>

#include "attention/train/corpus.hpp"
#include "attention/train/corpus_fields.hpp"
#include "attention/train/model_io.hpp"
#include "attention/train/trainer_fields.hpp"
#include "model_handle.hpp"
#include "train_request.hpp"

namespace attention::bindings {

using emscripten::val;

val CorpusLimitsVal() {
  // The page's context bounds are the contextLength row's (corpus_fields.hpp).
  const train::CorpusTextField& context = train::CorpusTextFieldNamed("contextLength");
  val out = val::object();
  out.set("maxTextBytes", static_cast<double>(CorpusTextLimits::kMaxBytes));
  out.set("maxVocabulary", CorpusTextLimits::MaxVocabulary());
  out.set("minTokens", static_cast<double>(CorpusTextLimits::kMinTokens));
  out.set("maxHeldOutTokens", static_cast<double>(CorpusTextLimits::kMaxHeldOutTokens));
  out.set("maxControlShare", CorpusTextLimits::kMaxControlShare);
  out.set("minContextLength", context.min);
  out.set("maxContextLength", context.page_max);
  return out;
}

bool ModelHandle::corpusStart(const std::string& level, double total_bytes) {
  DropModel();
  corpus_text_ = std::make_unique<CorpusText>();
  train::VocabularyLevel parsed;
  status_ = train::ParseVocabularyLevel(level, &parsed);
  if (!status_.ok()) return false;
  // A double from JS: a negative or fractional size is no size (JS checked it already).
  const size_t bytes =
      total_bytes >= 0 && total_bytes <= 1e15 && std::floor(total_bytes) == total_bytes
          ? static_cast<size_t>(total_bytes)
          : CorpusTextLimits::kMaxBytes + 1;
  status_ = corpus_text_->Start(parsed, bytes);
  return status_.ok();
}

bool ModelHandle::corpusAdd(const val& bytes) {
  if (!corpus_text_) {
    Fail(ErrorCode::kInvalidArgument, "text", "no text: corpusStart() did not succeed");
    return false;
  }
  std::vector<uint8_t> data(bytes["length"].as<size_t>());
  val(emscripten::typed_memory_view(data.size(), data.data())).call<void>("set", bytes);
  status_ = corpus_text_->Add(data.data(), data.size());
  return status_.ok();
}

bool ModelHandle::corpusFinish(int vocabulary_size, int min_count, double held_out) {
  if (!corpus_text_) {
    Fail(ErrorCode::kInvalidArgument, "text", "no text: corpusStart() did not succeed");
    return false;
  }
  CorpusTextOptions options;
  options.vocabulary_size = vocabulary_size;
  options.min_count = min_count;
  options.held_out = held_out;
  status_ = corpus_text_->Finish(options);
  return status_.ok();
}

val ModelHandle::corpusEncode() {
  if (!corpus_text_ || !corpus_text_->finished()) {
    Fail(ErrorCode::kInvalidArgument, "text", "no vocabulary: corpusFinish() did not succeed");
    return val::null();
  }
  if (!corpus_text_->encoded()) status_ = corpus_text_->EncodeNext();
  if (!status_.ok()) return val::null();
  val out = val::object();
  out.set("done", corpus_text_->encoded());
  out.set("bytes", static_cast<double>(corpus_text_->encoded_bytes()));
  return out;
}

val ModelHandle::corpusSummary() const {
  if (!corpus_text_ || !corpus_text_->encoded()) return val::null();
  const CorpusText& t = *corpus_text_;
  val out = val::object();
  out.set("level", std::string(train::VocabularyLevelName(t.level())));
  out.set("bytes", static_cast<double>(t.total_bytes()));
  out.set("tokens", static_cast<double>(t.tokens()));
  out.set("distinct",
          static_cast<double>(t.vocabulary().size() - train::Vocabulary::kSpecialCount));
  out.set("unknown", static_cast<double>(t.unknown()));
  out.set("trainTokens", static_cast<double>(t.train_ids().size()));
  out.set("heldOutTokens", static_cast<double>(t.held_out_ids().size()));
  out.set("vocabSize", t.vocabulary().size());
  return out;
}

bool ModelHandle::corpusTrain(const val& config, int context_length) {
  roles_.reset();  // it points into the model replaced here
  trace_.Clear();
  corpus_trainer_.reset();
  corpus_reader_.reset();
  if (!corpus_text_ || !corpus_text_->encoded()) {
    Fail(ErrorCode::kInvalidArgument, "text", "no text: its vocabulary was not built");
    return false;
  }
  train::TrainerConfig fields;
  status_ = ReadTrainerConfig(config, &fields);
  if (!status_.ok()) return false;
  status_ = train::CheckCorpusTextField(train::CorpusTextFieldNamed("contextLength"),
                                        context_length, train::CorpusDoor::kPage);
  if (!status_.ok()) return false;
  const std::vector<int>& train_ids = corpus_text_->train_ids();
  if (train_ids.size() < static_cast<size_t>(context_length) + 1) {
    Fail(ErrorCode::kInvalidArgument, "contextLength",
         "the training text has " + std::to_string(train_ids.size()) +
             " tokens; contextLength + 1 = " + std::to_string(context_length + 1) +
             " are needed: give a longer text or a shorter contextLength");
    return false;
  }
  // Every trainer field as JS gave it (ReadTrainerConfig); the text sets the two sizes.
  train::TrainerConfig trainer_config = fields;
  trainer_config.model.vocab_size = corpus_text_->vocabulary().size();
  trainer_config.model.context_length = context_length;
  status_ = train::CorpusTrainer::Create(trainer_config, &train_ids, &corpus_trainer_,
                                         MemoryCap("contextLength"));
  if (!status_.ok()) return false;
  corpus_info_.level = corpus_text_->level();
  corpus_info_.repeat_spans = trainer_config.corpus.repeat_spans;  // "repeatSpans" when > 0
  corpus_info_.baselines = train::ComputeBaselines(train_ids, corpus_text_->held_out_ids(),
                                                   trainer_config.model.vocab_size, context_length);
  corpus_reader_ = std::make_unique<train::TextReader>();
  corpus_reader_->vocabulary = corpus_text_->vocabulary();
  vocabulary_ = corpus_text_->vocabulary().symbols();
  // The model's keys and its vocabulary's level, as a loaded corpus model's file has them.
  train::FlatJson json = train::ModelConfigJson(trainer_config.model);
  json.SetString("vocabulary", train::VocabularyLevelName(corpus_info_.level));
  config_json_ = json.Write();
  return true;
}

val ModelHandle::corpusBaselines() const {
  if (!corpus_trainer_) return val::null();
  const train::NgramBaselines& b = corpus_info_.baselines;
  val out = val::object();
  out.set("unigram", b.unigram);
  out.set("bigram", b.bigram);
  out.set("bigramLambda", b.bigram_lambda);
  out.set("targets", static_cast<double>(b.targets));
  return out;
}

val ModelHandle::corpusHeldOutLoss() {
  trace_.Clear();
  if (!corpus_trainer_) {
    Fail(ErrorCode::kInvalidArgument, "model", "no corpus trainer: corpusTrain() did not succeed");
    return val::null();
  }
  double loss = 0.0;
  status_ = train::HeldOutLoss(&corpus_trainer_->model(), corpus_text_->held_out_ids(), &loss,
                               corpus_trainer_->config().batch_size);
  return status_.ok() ? val(loss) : val::null();
}

void ModelHandle::corpusDescribe(const std::string& corpus, const std::string& title,
                                 const std::string& title_zh) {
  corpus_info_.corpus = corpus;
  corpus_info_.title = title;
  corpus_info_.title_zh = title_zh;
}

}  // namespace attention::bindings
