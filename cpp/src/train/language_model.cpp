#include "attention/train/language_model.hpp"

#include <algorithm>
#include <cmath>

#include "attention/config.hpp"
#include "attention/random.hpp"
#include "attention/tokenizer.hpp"
#include "attention/train/model_io.hpp"
#include "format.hpp"
#include "unicode.hpp"

namespace attention::train {
namespace {

Status Invalid(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kInvalidArgument, field, message);
}

std::string AsciiLower(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

}  // namespace

bool Generable(int id, GenerationRules rules) {
  if (rules == GenerationRules::kTask) return true;
  return id != Vocabulary::kPad && id != Vocabulary::kUnknown && id != Vocabulary::kBegin;
}

int PickNext(const float* z, int v, const Sampling& sampling, RandomState* random,
             GenerationRules rules) {
  // (Forward refuses a pass whose logits are not finite: no order exists among NaNs.)
  std::vector<int> order;
  for (int id = 0; id < v; ++id) {
    if (Generable(id, rules)) order.push_back(id);
  }
  // Most likely first; equal logits in id order, so the greedy choice is the lowest id.
  std::stable_sort(order.begin(), order.end(), [z](int a, int b) { return z[a] > z[b]; });
  if (sampling.greedy) return order.front();
  if (sampling.top_k > 0 && static_cast<size_t>(sampling.top_k) < order.size()) {
    order.resize(static_cast<size_t>(sampling.top_k));
  }
  // softmax(z / T) over the candidates, in double, from the largest logit down.
  const double top = z[order.front()];
  std::vector<double> cumulative(order.size());
  double sum = 0.0;
  for (size_t i = 0; i < order.size(); ++i) {
    sum += std::exp((static_cast<double>(z[order[i]]) - top) / sampling.temperature);
    cumulative[i] = sum;
  }
  const double r = random->NextDouble() * sum;
  const auto at = std::upper_bound(cumulative.begin(), cumulative.end(), r);
  return order[static_cast<size_t>(
      std::min<std::ptrdiff_t>(at - cumulative.begin(), order.size() - 1))];
}

namespace {

Status CheckIds(const ModelConfig& config, const std::vector<int>& ids) {
  if (ids.empty() || static_cast<int>(ids.size()) > config.context_length) {
    return Status(ErrorCode::kLimitExceeded, "tokens",
                  Format("the input has %zu tokens; this model reads 1 to %d", ids.size(),
                         config.context_length));
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] >= config.vocab_size) {
      const std::string field = Format("tokens[%zu]", i);
      return Invalid(field, Format("%s (%d) must be a token id from 0 to %d", field.c_str(), ids[i],
                                   config.vocab_size - 1));
    }
  }
  return Status::Ok();
}

}  // namespace

Status LoadTextReader(const FlatJson& json, const std::vector<std::string>& symbols,
                      TextReader* reader) {
  std::string level_name;
  Status status = json.GetString("vocabulary", &level_name);
  VocabularyLevel level = VocabularyLevel::kCharacter;
  if (status.ok()) status = ParseVocabularyLevel(level_name, &level);
  if (!status.ok()) {
    return Invalid("model.config.vocabulary", "model.config.vocabulary (\"" + level_name +
                                                  "\") must be one of task, character, word");
  }
  bool lowercase = false;
  if (json.Has("lowercase") && !(status = json.GetBool("lowercase", &lowercase)).ok()) {
    return status;
  }
  TextReader result;
  result.lowercase = lowercase;
  status = Vocabulary::FromSymbols(symbols, level, &result.vocabulary);
  if (!status.ok()) {
    return Status(status.code(), "model." + status.field(), "model." + status.message());
  }
  if (json.Has("documentStart")) {
    status = json.GetString("documentStart", &result.document_start);
    if (!status.ok() || result.vocabulary.Id(result.document_start) < Vocabulary::kSpecialCount) {
      return Invalid("model.config.documentStart",
                     "model.config.documentStart must be a symbol of the model's vocabulary "
                     "(not <pad>, <unk>, <bos> or <eos>)");
    }
  }
  *reader = std::move(result);
  return Status::Ok();
}

Status SaveCorpusModel(const Model<float>& model, const std::vector<std::string>& vocabulary,
                       const std::string& config_json, TensorType stored_as,
                       std::vector<uint8_t>* bytes) {
  FlatJson json, extra;
  Status status = FlatJson::Parse(config_json, "model.config", &json);
  if (!status.ok()) return status;
  // SaveModel writes the model's own keys; the rest are how the model was made.
  const FlatJson own = ModelConfigJson(model.config());
  for (const auto& [key, value] : json.values()) {
    if (own.Has(key)) continue;
    if (value.kind == FlatJson::Value::Kind::kNumber) extra.SetNumber(key, value.number);
    if (value.kind == FlatJson::Value::Kind::kBool) extra.SetBool(key, value.boolean);
    if (value.kind == FlatJson::Value::Kind::kString) extra.SetString(key, value.text);
  }
  return SaveModel(model, vocabulary, extra, stored_as, bytes);
}

