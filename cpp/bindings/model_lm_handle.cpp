// ModelHandle's corpus language-model calls (model_handle.hpp):
// attention/train/language_model.hpp's text, logits and generation, handed to JS as plain arrays.
#include <emscripten/val.h>

#include <cmath>
#include <string>

#include "attention/config.hpp"
#include "attention/train/language_model.hpp"
#include "convert.hpp"
#include "model_handle.hpp"

namespace attention::bindings {
namespace {

using emscripten::val;

val EncodedObject(const train::EncodedText& encoded) {
  val out = val::object();
  out.set("tokens", StringArray(encoded.symbols));
  val ids = val::array();
  val unknown = val::array();
  for (size_t i = 0; i < encoded.ids.size(); ++i) {
    ids.set(i, encoded.ids[i]);
    unknown.set(i, static_cast<bool>(encoded.unknown[i]));
  }
  out.set("ids", ids);
  out.set("unknown", unknown);
  out.set("total", encoded.total);
  out.set("cut", encoded.cut);
  out.set("start", encoded.started);
  return out;
}

}  // namespace

bool ModelHandle::RequireCorpus(const std::string& call) {
  // A loaded corpus model or a corpus trainer: both read text with corpus_reader_.
  if (corpus_reader_ && model() != nullptr) return true;
  Fail(ErrorCode::kInvalidArgument, "model",
       trainer_ ? call + "() needs a corpus language model; this is a toy-task model"
                : "no model: create() or load() did not succeed");
  return false;
}

val ModelHandle::encode(const std::string& text, bool keep_end) {
  if (!RequireCorpus("encode")) return val::null();
  train::EncodedText encoded;
  status_ = train::EncodeText(*corpus_reader_, text, keep_end, model()->config().context_length,
                              &encoded);
  return status_.ok() ? EncodedObject(encoded) : val::null();
}

val ModelHandle::traceText(const std::string& text, bool keep_end, bool every_position) {
  trace_.Clear();
  if (!RequireCorpus("trace")) return val::null();
  train::EncodedText encoded;
  status_ = train::EncodeText(*corpus_reader_, text, keep_end, model()->config().context_length,
                              &encoded);
  if (status_.ok() && encoded.ids.empty()) {
    Fail(ErrorCode::kInvalidArgument, "text",
         "text has no token to read: it is empty or only white space");
  }
  if (status_.ok()) {
    status_ =
        trace_.Run(model(), encoded.ids, encoded.symbols,
                   every_position ? train::Outputs::kEveryPosition : train::Outputs::kLastPosition);
  }
  return status_.ok() ? EncodedObject(encoded) : val::null();
}

val ModelHandle::nextLogits(const val& tokens) {
  trace_.Clear();
  if (!RequireCorpus("predict")) return val::null();
  status_ =
      train::NextLogits(model(), emscripten::convertJSArrayToNumberVector<int>(tokens), &logits_);
  if (!status_.ok()) return val::null();
  return val(emscripten::typed_memory_view(logits_.size(), logits_.data()));
}

val ModelHandle::generate(const val& tokens, int count, double temperature, int top_k, bool greedy,
                          double seed) {
  trace_.Clear();
  // A corpus model by its rules; a task model (the page's Continue) by its task's.
  train::Model<float>* m = model();
  if (m == nullptr) {
    Fail(ErrorCode::kInvalidArgument, "model", "no model: create() or load() did not succeed");
    return val::null();
  }
  if (!(seed >= 0 && seed <= Limits::kMaxSeed && std::floor(seed) == seed)) {
    Fail(ErrorCode::kInvalidArgument, "seed",
         "seed must be an integer from 0 to " + std::to_string(Limits::kMaxSeed));
    return val::null();
  }
  train::Sampling sampling;
  sampling.temperature = temperature;
  sampling.top_k = top_k;
  sampling.greedy = greedy;
  sampling.seed = static_cast<uint32_t>(seed);
  std::vector<int> out;
  status_ = train::Generate(
      m, emscripten::convertJSArrayToNumberVector<int>(tokens), count, sampling, &out,
      corpus_reader_ ? train::GenerationRules::kCorpus : train::GenerationRules::kTask);
  if (!status_.ok()) return val::null();
  val ids = val::array();
  for (size_t i = 0; i < out.size(); ++i) ids.set(i, out[i]);
  return ids;
}

}  // namespace attention::bindings
