#include "bpe_files.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "attention/bpe.hpp"
#include "format.hpp"
#include "unicode.hpp"

namespace attention {
namespace bpe {
namespace {

bool StandsForItself(unsigned byte) {
  return (byte >= '!' && byte <= '~') || (byte >= 0xA1 && byte <= 0xAC) || byte >= 0xAE;
}

// bytes_to_unicode() as a table, built once: byte → character and character → byte.
struct Alphabet {
  char32_t chars[256];
  int bytes[512];  // every character of the alphabet is below U+0200
  Alphabet() {
    for (int& b : bytes) b = -1;
    unsigned next = 256;
    for (unsigned b = 0; b < 256; ++b) {
      chars[b] = StandsForItself(b) ? b : next++;
      bytes[chars[b]] = static_cast<int>(b);
    }
  }
};

const Alphabet& TheAlphabet() {
  static const Alphabet alphabet;
  return alphabet;
}

std::string CodePoint(char32_t c) { return Format("U+%04X", static_cast<unsigned>(c)); }

// A JSON object of string keys and integer values, read with its line numbers.
class VocabularyParser {
 public:
  VocabularyParser(std::string_view json, const std::string& file) : json_(json), file_(file) {}

  Status Parse(std::vector<VocabularyEntry>* tokens) {
    std::unordered_map<std::string, int> line_of_key;
    std::vector<std::pair<long long, VocabularyEntry>> entries;
    SkipSpace();
    if (!Consume('{')) return Error("expected '{' (the file must be one JSON object)");
    SkipSpace();
    if (!Consume('}')) {
      while (true) {
        SkipSpace();
        const int line = line_;
        std::string key;
        Status status = ReadString(&key);
        if (!status.ok()) return status;
        if (entries.size() >= static_cast<std::size_t>(BpeLimits::kMaxVocabulary)) {
          return Status(ErrorCode::kLimitExceeded, "vocab",
                        Format("vocab (%s) has more than %d tokens", file_.c_str(),
                               BpeLimits::kMaxVocabulary));
        }
        auto [it, fresh] = line_of_key.emplace(key, line);
        if (!fresh) {
          return ErrorAt(
              line, Format("key %s repeats the key of line %d", Quote(key).c_str(), it->second));
        }
        SkipSpace();
        if (!Consume(':')) return ErrorAt(line_, "expected ':' after key " + Quote(key));
        SkipSpace();
        long long id = 0;
        status = ReadId(key, &id);
        if (!status.ok()) return status;
        VocabularyEntry entry;
        char32_t bad = 0;
        if (!SpellingToBytes(key, &entry.bytes, &bad)) {
          return ErrorAt(line, Format("key %s has %s, which is not in GPT-2's byte alphabet "
                                      "(tokens are spelt with one character per byte)",
                                      Quote(key).c_str(), CodePoint(bad).c_str()));
        }
        if (entry.bytes.size() > static_cast<std::size_t>(BpeLimits::kMaxSymbolBytes)) {
          return ErrorAt(
              line, Format("key %s stands for %zu bytes, more than the %d allowed",
                           Quote(key).c_str(), entry.bytes.size(), BpeLimits::kMaxSymbolBytes));
        }
        if (entry.bytes.empty()) return ErrorAt(line, "the empty key \"\" is not a token");
        entry.line = line;
        entries.emplace_back(id, std::move(entry));
        SkipSpace();
        if (Consume('}')) break;
        if (!Consume(',')) return ErrorAt(line_, "expected ',' or '}' after key " + Quote(key));
      }
    }
    SkipSpace();
    if (pos_ != json_.size()) return Error("unexpected text after the closing '}'");
    if (entries.empty()) return Error("has no tokens");
    // Ids 0 … N−1, each once: an embedding table has exactly one row per id.
    const long long count = static_cast<long long>(entries.size());
    tokens->assign(entries.size(), VocabularyEntry{std::string(), 0});
    for (auto& [id, entry] : entries) {
      if (id >= count) {
        return ErrorAt(entry.line,
                       Format("key %s has id %lld; with %lld tokens the ids must be 0 to %lld",
                              Quote(BytesToSpelling(entry.bytes)).c_str(), id, count, count - 1));
      }
      VocabularyEntry& slot = (*tokens)[static_cast<std::size_t>(id)];
      if (slot.line != 0) {
        return ErrorAt(entry.line,
                       Format("key %s has id %lld, as the key of line %d does",
                              Quote(BytesToSpelling(entry.bytes)).c_str(), id, slot.line));
      }
      slot = std::move(entry);
    }
    return Status::Ok();
  }

 private:
  Status ErrorAt(int line, const std::string& what) const {
    return Status(ErrorCode::kInvalidArgument, "vocab",
                  Format("vocab (%s) line %d: %s", file_.c_str(), line, what.c_str()));
  }
  Status Error(const std::string& what) const {
    return Status(ErrorCode::kInvalidArgument, "vocab",
                  Format("vocab (%s) %s", file_.c_str(), what.c_str()));
  }

