#include "bpe_pretokenize.hpp"

#include <cstddef>
#include <string>
#include <vector>

#include "unicode.hpp"

namespace attention {
namespace bpe {
namespace {

// What the pattern tells apart: \p{L}, \p{N}, \s and everything else.
enum class Class { kLetter, kNumber, kSpace, kOther };

Class ClassOf(char32_t c) {
  if (unicode::IsLetter(c)) return Class::kLetter;
  if (unicode::IsNumber(c)) return Class::kNumber;
  if (unicode::IsWhiteSpace(c)) return Class::kSpace;
  return Class::kOther;
}

struct Char {
  char32_t value;
  Class kind;
};

// The length in characters of the contraction at chars[i] ('s 't 're 've 'm 'll 'd, lower
// case only, as the pattern spells them), or 0.
std::size_t ContractionAt(const std::vector<Char>& chars, std::size_t i) {
  const std::size_t n = chars.size();
  if (chars[i].value != '\'' || i + 1 >= n) return 0;
  const char32_t a = chars[i + 1].value;
  if (a == 's' || a == 't' || a == 'm' || a == 'd') return 2;
  if (i + 2 >= n) return 0;
  const char32_t b = chars[i + 2].value;
  if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return 3;
  return 0;
}

// The end (in characters) of the piece that starts at chars[i]: the pattern's alternatives in
// its order, the first that matches winning.
std::size_t PieceEnd(const std::vector<Char>& chars, std::size_t i) {
  const std::size_t n = chars.size();
  if (const std::size_t length = ContractionAt(chars, i)) return i + length;
  // " ?\p{L}+", " ?\p{N}+", " ?[^\s\p{L}\p{N}]+": an optional ASCII space, then a run of one
  // class. A space followed by white space matches none of them.
  std::size_t start = i;
  if (chars[i].value == ' ' && i + 1 < n && chars[i + 1].kind != Class::kSpace) start = i + 1;
  const Class kind = chars[start].kind;
  if (kind != Class::kSpace) {
    std::size_t end = start + 1;
    while (end < n && chars[end].kind == kind) ++end;
    return end;
  }
  // "\s+(?!\S)": the run of white space, less its last character when something other than
  // white space follows (that character then starts the next piece: " word" keeps its space).
  // "\s+" takes a single white-space character the first alternative leaves.
  std::size_t end = i + 1;
  while (end < n && chars[end].kind == Class::kSpace) ++end;
  if (end < n && end - i >= 2) --end;
  return end;
}

}  // namespace

Status Pretokenize(std::string_view text, std::vector<Span>* spans) {
  spans->clear();
  std::vector<Char> chars;
  std::vector<std::size_t> offsets;  // byte offset of each character, then text.size()
  chars.reserve(text.size());
  offsets.reserve(text.size() + 1);
  for (std::size_t offset = 0; offset < text.size();) {
    char32_t value = 0;
    std::size_t length = 0;
    std::string error;
    if (!unicode::DecodeUtf8(text, offset, &value, &length, &error)) {
      return Status(ErrorCode::kInvalidUtf8, "text", "text is not valid UTF-8: " + error);
    }
    chars.push_back({value, ClassOf(value)});
    offsets.push_back(offset);
    offset += length;
  }
  offsets.push_back(text.size());
  for (std::size_t i = 0; i < chars.size();) {
    const std::size_t end = PieceEnd(chars, i);
    spans->push_back({offsets[i], offsets[end]});
    i = end;
  }
  return Status::Ok();
}

}  // namespace bpe
}  // namespace attention
