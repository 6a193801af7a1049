#include "attention/bpe.hpp"

#include <cstddef>
#include <functional>
#include <queue>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "attention/config.hpp"
#include "bpe_files.hpp"
#include "bpe_pretokenize.hpp"
#include "format.hpp"

namespace attention {
namespace {

bool IsContinuationByte(unsigned char b) { return (b & 0xC0) == 0x80; }

// The length of the valid UTF-8 sequence at bytes[i], or of its maximal invalid subpart as a
// negative number (WHATWG's decoder and Unicode's "best practice": a lead byte and those of its
// continuation bytes that are in range are one U+FFFD).
int Utf8SequenceAt(std::string_view bytes, std::size_t i) {
  const auto lead = static_cast<unsigned char>(bytes[i]);
  if (lead < 0x80) return 1;
  int size = 0;
  unsigned char low = 0x80, high = 0xBF;  // the second byte's range
  if (lead >= 0xC2 && lead <= 0xDF) {
    size = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    size = 3;
    if (lead == 0xE0) low = 0xA0;   // no overlong forms
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    size = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;  // nothing above U+10FFFF
  } else {
    return -1;
  }
  for (int k = 1; k < size; ++k) {
    if (i + k >= bytes.size()) return -k;
    const auto b = static_cast<unsigned char>(bytes[i + k]);
    if (k == 1 ? (b < low || b > high) : !IsContinuationByte(b)) return -k;
  }
  return size;
}

}  // namespace

Status BpeTokenizer::Create(std::string_view vocabulary_json, std::string_view merges_text,
                            const BpeFileNames& names, BpeTokenizer* tokenizer) {
  std::vector<bpe::VocabularyEntry> entries;
  Status status = bpe::ParseVocabulary(vocabulary_json, names.vocab, &entries);
  if (!status.ok()) return status;
  std::vector<bpe::MergeLine> lines;
  status = bpe::ParseMerges(merges_text, names.merges, &lines);
  if (!status.ok()) return status;

  BpeTokenizer made;
  const int size = static_cast<int>(entries.size());
  std::unordered_map<std::string, int> id_of;
  id_of.reserve(entries.size());
  made.token_bytes_.reserve(entries.size());
  for (int id = 0; id < size; ++id) {
    id_of.emplace(entries[id].bytes, id);
    made.token_bytes_.push_back(std::move(entries[id].bytes));
  }
  // A byte the vocabulary lacks still gets a symbol (above the ids), so that a merge may use it;
  // encoding fails only if such a symbol survives the merges.
  for (int b = 0; b < 256; ++b) {
    const auto it = id_of.find(std::string(1, static_cast<char>(b)));
    made.byte_symbol_[b] = it != id_of.end() ? it->second : size + b;
  }

  auto error = [&](const bpe::MergeLine& merge, const std::string& what) {
    return Status(ErrorCode::kInvalidArgument, "merges",
                  Format("merges (%s) line %d (%s): %s", names.merges.c_str(), merge.line,
                         bpe::Quote(merge.text).c_str(), what.c_str()));
  };
  // made_at[id]: the line whose merge makes the token, or 0.
  std::vector<int> made_at(entries.size(), 0);
  made.merges_.reserve(lines.size());
  for (std::size_t rank = 0; rank < lines.size(); ++rank) {
    const bpe::MergeLine& merge = lines[rank];
    int symbols[2];
    const std::string* sides[2] = {&merge.left, &merge.right};
    for (int s = 0; s < 2; ++s) {
      const std::string& bytes = *sides[s];
      if (bytes.size() == 1) {
        symbols[s] = made.byte_symbol_[static_cast<unsigned char>(bytes[0])];
        continue;
      }
      const auto it = id_of.find(bytes);
      if (it == id_of.end() || made_at[it->second] == 0) {
        return error(merge, Format("%s is neither one byte nor made by an earlier line (each "
                                   "side of a merge must be one of these)",
                                   bpe::Quote(bpe::BytesToSpelling(bytes)).c_str()));
      }
      symbols[s] = it->second;
    }
    const auto result = id_of.find(merge.left + merge.right);
    if (result == id_of.end()) {
      return error(merge, Format("makes %s, which the vocabulary (%s) has no id for",
                                 bpe::Quote(bpe::BytesToSpelling(merge.left + merge.right)).c_str(),
                                 names.vocab.c_str()));
    }
    const auto [it, fresh] = made.merges_.emplace(PairKey(symbols[0], symbols[1]),
                                                  Merge{static_cast<int>(rank), result->second});
    if (!fresh) {
      return error(merge, Format("repeats the merge of line %d", lines[it->second.rank].line));
    }
    if (made_at[result->second] == 0) made_at[result->second] = merge.line;
  }
  *tokenizer = std::move(made);
  return Status::Ok();
}

const BpeTokenizer::Merge* BpeTokenizer::FindMerge(int left, int right) const {
  const auto it = merges_.find(PairKey(left, right));
  return it == merges_.end() ? nullptr : &it->second;
}

// encoder.py's bpe(): while some neighbouring pair has a merge, merge every occurrence (left to
// right) of the pair with the lowest rank. Here a priority queue of (rank, position) does the
// same in O(n log n) instead of O(n²): Create made sure that a merge only uses symbols of
// earlier lines, so the pairs a merge creates rank after it, and popping the queue visits each
// rank's occurrences left to right exactly as encoder.py's scan does. An entry whose pair has
// since changed is stale and skipped.
Status BpeTokenizer::EncodeWord(std::string_view text, int begin, int end,
                                std::vector<BpeToken>* tokens) const {
  const int n = end - begin;
  std::vector<int> symbol(n), next(n), prev(n), stop(n);  // a linked list over the bytes
  for (int i = 0; i < n; ++i) {
    symbol[i] = byte_symbol_[static_cast<unsigned char>(text[begin + i])];
    next[i] = i + 1;
    prev[i] = i - 1;
    stop[i] = i + 1;
  }
  using Entry = std::pair<int, int>;  // (rank, position of the pair's left symbol)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  auto push = [&](int i) {
    if (i < 0 || next[i] >= n) return;
    if (const Merge* merge = FindMerge(symbol[i], symbol[next[i]])) queue.emplace(merge->rank, i);
  };
  for (int i = 0; i + 1 < n; ++i) push(i);
  while (!queue.empty()) {
    const auto [rank, i] = queue.top();
    queue.pop();
    if (symbol[i] < 0 || next[i] >= n) continue;
    const Merge* merge = FindMerge(symbol[i], symbol[next[i]]);
    if (merge == nullptr || merge->rank != rank) continue;
    const int j = next[i];
    symbol[i] = merge->result;
    symbol[j] = -1;
    stop[i] = stop[j];
    next[i] = next[j];
    if (next[i] < n) prev[next[i]] = i;
    push(prev[i]);
    push(i);
  }
  for (int i = 0; i < n; i = next[i]) {
    if (symbol[i] >= size()) {
      const unsigned byte = static_cast<unsigned char>(text[begin + i]);
      return Status(ErrorCode::kInvalidArgument, "text",
                    Format("text byte 0x%02X at byte offset %d has no token in the vocabulary "
                           "(%d tokens), and no merge covers it",
                           byte, begin + i, size()));
    }
    tokens->push_back({symbol[i], begin + i, begin + stop[i]});
  }
  return Status::Ok();
}

