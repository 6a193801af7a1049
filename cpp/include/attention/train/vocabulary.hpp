// A vocabulary built from a text corpus, for the corpus language models:
//   character level: every Unicode code point is a symbol (spaces and newlines included), so
//     decoding gives the text back exactly, unknown characters aside;
//   word level: the engine's Tokenize splits the text (white space and control characters
//     separate, each punctuation mark, symbol and CJK character is a token of its own, emoji
//     sequences stay whole); decoding joins the words with single spaces.
// Ids 0 … 3 are the special tokens <pad>, <unk>, <bos>, <eos>; the corpus's symbols follow,
// most frequent first (ties in byte order), so the same text and options give the same ids.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "attention/option_names.hpp"
#include "attention/status.hpp"

namespace attention::train {

enum class VocabularyLevel { kCharacter, kWord };
// The levels' names, in their enum's order: the one list of them (a model file's "vocabulary",
// the text option "level" of corpus_fields.hpp, which JS reads from the catalog).
inline constexpr OptionName<VocabularyLevel> kVocabularyLevels[] = {
    {VocabularyLevel::kCharacter, "character"},
    {VocabularyLevel::kWord, "word"},
};

// "character" or "word"; ParseVocabularyLevel gives kInvalidArgument for field "level".
inline const char* VocabularyLevelName(VocabularyLevel level) {
  return NameOf(kVocabularyLevels, level);
}
Status ParseVocabularyLevel(const std::string& name, VocabularyLevel* level);

struct VocabularyOptions {
  VocabularyLevel level = VocabularyLevel::kCharacter;
  int max_size = 0;   // the most ids, specials included (5 … kMaxSize); 0: kMaxSize
  int min_count = 1;  // symbols seen fewer times are left out (they encode as <unk>)
};

struct VocabularyLimits {
  static constexpr int kMaxSize = 65536;
  static constexpr size_t kMaxCorpusBytes = size_t{64} << 20;
  static constexpr size_t kMaxSymbolBytes = 1024;  // longer words are left out
};

class Vocabulary {
 public:
  static constexpr int kPad = 0;
  static constexpr int kUnknown = 1;
  static constexpr int kBegin = 2;
  static constexpr int kEnd = 3;
  static constexpr int kSpecialCount = 4;

  // Only the special tokens, character level.
  Vocabulary();

  // Counts the symbols of `text` (UTF-8, at most kMaxCorpusBytes) and keeps the most frequent.
  // Errors: kInvalidUtf8 for field "text" naming the byte offset, kLimitExceeded for "text",
  // kInvalidArgument for "maxSize" or "minCount". `vocabulary` is only written on success.
  static Status Build(std::string_view text, const VocabularyOptions& options,
                      Vocabulary* vocabulary);

  // A saved vocabulary (e.g. a model file's): the four specials first, then unique non-empty
  // UTF-8 symbols (character level: one code point each). Errors name "vocabulary[i]".
  static Status FromSymbols(const std::vector<std::string>& symbols, VocabularyLevel level,
                            Vocabulary* vocabulary);

  int size() const { return static_cast<int>(symbols_.size()); }
  VocabularyLevel level() const { return level_; }
  const std::vector<std::string>& symbols() const { return symbols_; }
  // The id of `symbol`, or kUnknown.
  int Id(std::string_view symbol) const;

  // Text → ids ([number of symbols in the text]); unknown symbols give kUnknown. Same errors as
  // Build for "text".
  Status Encode(std::string_view text, std::vector<int>* ids) const;
  // Ids → text; specials appear as their names ("<unk>"). An id outside [0, size) gives
  // kInvalidArgument for "ids[i]".
  Status Decode(const std::vector<int>& ids, std::string* text) const;

 private:
  VocabularyLevel level_ = VocabularyLevel::kCharacter;
  std::vector<std::string> symbols_;
  std::unordered_map<std::string, int> ids_;
};

}  // namespace attention::train
