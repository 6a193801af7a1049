// Private Unicode helpers for the tokenizer: strict UTF-8 decoding, encoding and a few code point
// classes.
// The classes are compact range tables covering the scripts and symbols the engine is used with
// (not the whole UCD), so that the library carries no ICU dependency and behaves the same in
// native and WebAssembly builds.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>

namespace attention {
namespace unicode {

// A closed range of code points. The classes below are sorted, non-overlapping tables of them
// (unicode.cpp, and unicode_categories.cpp as its generator writes it), so that a binary search
// suffices.
struct Range {
  char32_t first;
  char32_t last;
};

// Whether `c` lies in a range of the sorted, non-overlapping `table`.
template <std::size_t N>
bool InRanges(const Range (&table)[N], char32_t c) {
  const Range* it =
      std::upper_bound(std::begin(table), std::end(table), c,
                       [](char32_t value, const Range& r) { return value < r.first; });
  return it != std::begin(table) && c <= std::prev(it)->last;
}

inline constexpr char32_t kZeroWidthJoiner = 0x200D;
inline constexpr char32_t kVariationSelector16 = 0xFE0F;
inline constexpr char32_t kCombiningEnclosingKeycap = 0x20E3;

// Decodes the code point starting at `text[offset]` (offset < text.size()). Returns true and sets
// `*code_point` and `*length` (1–4 bytes) on success. Otherwise returns false and sets `*error` to
// a phrase such as "invalid continuation byte 0x41 at byte offset 3": the offset is that of the
// offending byte for bad lead and continuation bytes, and that of the sequence's lead byte for
// truncated sequences, overlong forms, surrogates and values above U+10FFFF.
bool DecodeUtf8(std::string_view text, std::size_t offset, char32_t* code_point,
                std::size_t* length, std::string* error);

// Appends the UTF-8 bytes (1–4) of `c` (at most U+10FFFF; callers check surrogates) to `out`.
void AppendUtf8(char32_t c, std::string* out);

// Unicode White_Space (tab, newlines, space, NBSP, the U+2000 spaces, ideographic space, ...).
bool IsWhiteSpace(char32_t c);

// C0 and C1 control characters (U+0000–001F, U+007F–009F), including those that are also
// White_Space.
bool IsControl(char32_t c);

// General categories P* and S*: ASCII and Latin-1 punctuation, general punctuation, currency,
// arrows, mathematical and technical symbols, CJK and fullwidth punctuation, and symbols of the
// main scripts. Emoji are symbols too, so callers test for emoji first.
bool IsPunctuationOrSymbol(char32_t c);

// CJK ideographs (all planes), radicals, hiragana, katakana (also halfwidth), bopomofo and the
// CJK letters of the U+3000 block such as 々 and 〇.
bool IsCjk(char32_t c);

// Combining marks (Mn, Mc, Me) of Latin, Greek, Cyrillic, Hebrew, Arabic, Syriac, the Indic
// scripts, Thai, Lao, Tibetan, Myanmar and Khmer, plus the generic combining blocks, the
// variation selectors and the enclosing keycap U+20E3.
bool IsCombiningMark(char32_t c);

// Invisible format characters (Cf) that belong to the character before them, as UAX #29's
// word rules treat them: ZWJ, ZWNJ, directional marks, soft hyphen, BOM and emoji tags.
bool IsFormat(char32_t c);

// Anything that extends the preceding character: a combining mark or a format character.
inline bool IsExtender(char32_t c) { return IsCombiningMark(c) || IsFormat(c); }

// Extended_Pictographic (UTS #51): the characters that can start or join an emoji sequence.
// Excludes the regional indicators and the skin-tone modifiers, which have their own tests.
bool IsExtendedPictographic(char32_t c);

// General category L (Lu Ll Lt Lm Lo) and N (Nd Nl No) over all of Unicode, as regular
// expressions' \p{L} and \p{N} (GPT-2's pre-tokenizer); tables generated from Python's
// unicodedata by tests/reference/make_unicode_categories.py (unicode_categories.cpp).
bool IsLetter(char32_t c);
bool IsNumber(char32_t c);

inline bool IsRegionalIndicator(char32_t c) { return c >= 0x1F1E6 && c <= 0x1F1FF; }
inline bool IsEmojiModifier(char32_t c) { return c >= 0x1F3FB && c <= 0x1F3FF; }
inline bool IsTag(char32_t c) { return c >= 0xE0020 && c <= 0xE007F; }
// The characters that start a keycap sequence (base, optional VS16, U+20E3).
inline bool IsKeycapBase(char32_t c) { return (c >= '0' && c <= '9') || c == '#' || c == '*'; }

}  // namespace unicode
}  // namespace attention