Status BpeTokenizer::Encode(std::string_view text, std::vector<BpeToken>* tokens) const {
  tokens->clear();
  if (text.size() > static_cast<std::size_t>(Limits::kMaxTextBytes)) {
    return Status(ErrorCode::kLimitExceeded, "text",
                  Format("text (%zu bytes) must be at most %d bytes of UTF-8; truncate it",
                         text.size(), Limits::kMaxTextBytes));
  }
  std::vector<bpe::Span> spans;
  Status status = bpe::Pretokenize(text, &spans);
  if (!status.ok()) return status;
  std::vector<BpeToken> out;
  out.reserve(text.size() / 3);
  for (const bpe::Span& span : spans) {
    status = EncodeWord(text, static_cast<int>(span.begin), static_cast<int>(span.end), &out);
    if (!status.ok()) return status;
  }
  *tokens = std::move(out);
  return Status::Ok();
}

Status BpeTokenizer::Decode(const std::vector<int>& ids, std::string* text) const {
  text->clear();
  // Each id stands for up to BpeLimits::kMaxSymbolBytes bytes: the bound keeps one call's output
  // within 100 MB.
  if (ids.size() > static_cast<std::size_t>(Limits::kMaxTextBytes)) {
    return Status(ErrorCode::kLimitExceeded, "ids",
                  Format("ids (%zu) must be at most %d ids", ids.size(), Limits::kMaxTextBytes));
  }
  std::string bytes;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] >= size()) {
      const std::string field = Format("ids[%zu]", i);
      return Status(
          ErrorCode::kInvalidArgument, field,
          Format("%s (%d) must be a token id from 0 to %d", field.c_str(), ids[i], size() - 1));
    }
    bytes += token_bytes_[ids[i]];
  }
  std::string out;
  out.reserve(bytes.size());
  for (std::size_t i = 0; i < bytes.size();) {
    const int length = Utf8SequenceAt(bytes, i);
    if (length > 0) {
      out.append(bytes, i, static_cast<std::size_t>(length));
      i += static_cast<std::size_t>(length);
    } else {
      out += "\xEF\xBF\xBD";  // U+FFFD
      i += static_cast<std::size_t>(-length);
    }
  }
  *text = std::move(out);
  return Status::Ok();
}

std::string BpeTokenizer::TokenSpelling(int id) const {
  return bpe::BytesToSpelling(token_bytes_[id]);
}

std::vector<BpeCharacterGroup> BpeCharacterGroups(std::string_view text,
                                                  const std::vector<BpeToken>& tokens) {
  std::vector<BpeCharacterGroup> groups;
  const int count = static_cast<int>(tokens.size());
  for (int first = 0; first < count;) {
    int last = first;
    // A token that ends just before a continuation byte ends inside a character.
    while (last + 1 < count && tokens[last].end < static_cast<int>(text.size()) &&
           IsContinuationByte(static_cast<unsigned char>(text[tokens[last].end]))) {
      ++last;
    }
    groups.push_back({first, last - first + 1, tokens[first].begin, tokens[last].end});
    first = last + 1;
  }
  return groups;
}

}  // namespace attention