  void SkipSpace() {
    while (pos_ < json_.size()) {
      const char c = json_[pos_];
      if (c == '\n') {
        ++line_;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        return;
      }
      ++pos_;
    }
  }

  bool Consume(char c) {
    if (pos_ < json_.size() && json_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  bool ReadHex4(unsigned* value) {
    if (json_.size() - pos_ < 4) return false;
    *value = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = json_[pos_++];
      unsigned digit;
      if (c >= '0' && c <= '9') {
        digit = static_cast<unsigned>(c - '0');
      } else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') {
        digit = static_cast<unsigned>((c | 0x20) - 'a' + 10);
      } else {
        return false;
      }
      *value = *value * 16 + digit;
    }
    return true;
  }

  // A JSON string with its escapes (\uXXXX with surrogate pairs) → UTF-8.
  Status ReadString(std::string* out) {
    if (!Consume('"')) return ErrorAt(line_, "expected a key in double quotes");
    while (true) {
      if (pos_ >= json_.size()) return ErrorAt(line_, "the file ends inside a string");
      const char c = json_[pos_];
      if (c == '"') {
        ++pos_;
        return Status::Ok();
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        return ErrorAt(line_, Format("control character 0x%02X inside a string (write it as \\u"
                                     "%04X)",
                                     static_cast<unsigned>(c), static_cast<unsigned>(c)));
      }
      if (c != '\\') {
        char32_t value = 0;
        std::size_t length = 0;
        std::string error;
        if (!unicode::DecodeUtf8(json_, pos_, &value, &length, &error)) {
          return ErrorAt(line_, "not valid UTF-8: " + error);
        }
        out->append(json_.substr(pos_, length));
        pos_ += length;
        continue;
      }
      ++pos_;
      if (pos_ >= json_.size()) return ErrorAt(line_, "the file ends inside a string");
      const char escape = json_[pos_++];
      switch (escape) {
        case '"':
        case '\\':
        case '/':
          out->push_back(escape);
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'u': {
          unsigned unit = 0;
          if (!ReadHex4(&unit)) return ErrorAt(line_, "\\u must be followed by 4 hex digits");
          char32_t value = unit;
          if (unit >= 0xDC00 && unit <= 0xDFFF) {
            return ErrorAt(line_, Format("lone low surrogate \\u%04X in a string", unit));
          }
          if (unit >= 0xD800 && unit <= 0xDBFF) {
            unsigned low = 0;
            if (!Consume('\\') || !Consume('u') || !ReadHex4(&low) || low < 0xDC00 ||
                low > 0xDFFF) {
              return ErrorAt(line_, Format("high surrogate \\u%04X without its low half", unit));
            }
            value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
          }
          unicode::AppendUtf8(value, out);
          break;
        }
        default:
          return ErrorAt(line_, Format("unknown escape \\%c in a string", escape));
      }
    }
  }

  // An id: a JSON integer (digits, an optional minus; no fraction or exponent).
  Status ReadId(const std::string& key, long long* id) {
    const std::size_t start = pos_;
    const bool negative = Consume('-');
    long long value = 0;
    std::size_t digits = 0;
    while (pos_ < json_.size() && json_[pos_] >= '0' && json_[pos_] <= '9') {
      if (value < (1LL << 40)) value = value * 10 + (json_[pos_] - '0');
      ++pos_;
      ++digits;
    }
    const bool fraction =
        pos_ < json_.size() && (json_[pos_] == '.' || json_[pos_] == 'e' || json_[pos_] == 'E');
    if (digits == 0 || negative || fraction) {
      std::size_t end = pos_;
      while (end < json_.size() && end - start < 20 && json_[end] != ',' && json_[end] != '}' &&
             json_[end] != '\n') {
        ++end;
      }
      return ErrorAt(line_,
                     Format("key %s must have a whole number from 0 as its id, not %s",
                            Quote(key).c_str(), Quote(json_.substr(start, end - start)).c_str()));
    }
    *id = value;
    return Status::Ok();
  }