Status EncodeText(const TextReader& reader, const std::string& text, bool keep_end, int context,
                  EncodedText* out) {
  const Vocabulary& vocabulary = reader.vocabulary;
  if (text.size() > static_cast<size_t>(Limits::kMaxTextBytes)) {
    return Status(
        ErrorCode::kLimitExceeded, "text",
        Format("text (%zu bytes) must be at most %d bytes", text.size(), Limits::kMaxTextBytes));
  }
  Status status = CheckUtf8(text, "text");
  if (!status.ok()) return status;
  std::vector<std::string> symbols;
  const bool words = vocabulary.level() == VocabularyLevel::kWord;
  if (words) {
    if (!(status = Tokenize(text, &symbols)).ok()) return status;
  } else {
    for (size_t offset = 0; offset < text.size();) {
      char32_t code_point;
      size_t length = 1;
      std::string error;
      unicode::DecodeUtf8(text, offset, &code_point, &length, &error);
      symbols.push_back(text.substr(offset, length));
      offset += length;
    }
  }
  EncodedText result;
  result.total = static_cast<int>(symbols.size());
  const std::string& start = reader.document_start;
  const bool begins = !symbols.empty() && symbols[0] == start;
  result.started = !start.empty() && result.total > 0 && !begins && context > 1 &&
                   (!keep_end || result.total + 1 <= context);
  const int room = context - (result.started ? 1 : 0);
  const int kept = std::min(result.total, room);
  result.cut = result.total - kept;
  const int first = keep_end ? result.cut : 0;
  if (result.started) {
    result.ids.push_back(vocabulary.Id(start));
    result.unknown.push_back(false);
    result.symbols.push_back(start);
  }
  for (int i = first; i < first + kept; ++i) {
    std::string& symbol = symbols[static_cast<size_t>(i)];
    int id = vocabulary.Id(reader.lowercase ? AsciiLower(symbol) : symbol);
    // A word model without the key (files written before it) still finds "The" as "the".
    if (id == Vocabulary::kUnknown && words && !reader.lowercase)
      id = vocabulary.Id(AsciiLower(symbol));
    result.ids.push_back(id);
    result.unknown.push_back(id == Vocabulary::kUnknown);
    result.symbols.push_back(std::move(symbol));
  }
  *out = std::move(result);
  return Status::Ok();
}

Status NextLogits(Model<float>* model, const std::vector<int>& ids, std::vector<float>* logits) {
  Status status = CheckIds(model->config(), ids);
  if (!status.ok()) return status;
  Batch batch;
  batch.size = 1;
  batch.length = static_cast<int>(ids.size());
  batch.tokens = ids;
  // The last position's logits only: [V], not [T × V].
  if (!(status = model->Forward(batch, Outputs::kLastPosition)).ok()) return status;
  int width = 0;
  const float* last = model->Activation("logits", -1, &width);
  logits->assign(last, last + width);
  return Status::Ok();
}

Status Generate(Model<float>* model, const std::vector<int>& ids, int count,
                const Sampling& sampling, std::vector<int>* out, GenerationRules rules) {
  const ModelConfig& config = model->config();
  if (count < 1 || count > kMaxGenerate) {
    return Invalid("count",
                   Format("count (%d) must be an integer from 1 to %d", count, kMaxGenerate));
  }
  if (!(sampling.temperature >= Limits::kMinTemperature &&
        sampling.temperature <= Limits::kMaxTemperature)) {
    return Invalid("temperature",
                   Format("temperature (%g) must be a number from %g to %g", sampling.temperature,
                          Limits::kMinTemperature, Limits::kMaxTemperature));
  }
  if (sampling.top_k < 0 || sampling.top_k > config.vocab_size) {
    return Invalid("topK", Format("topK (%d) must be an integer from 0 (all) to %d", sampling.top_k,
                                  config.vocab_size));
  }
  Status status = CheckIds(config, ids);
  if (!status.ok()) return status;
  RandomState random(sampling.seed);
  std::vector<int> sequence = ids, generated;
  std::vector<float> logits;
  const size_t context = static_cast<size_t>(config.context_length);
  for (int i = 0; i < count; ++i) {
    if (rules == GenerationRules::kTask && sequence.size() >= context) break;
    // The last contextLength tokens: the window slides once the sequence fills the context.
    const size_t start =
        sequence.size() - std::min(sequence.size(), static_cast<size_t>(config.context_length));
    const std::vector<int> window(sequence.begin() + static_cast<std::ptrdiff_t>(start),
                                  sequence.end());
    if (!(status = NextLogits(model, window, &logits)).ok()) return status;
    const int next = PickNext(logits.data(), config.vocab_size, sampling, &random, rules);
    generated.push_back(next);
    sequence.push_back(next);
    if (rules == GenerationRules::kCorpus && next == Vocabulary::kEnd) break;
  }
  *out = std::move(generated);
  return Status::Ok();
}

}  // namespace attention::train
