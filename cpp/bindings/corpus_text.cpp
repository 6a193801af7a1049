#include "corpus_text.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>

#include "attention/config.hpp"
#include "attention/tokenizer.hpp"
#include "attention/train/corpus_fields.hpp"
#include "format.hpp"
#include "unicode.hpp"

namespace attention::bindings {
namespace {

using train::Vocabulary;
using train::VocabularyLevel;

Status Invalid(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kInvalidArgument, field, message);
}

// The longest word a word-level vocabulary holds (longer ones are refused, naming their length).
constexpr size_t kMaxWordBytes = train::VocabularyLimits::kMaxSymbolBytes;

bool IsAsciiSpace(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

const char* SymbolName(VocabularyLevel level, bool plural) {
  if (level == VocabularyLevel::kWord) return plural ? "words" : "word";
  return plural ? "characters" : "character";
}

double Fallback(const char* name) { return train::CorpusTextFieldNamed(name).fallback; }

}  // namespace

int CorpusTextLimits::MaxVocabulary() {
  return static_cast<int>(train::CorpusTextFieldNamed("vocabularySize").page_max);
}

CorpusTextOptions::CorpusTextOptions()
    : vocabulary_size(static_cast<int>(Fallback("vocabularySize"))),
      min_count(static_cast<int>(Fallback("minCount"))),
      held_out(Fallback("heldOut")) {}

Status CorpusText::Start(VocabularyLevel level, size_t total_bytes) {
  *this = CorpusText();
  level_ = level;
  if (total_bytes == 0) {
    return Invalid("text", Format("text is empty: give at least %lld tokens of UTF-8 text",
                                  static_cast<long long>(CorpusTextLimits::kMinTokens)));
  }
  if (total_bytes > CorpusTextLimits::kMaxBytes) {
    return Status(
        ErrorCode::kLimitExceeded, "text",
        Format("text (%zu bytes) must be at most %zu bytes (%zu MiB): train on a part "
               "of it",
               total_bytes, CorpusTextLimits::kMaxBytes, CorpusTextLimits::kMaxBytes >> 20));
  }
  total_ = total_bytes;
  text_.reserve(total_bytes);
  return Status::Ok();
}

Status CorpusText::Add(const uint8_t* bytes, size_t n) {
  if (finished_ || text_.size() + n > total_) {
    return Invalid("text", Format("text has more than the %zu bytes announced", total_));
  }
  text_.append(reinterpret_cast<const char*>(bytes), n);
  const size_t size = text_.size();
  const bool last = size == total_;
  // Where the bytes counted now end: all of them at the end of the text; else before the last
  // (maybe incomplete) code point, or after the last ASCII white space for words.
  size_t end = size;
  if (!last && level_ == VocabularyLevel::kCharacter) {
    if (static_cast<uint8_t>(text_[size - 1]) >= 0x80) {
      size_t p = size;
      while (p > counted_ && size - p < 4 && (static_cast<uint8_t>(text_[p - 1]) & 0xC0) == 0x80) {
        --p;
      }
      if (p > counted_) end = p - 1;  // the lead byte of the last sequence waits
    }
  } else if (!last) {
    end = counted_;
    for (size_t i = size; i > counted_; --i) {
      if (IsAsciiSpace(text_[i - 1])) {
        end = i;
        break;
      }
    }
  }
  // Tokenize reads at most Limits::kMaxTextBytes at once: words are counted in pieces cut after
  // an ASCII white space (which separates words anyway).
  const size_t most = level_ == VocabularyLevel::kWord ? static_cast<size_t>(Limits::kMaxTextBytes)
                                                       : CorpusTextLimits::kMaxBytes;
  while (counted_ < end) {
    size_t cut = end;
    if (cut - counted_ > most) {
      cut = counted_ + most;
      while (cut > counted_ && !IsAsciiSpace(text_[cut - 1])) --cut;
      if (cut == counted_) {
        return Status(ErrorCode::kLimitExceeded, "text",
                      Format("text has more than %zu bytes without a space, tab or newline from "
                             "byte %zu; a word at word level is at most %zu bytes: use "
                             "character level",
                             most, counted_, kMaxWordBytes));
      }
    }
    Status status = Count(counted_, cut);
    if (!status.ok()) return status;
    pieces_.push_back(cut);
    counted_ = cut;
  }
  if (!last && level_ == VocabularyLevel::kWord && size - counted_ > most) {
    return Status(ErrorCode::kLimitExceeded, "text",
                  Format("text has more than %zu bytes without a space, tab or newline from byte "
                         "%zu; a word at word level is at most %zu bytes: use character level",
                         most, counted_, kMaxWordBytes));
  }
  return Status::Ok();
}

Status CorpusText::Count(size_t begin, size_t end) {
  const std::string_view text(text_.data(), end);  // offsets in errors are the whole text's
  // A byte order mark at the text's start marks the encoding (Notepad writes one), it is not
  // a character of the text: neither counted nor encoded (it would become a symbol).
  if (begin == 0 && text.substr(0, 3) == "\xEF\xBB\xBF") start_ = begin = 3;
  for (size_t offset = begin; offset < end;) {
    char32_t c = 0;
    size_t length = 0;
    std::string error;
    if (!unicode::DecodeUtf8(text, offset, &c, &length, &error)) {
      return Status(ErrorCode::kInvalidUtf8, "text", "text is not valid UTF-8: " + error);
    }
    if (c == 0) {
      return Invalid("text", Format("text has a NUL byte at byte offset %zu: it looks like a "
                                    "binary file, not UTF-8 text",
                                    offset));
    }
    if (unicode::IsControl(c) && c != '\t' && c != '\n' && c != '\r' && c != '\f') ++controls_;
    ++characters_;
    if (level_ == VocabularyLevel::kCharacter) {
      if (c < 128) {
        ++ascii_[c];
      } else {
        ++code_points_[c];
      }
      ++symbols_;
    }
    offset += length;
  }
  if (level_ == VocabularyLevel::kWord) {
    std::vector<std::string> words;
    Status status = Tokenize(text.substr(begin), &words);
    if (!status.ok()) return status;
    for (std::string& word : words) {
      // The vocabulary holds no longer symbol: such a "word" would be read as <unk> without a
      // word, or leave one symbol and be refused as "one word repeated".
      if (word.size() > kMaxWordBytes) {
        size_t shown = std::min<size_t>(word.size(), 24);
        while (shown > 0 && (static_cast<uint8_t>(word[shown]) & 0xC0) == 0x80) --shown;
        return Status(ErrorCode::kLimitExceeded, "text",
                      Format("text has a word of %zu bytes (\"%s…\"); a word-level symbol is "
                             "at most %zu bytes: use character level",
                             word.size(), word.substr(0, shown).c_str(), kMaxWordBytes));
      }
      ++counts_[std::move(word)];
      ++symbols_;
    }
  }
  return Status::Ok();
}

Status CorpusText::Finish(const CorpusTextOptions& options) {
  const int most = CorpusTextLimits::MaxVocabulary();
  // Each option by its row (corpus_fields.hpp) at the page's bounds, as createCorpusTrainer's.
  for (const auto& [name, value] :
       {std::pair<const char*, double>{"vocabularySize", options.vocabulary_size},
        {"minCount", options.min_count},
        {"heldOut", options.held_out}}) {
    Status status = train::CheckCorpusTextField(train::CorpusTextFieldNamed(name), value,
                                                train::CorpusDoor::kPage);
    if (!status.ok()) return status;
  }
  if (counted_ != total_) {
    return Invalid("text", Format("text has %zu of the %zu bytes announced", text_.size(), total_));
  }
  if (static_cast<double>(controls_) > CorpusTextLimits::kMaxControlShare * characters_) {
    return Invalid(
        "text", Format("text has %lld control characters among %lld (%.1f%%; at most "
                       "%g%%, tabs and line breaks aside): it looks like a binary "
                       "file, not text",
                       static_cast<long long>(controls_), static_cast<long long>(characters_),
                       100.0 * controls_ / characters_, 100 * CorpusTextLimits::kMaxControlShare));
  }
  // A code point's symbol is its UTF-8 bytes (1 … 4), as the vocabulary spells it.
  for (int c = 0; c < 128; ++c) {
    if (ascii_[c] > 0) counts_[std::string(1, static_cast<char>(c))] = ascii_[c];
  }
  for (const auto& [c, count] : code_points_) {
    std::string symbol;
    unicode::AppendUtf8(c, &symbol);
    counts_[symbol] = count;
  }
  code_points_.clear();
  std::fill(std::begin(ascii_), std::end(ascii_), 0);
  const char* name = SymbolName(level_, true);
  if (symbols_ < CorpusTextLimits::kMinTokens) {
    return Invalid("text", Format("text has %lld %s; at least %lld are needed to train on",
                                  static_cast<long long>(symbols_), name,
                                  static_cast<long long>(CorpusTextLimits::kMinTokens)));
  }
  if (counts_.size() < 2) {
    return Invalid("text", Format("text is one %s (\"%s\") repeated %lld times: a model learns "
                                  "nothing from it; give a text of at least 2 distinct %s",
                                  SymbolName(level_, false), counts_.begin()->first.c_str(),
                                  static_cast<long long>(symbols_), name));
  }
  // Vocabulary::Build's order: most frequent first, ties in byte order.
  std::vector<std::pair<std::string, int64_t>> ranked;
  for (const auto& entry : counts_) {
    if (entry.second >= options.min_count) ranked.emplace_back(entry.first, entry.second);
  }
  if (ranked.size() < 2) {
    return Invalid("minCount", Format("minCount (%d) keeps %zu distinct %s of %zu; at least 2 "
                                      "are needed",
                                      options.min_count, ranked.size(), name, counts_.size()));
  }
  const size_t room = static_cast<size_t>(options.vocabulary_size - Vocabulary::kSpecialCount);
  if (ranked.size() > room) {
    return Status(
        ErrorCode::kLimitExceeded, "vocabulary",
        Format("the text has %zu distinct %s seen at least minCount (%d) times; a "
               "vocabulary of %d ids (vocabularySize; the limit is %d) holds %zu "
               "besides <pad> <unk> <bos> <eos>: %s",
               ranked.size(), name, options.min_count, options.vocabulary_size, most, room,
               // Character level is the advice only where it is not the level already.
               level_ == VocabularyLevel::kWord
                   ? "raise minCount, use character level or give a shorter text"
                   : "raise minCount or give a shorter text"));
  }
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::vector<std::string> symbols = Vocabulary().symbols();
  for (auto& entry : ranked) symbols.push_back(std::move(entry.first));
  Status status = Vocabulary::FromSymbols(symbols, level_, &vocabulary_);
  if (!status.ok()) return status;
  counts_.clear();
  held_out_share_ = options.held_out;
  ids_.reserve(static_cast<size_t>(symbols_));
  finished_ = true;
  return Status::Ok();
}

Status CorpusText::EncodeNext() {
  if (!finished_ || encoded_) return Invalid("text", "text: nothing to encode");
  const size_t begin = next_piece_ == 0 ? start_ : pieces_[next_piece_ - 1];
  const size_t end = pieces_[next_piece_++];
  std::vector<int> ids;
  Status status = vocabulary_.Encode(std::string_view(text_).substr(begin, end - begin), &ids);
  if (!status.ok()) return status;
  ids_.insert(ids_.end(), ids.begin(), ids.end());
  encoded_bytes_ = end;
  if (next_piece_ < pieces_.size()) return Status::Ok();
  // Counting and encoding read the same pieces with the same rules: the same symbols.
  if (static_cast<int64_t>(ids_.size()) != symbols_) {
    return Invalid("text", Format("text encoded to %zu ids but %lld symbols were counted",
                                  ids_.size(), static_cast<long long>(symbols_)));
  }
  unknown_ = std::count(ids_.begin(), ids_.end(), Vocabulary::kUnknown);
  const int64_t n = static_cast<int64_t>(ids_.size());
  const int64_t held = std::clamp<int64_t>(std::llround(held_out_share_ * static_cast<double>(n)),
                                           2, CorpusTextLimits::kMaxHeldOutTokens);
  // The ids become the training text, less the tail: no second copy of them at any time.
  held_out_.assign(ids_.end() - held, ids_.end());
  ids_.resize(static_cast<size_t>(n - held));
  ids_.shrink_to_fit();
  train_ = std::move(ids_);
  ids_ = std::vector<int>();
  std::string().swap(text_);
  encoded_ = true;
  return Status::Ok();
}

}  // namespace attention::bindings