  std::string_view json_;
  const std::string& file_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

char32_t ByteToChar(unsigned char byte) { return TheAlphabet().chars[byte]; }

int CharToByte(char32_t c) { return c < 512 ? TheAlphabet().bytes[c] : -1; }

bool SpellingToBytes(std::string_view spelling, std::string* bytes, char32_t* bad) {
  bytes->clear();
  for (std::size_t offset = 0; offset < spelling.size();) {
    char32_t c = 0;
    std::size_t length = 0;
    std::string error;
    // The callers hand in text already checked as UTF-8; 0xFFFD stands for anything else.
    if (!unicode::DecodeUtf8(spelling, offset, &c, &length, &error)) {
      *bad = 0xFFFD;
      return false;
    }
    const int byte = CharToByte(c);
    if (byte < 0) {
      *bad = c;
      return false;
    }
    bytes->push_back(static_cast<char>(byte));
    offset += length;
  }
  return true;
}

std::string BytesToSpelling(std::string_view bytes) {
  std::string out;
  for (const char b : bytes) unicode::AppendUtf8(ByteToChar(static_cast<unsigned char>(b)), &out);
  return out;
}

std::string Quote(std::string_view text) {
  std::string out = "\"";
  std::size_t chars = 0;
  for (std::size_t offset = 0; offset < text.size();) {
    if (++chars > 40) {
      out += "…";
      break;
    }
    char32_t c = 0;
    std::size_t length = 0;
    std::string error;
    if (!unicode::DecodeUtf8(text, offset, &c, &length, &error)) {
      out += Format("\\x%02X", static_cast<unsigned>(static_cast<unsigned char>(text[offset])));
      ++offset;
      continue;
    }
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7F) {
      out += Format("\\u%04X", static_cast<unsigned>(c));
    } else {
      out.append(text.substr(offset, length));
    }
    offset += length;
  }
  return out + "\"";
}

Status ParseVocabulary(std::string_view json, const std::string& file,
                       std::vector<VocabularyEntry>* tokens) {
  tokens->clear();
  if (json.size() > static_cast<std::size_t>(BpeLimits::kMaxVocabularyBytes)) {
    return Status(ErrorCode::kLimitExceeded, "vocab",
                  Format("vocab (%s) has %zu bytes, more than the %d allowed", file.c_str(),
                         json.size(), BpeLimits::kMaxVocabularyBytes));
  }
  std::vector<VocabularyEntry> parsed;
  Status status = VocabularyParser(json, file).Parse(&parsed);
  if (status.ok()) *tokens = std::move(parsed);
  return status;
}

Status ParseMerges(std::string_view text, const std::string& file, std::vector<MergeLine>* merges) {
  merges->clear();
  auto error = [&](int line, const std::string& what) {
    return Status(ErrorCode::kInvalidArgument, "merges",
                  Format("merges (%s) line %d: %s", file.c_str(), line, what.c_str()));
  };
  if (text.size() > static_cast<std::size_t>(BpeLimits::kMaxMergesBytes)) {
    return Status(ErrorCode::kLimitExceeded, "merges",
                  Format("merges (%s) has %zu bytes, more than the %d allowed", file.c_str(),
                         text.size(), BpeLimits::kMaxMergesBytes));
  }
  if (text.empty()) return error(1, "the file is empty; expected the header \"#version: 0.2\"");
  std::vector<MergeLine> parsed;
  std::size_t start = 0;
  for (int line = 1; start < text.size(); ++line) {
    std::size_t end = text.find('\n', start);
    const bool last = end == std::string_view::npos;
    if (last) end = text.size();
    std::string_view row = text.substr(start, end - start);
    start = end + 1;
    if (!row.empty() && row.back() == '\r') row.remove_suffix(1);
    if (line == 1) {
      if (row.substr(0, 8) != "#version") {
        return error(1,
                     "expected the header \"#version: 0.2\" (a merges file starts with it), "
                     "found " +
                         Quote(row));
      }
      continue;
    }
    if (row.empty()) {
      if (last || start >= text.size()) break;  // the empty line after the final newline
      return error(line, "empty line (each line is one merge \"a b\")");
    }
    std::string err;
    const std::size_t space = row.find(' ');
    if (space == std::string_view::npos || space == 0 || space + 1 >= row.size() ||
        row.find(' ', space + 1) != std::string_view::npos) {
      return error(line, "expected two symbols separated by one space, found " + Quote(row));
    }
    if (parsed.size() >= static_cast<std::size_t>(BpeLimits::kMaxMerges)) {
      return Status(
          ErrorCode::kLimitExceeded, "merges",
          Format("merges (%s) has more than %d merges", file.c_str(), BpeLimits::kMaxMerges));
    }
    MergeLine merge;
    merge.line = line;
    merge.text = std::string(row);
    char32_t bad = 0;
    for (auto [side, bytes] : {std::pair{row.substr(0, space), &merge.left},
                               std::pair{row.substr(space + 1), &merge.right}}) {
      for (std::size_t offset = 0; offset < side.size();) {
        char32_t c = 0;
        std::size_t length = 0;
        if (!unicode::DecodeUtf8(side, offset, &c, &length, &err)) {
          return error(line, "not valid UTF-8: " + err);
        }
        offset += length;
      }
      if (!SpellingToBytes(side, bytes, &bad)) {
        return error(line, Format("symbol %s has %s, which is not in GPT-2's byte alphabet",
                                  Quote(side).c_str(), CodePoint(bad).c_str()));
      }
    }
    parsed.push_back(std::move(merge));
  }
  *merges = std::move(parsed);
  return Status::Ok();
}

}  // namespace bpe
}  // namespace attention
