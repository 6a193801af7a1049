// GPT-2's pre-tokenizer: the pattern of OpenAI's encoder.py,
//
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//
// matched by hand (no std::regex: it has no \p{…}, and its speed and stack use depend on the
// library). BPE never merges across the pieces it returns.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "attention/status.hpp"

namespace attention {
namespace bpe {

struct Span {
  std::size_t begin;
  std::size_t end;
};

// The pieces of `text`, in order, as byte spans that cover the text without gaps. \p{L} and
// \p{N} are Unicode's general categories L and N (unicode::IsLetter, IsNumber); \s is Unicode's
// White_Space (unicode::IsWhiteSpace), as in Python's regex module that GPT-2 was trained with.
// (JavaScript's \s differs in two code points: it has U+FEFF and lacks U+0085.) Invalid UTF-8
// gives kInvalidUtf8 for field "text", naming the byte offset, and no spans.
Status Pretokenize(std::string_view text, std::vector<Span>* spans);

}  // namespace bpe
}  // namespace attention
