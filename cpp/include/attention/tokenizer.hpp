// The engine's own tokenizer, for C++ and node users (the page prefers Intl.Segmenter).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "attention/status.hpp"

namespace attention {

// Splits UTF-8 text into tokens, each a byte-exact substring of `text` (nothing is normalised):
//  - whitespace separates tokens and is dropped; so are control characters (U+0000–001F,
//    U+007F–009F), which carry no text;
//  - every punctuation or symbol character is a token of its own;
//  - a run of CJK ideographs (and kana) becomes one token per character;
//  - an emoji sequence (ZWJ joins, skin-tone modifiers, variation selectors, flags, keycaps,
//    tags) is one token and is never split; two regional indicators make one flag;
//  - letters, digits and their combining marks form words; a combining mark always stays with
//    the character before it, and one with no character before it (at the start of the text or
//    after a separator) is a token of its own.
// E.g. "I love 火锅!" gives I | love | 火 | 锅 | ! and "don't" gives don | ' | t.
// Invalid UTF-8 (bad lead or continuation bytes, truncated sequences, overlong forms,
// surrogates, > U+10FFFF) gives kInvalidUtf8 for field "text", naming the byte offset; `tokens`
// is then left empty. Text longer than Limits::kMaxTextBytes gives kLimitExceeded for field
// "text", naming both lengths, and no tokens. Empty or all-whitespace text gives no tokens. A
// null `tokens` gives kInvalidArgument.
Status Tokenize(std::string_view text, std::vector<std::string>* tokens);

// kInvalidUtf8 naming `field` and the byte offset when `text` is not valid UTF-8.
Status CheckUtf8(std::string_view text, const std::string& field);

}  // namespace attention
