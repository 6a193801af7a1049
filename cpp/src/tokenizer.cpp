#include "attention/tokenizer.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "attention/config.hpp"
#include "format.hpp"
#include "unicode.hpp"

namespace attention {
namespace {

// A decoded code point and the byte offset where it starts; the character after the last one is
// a sentinel at text.size(), so a token's bytes are always [chars[begin].offset,
// chars[end].offset) and tokens stay byte-exact substrings of the input.
struct Char {
  char32_t value;
  std::size_t offset;
};

class Segmenter {
 public:
  explicit Segmenter(const std::vector<Char>& chars) : chars_(chars), size_(chars.size() - 1) {}

  // Returns the index one past the token that starts at `i`, or `i` itself when chars_[i] is a
  // separator (whitespace or a control character), which belongs to no token.
  std::size_t TokenEnd(std::size_t i) const {
    const char32_t c = chars_[i].value;
    if (IsSeparator(c)) return i;
    if (EmojiAt(i)) return EmojiEnd(i);
    // Punctuation, symbols and CJK characters are tokens on their own. So is an extender with no
    // character before it (at the start of the text or after a separator): joining it to the
    // next word would make the mark modify a character it was never attached to.
    if (unicode::IsExtender(c) || unicode::IsPunctuationOrSymbol(c) || unicode::IsCjk(c)) {
      return SkipExtenders(i + 1);
    }
    return WordEnd(i);
  }

 private:
  // Control characters other than whitespace carry no text; treating them as separators keeps
  // them out of tokens (and out of the embedding hash) without failing the whole input.
  static bool IsSeparator(char32_t c) { return unicode::IsWhiteSpace(c) || unicode::IsControl(c); }

  // A keycap is a digit, '#' or '*', an optional VS16 and U+20E3. Spotting it at its base keeps
  // a letter followed by keycap 1 from reading as a single word.
  bool KeycapAt(std::size_t i) const {
    if (!unicode::IsKeycapBase(chars_[i].value)) return false;
    std::size_t next = i + 1;
    if (next < size_ && chars_[next].value == unicode::kVariationSelector16) ++next;
    return next < size_ && chars_[next].value == unicode::kCombiningEnclosingKeycap;
  }

  bool EmojiAt(std::size_t i) const {
    const char32_t c = chars_[i].value;
    // A skin-tone modifier with no emoji before it still renders as a colour swatch emoji.
    return unicode::IsExtendedPictographic(c) || unicode::IsRegionalIndicator(c) ||
           unicode::IsEmojiModifier(c) || KeycapAt(i);
  }

  std::size_t SkipExtenders(std::size_t i) const {
    while (i < size_ && unicode::IsExtender(chars_[i].value)) ++i;
    return i;
  }

  // An emoji sequence: a base, then any modifiers, variation selectors, keycap marks and tags,
  // and a further pictograph after each ZWJ (UAX #29 rules GB9–GB11). Flags are pairs of
  // regional indicators (GB12–GB13), so a third indicator starts the next flag.
  std::size_t EmojiEnd(std::size_t i) const {
    if (unicode::IsRegionalIndicator(chars_[i].value)) {
      ++i;
      if (i < size_ && unicode::IsRegionalIndicator(chars_[i].value)) ++i;
      return SkipExtenders(i);
    }
    ++i;
    while (i < size_) {
      const char32_t c = chars_[i].value;
      if (!unicode::IsEmojiModifier(c) && !unicode::IsExtender(c)) break;
      ++i;
      if (c == unicode::kZeroWidthJoiner && i < size_ &&
          unicode::IsExtendedPictographic(chars_[i].value)) {
        ++i;
      }
    }
    return i;
  }

  // Letters and digits of any script that is written with spaces (Latin, Cyrillic, Greek,
  // Hebrew, Arabic, Indic, Hangul, ...), with the marks and format characters inside them.
  std::size_t WordEnd(std::size_t i) const {
    ++i;
    while (i < size_) {
      const char32_t c = chars_[i].value;
      if (!unicode::IsExtender(c) && (IsSeparator(c) || EmojiAt(i) ||
                                      unicode::IsPunctuationOrSymbol(c) || unicode::IsCjk(c))) {
        break;
      }
      ++i;
    }
    return i;
  }

  const std::vector<Char>& chars_;
  const std::size_t size_;  // chars_ without the sentinel
};

// Decodes all of `text` before any token is produced, so that invalid input yields no tokens.
Status Decode(std::string_view text, std::vector<Char>* chars) {
  std::size_t offset = 0;
  while (offset < text.size()) {
    char32_t value = 0;
    std::size_t length = 0;
    std::string error;
    if (!unicode::DecodeUtf8(text, offset, &value, &length, &error)) {
      return Status(ErrorCode::kInvalidUtf8, "text", "text is not valid UTF-8: " + error);
    }
    chars->push_back({value, offset});
    offset += length;
  }
  chars->push_back({0, text.size()});
  return Status::Ok();
}

}  // namespace

Status Tokenize(std::string_view text, std::vector<std::string>* tokens) {
  if (tokens == nullptr) {
    return Status(ErrorCode::kInvalidArgument, "tokens", "tokens must not be null");
  }
  tokens->clear();
  // Checked first: the work and the memory below grow with the text (16 bytes per character).
  if (text.size() > static_cast<std::size_t>(Limits::kMaxTextBytes)) {
    return Status(ErrorCode::kLimitExceeded, "text",
                  Format("text (%zu bytes) must be at most %d bytes of UTF-8; truncate it",
                         text.size(), Limits::kMaxTextBytes));
  }
  std::vector<Char> chars;
  Status status = Decode(text, &chars);
  if (!status.ok()) return status;

  const Segmenter segmenter(chars);
  const std::size_t size = chars.size() - 1;
  std::size_t i = 0;
  while (i < size) {
    const std::size_t end = segmenter.TokenEnd(i);
    if (end == i) {
      ++i;
      continue;
    }
    tokens->emplace_back(text.substr(chars[i].offset, chars[end].offset - chars[i].offset));
    i = end;
  }
  return Status::Ok();
}

}  // namespace attention
