#include "attention/train/vocabulary.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>

#include "attention/config.hpp"
#include "attention/tokenizer.hpp"
#include "format.hpp"
#include "unicode.hpp"

namespace attention::train {
namespace {

constexpr const char* kSpecialNames[Vocabulary::kSpecialCount] = {"<pad>", "<unk>", "<bos>",
                                                                  "<eos>"};

Status Invalid(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kInvalidArgument, field, message);
}

bool IsAsciiSpace(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

// Calls `visit` with each symbol of `text` in order. The text is checked whole first, so an
// error's byte offset is one of `text`, and nothing is visited when it is invalid.
Status ForEachSymbol(std::string_view text, VocabularyLevel level,
                     const std::function<void(std::string_view)>& visit) {
  if (text.size() > VocabularyLimits::kMaxCorpusBytes) {
    return Status(ErrorCode::kLimitExceeded, "text",
                  Format("text (%zu bytes) must be at most %zu bytes", text.size(),
                         VocabularyLimits::kMaxCorpusBytes));
  }
  Status status = CheckUtf8(text, "text");
  if (!status.ok()) return status;
  if (level == VocabularyLevel::kCharacter) {
    for (size_t offset = 0; offset < text.size();) {
      char32_t code_point;
      size_t length;
      std::string error;
      unicode::DecodeUtf8(text, offset, &code_point, &length, &error);
      visit(text.substr(offset, length));
      offset += length;
    }
    return Status::Ok();
  }
  // Tokenize takes at most Limits::kMaxTextBytes at once: cut the text after an ASCII white
  // space (which separates words anyway) at most that far on.
  const size_t most = static_cast<size_t>(Limits::kMaxTextBytes);
  std::vector<std::string> words;
  for (size_t begin = 0; begin < text.size();) {
    size_t end = text.size();
    if (end - begin > most) {
      end = begin + most;
      while (end > begin && !IsAsciiSpace(text[end - 1])) --end;
      if (end == begin) {
        return Status(ErrorCode::kLimitExceeded, "text",
                      Format("text has %zu bytes without a space, tab or newline from byte %zu; "
                             "a word-level vocabulary needs one at least every %zu bytes",
                             most, begin, most));
      }
    }
    if (!(status = Tokenize(text.substr(begin, end - begin), &words)).ok()) return status;
    for (const std::string& word : words) visit(word);
    begin = end;
  }
  return Status::Ok();
}

}  // namespace

Status ParseVocabularyLevel(const std::string& name, VocabularyLevel* level) {
  if (ValueOf(kVocabularyLevels, name, level)) return Status::Ok();
  return Invalid("level", "level (\"" + name + "\") must be one of " + NameList(kVocabularyLevels));
}

Vocabulary::Vocabulary() {
  for (int id = 0; id < kSpecialCount; ++id) {
    symbols_.push_back(kSpecialNames[id]);
    ids_.emplace(kSpecialNames[id], id);
  }
}

Status Vocabulary::Build(std::string_view text, const VocabularyOptions& options,
                         Vocabulary* vocabulary) {
  const int max_size = options.max_size == 0 ? VocabularyLimits::kMaxSize : options.max_size;
  if (max_size <= kSpecialCount || max_size > VocabularyLimits::kMaxSize) {
    return Invalid("maxSize",
                   Format("maxSize (%d) must be 0 (no limit) or an integer from %d "
                          "to %d",
                          options.max_size, kSpecialCount + 1, VocabularyLimits::kMaxSize));
  }
  if (options.min_count < 1) {
    return Invalid("minCount",
                   Format("minCount (%d) must be an integer of at least 1", options.min_count));
  }
  std::unordered_map<std::string, int64_t> counts;
  Status status = ForEachSymbol(text, options.level, [&](std::string_view symbol) {
    if (symbol.size() <= VocabularyLimits::kMaxSymbolBytes) ++counts[std::string(symbol)];
  });
  if (!status.ok()) return status;

  Vocabulary result;
  result.level_ = options.level;
  std::vector<std::pair<std::string, int64_t>> ranked;
  for (auto& entry : counts) {
    if (entry.second >= options.min_count) {
      ranked.emplace_back(entry.first, entry.second);
    }
  }
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  const size_t keep = std::min(ranked.size(), static_cast<size_t>(max_size - kSpecialCount));
  for (size_t i = 0; i < keep; ++i) {
    result.ids_.emplace(ranked[i].first, result.size());
    result.symbols_.push_back(std::move(ranked[i].first));
  }
  *vocabulary = std::move(result);
  return Status::Ok();
}

Status Vocabulary::FromSymbols(const std::vector<std::string>& symbols, VocabularyLevel level,
                               Vocabulary* vocabulary) {
  if (symbols.size() > static_cast<size_t>(VocabularyLimits::kMaxSize)) {
    return Status(ErrorCode::kLimitExceeded, "vocabulary",
                  Format("vocabulary has %zu symbols; at most %d are allowed", symbols.size(),
                         VocabularyLimits::kMaxSize));
  }
  Vocabulary result;
  result.level_ = level;
  for (size_t i = 0; i < symbols.size(); ++i) {
    const std::string field = Format("vocabulary[%zu]", i);
    const std::string& symbol = symbols[i];
    if (i < kSpecialCount) {
      if (symbol != kSpecialNames[i]) {
        return Invalid(field, field + " (\"" + symbol + "\") must be " + kSpecialNames[i] +
                                  ": a vocabulary starts with <pad>, <unk>, <bos>, <eos>");
      }
      continue;
    }
    if (symbol.empty() || symbol.size() > VocabularyLimits::kMaxSymbolBytes) {
      return Invalid(field, Format("%s must be 1 to %zu bytes long", field.c_str(),
                                   VocabularyLimits::kMaxSymbolBytes));
    }
    Status status = CheckUtf8(symbol, field);
    if (!status.ok()) return status;
    char32_t code_point;
    size_t length = 0;
    std::string error;
    unicode::DecodeUtf8(symbol, 0, &code_point, &length, &error);
    if (level == VocabularyLevel::kCharacter && length != symbol.size()) {
      return Invalid(field, field + " (\"" + symbol +
                                "\") must be a single character in a character-level vocabulary");
    }
    if (!result.ids_.emplace(symbol, result.size()).second) {
      return Invalid(field, field + " (\"" + symbol + "\") appears twice");
    }
    result.symbols_.push_back(symbol);
  }
  if (symbols.size() < kSpecialCount) {
    return Invalid("vocabulary", "vocabulary must start with <pad>, <unk>, <bos>, <eos>");
  }
  *vocabulary = std::move(result);
  return Status::Ok();
}

int Vocabulary::Id(std::string_view symbol) const {
  const auto found = ids_.find(std::string(symbol));
  return found == ids_.end() ? kUnknown : found->second;
}

Status Vocabulary::Encode(std::string_view text, std::vector<int>* ids) const {
  std::vector<int> result;
  Status status = ForEachSymbol(text, level_, [&](std::string_view symbol) {
    // A special is never read from text: no character is one, and Tokenize splits "<unk>".
    result.push_back(Id(symbol));
  });
  if (!status.ok()) return status;
  *ids = std::move(result);
  return Status::Ok();
}

Status Vocabulary::Decode(const std::vector<int>& ids, std::string* text) const {
  std::string result;
  const char* separator = level_ == VocabularyLevel::kWord ? " " : "";
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] >= size()) {
      return Invalid(Format("ids[%zu]", i), Format("ids[%zu] (%d) must be a token id from 0 to %d",
                                                   i, ids[i], size() - 1));
    }
    if (i > 0) result += separator;
    result += symbols_[ids[i]];
  }
  *text = std::move(result);
  return Status::Ok();
}

}  // namespace attention::train
