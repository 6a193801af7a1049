// A user's own text made ready for a corpus trainer in the page: its bytes counted
// in pieces (so that a worker can post a progress bar between them), a vocabulary of the most
// frequent symbols (vocabulary.hpp's ids and order), the text encoded in the same pieces, and a
// held-out tail. Every refusal names the field and the limit: an empty, binary, invalid or too
// large text, a text of one symbol, a vocabulary past the limit.
//
//   CorpusText text;
//   text.Start(VocabularyLevel::kWord, total_bytes);
//   text.Add(bytes, n);  …  text.Add(bytes, n);           // pieces of any size, in order
//   text.Finish(options);                                  // the vocabulary, from the counts
//   while (!text.encoded()) text.EncodeNext();             // ids, piece by piece
//   text.train_ids(), text.held_out_ids()
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "attention/status.hpp"
#include "attention/train/vocabulary.hpp"

namespace attention::bindings {

struct CorpusTextLimits {
  // A page's text: its ids (4 bytes a symbol) and the model share WASM memory with the explorer.
  static constexpr size_t kMaxBytes = size_t{16} << 20;
  // The vocabulary's ids, specials included: the page's max of the vocabularySize row
  // (corpus_fields.hpp).
  static int MaxVocabulary();
  // Fewer tokens than this teach nothing (a context of 8 and a held-out tail need them).
  static constexpr int64_t kMinTokens = 24;
  // The held-out tail is scored while training: at most this many tokens keep that quick.
  static constexpr int64_t kMaxHeldOutTokens = 4096;
  // Control characters (tab, line feed, carriage return and form feed aside) beyond this share
  // of the characters mark a binary file.
  static constexpr double kMaxControlShare = 0.01;
};

// The text's rows of corpus_fields.hpp (the defaults and bounds are theirs): the most ids, the
// fewest occurrences of a symbol (rarer ones read as <unk>), the share held out at the end.
struct CorpusTextOptions {
  CorpusTextOptions();
  int vocabulary_size;
  int min_count;
  double held_out;
};

class CorpusText {
 public:
  // A new text of `total_bytes` bytes at `level`. Errors: "text" empty or past kMaxBytes.
  Status Start(train::VocabularyLevel level, size_t total_bytes);
  // The next `n` bytes. Whole code points (character level) or whole words (word level) are
  // counted at once; the rest waits for the next piece. Errors: invalid UTF-8 or a NUL byte
  // (field "text", naming the byte offset), more bytes than Start announced.
  Status Add(const uint8_t* bytes, size_t n);
  // The vocabulary from the counts, once every byte is in. Errors: a binary text (control
  // characters), too few tokens, one distinct symbol ("text"); a vocabulary past the limit
  // ("vocabulary"); options outside their rows ("vocabularySize", "minCount", "heldOut").
  Status Finish(const CorpusTextOptions& options);
  // Encodes the next counted piece; after the last one, splits the ids into training text and
  // held-out tail.
  Status EncodeNext();

  size_t total_bytes() const { return total_; }
  size_t counted_bytes() const { return counted_; }
  size_t encoded_bytes() const { return encoded_bytes_; }
  bool finished() const { return finished_; }
  bool encoded() const { return encoded_; }
  train::VocabularyLevel level() const { return level_; }
  const train::Vocabulary& vocabulary() const { return vocabulary_; }
  int64_t tokens() const { return symbols_; }
  int64_t distinct() const { return static_cast<int64_t>(counts_.size()); }
  int64_t unknown() const { return unknown_; }
  const std::vector<int>& train_ids() const { return train_; }
  const std::vector<int>& held_out_ids() const { return held_out_; }

 private:
  Status Count(size_t begin, size_t end);

  train::VocabularyLevel level_ = train::VocabularyLevel::kCharacter;
  std::string text_;            // the bytes received, until encoded
  size_t total_ = 0;            // bytes announced
  size_t counted_ = 0;          // text_[0, counted_) is counted
  size_t start_ = 0;            // 3 after a byte order mark, which is not the text's
  std::vector<size_t> pieces_;  // the end of each counted piece: the encoding's boundaries
  std::unordered_map<std::string, int64_t> counts_;  // symbol → count (words; all, once finished)
  // Character level counts code points, not strings (about twice as fast): ASCII in an array,
  // the rest in a map; Finish moves them into counts_.
  int64_t ascii_[128] = {};
  std::unordered_map<char32_t, int64_t> code_points_;
  int64_t symbols_ = 0;     // symbols counted (the text's tokens)
  int64_t characters_ = 0;  // code points
  int64_t controls_ = 0;    // control characters but \t \n \r \f
  bool finished_ = false, encoded_ = false;
  double held_out_share_ = 0;  // options.held_out, once finished
  size_t next_piece_ = 0, encoded_bytes_ = 0;
  int64_t unknown_ = 0;
  train::Vocabulary vocabulary_;
  std::vector<int> ids_, train_, held_out_;
};

}  // namespace attention::bindings
