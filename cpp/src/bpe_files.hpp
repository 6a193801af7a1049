// Reading GPT-2's tokenizer files: the vocabulary (encoder.json / vocab.json) and the merges
// (vocab.bpe / merges.txt), both spelt in GPT-2's byte alphabet. Only the syntax is checked
// here; what the merges must mean is BpeTokenizer::Create's.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "attention/status.hpp"

namespace attention {
namespace bpe {

// GPT-2's bytes_to_unicode(): every byte as a printable character, so that the files can spell
// any byte sequence as text. The 188 printable bytes of Latin-1 ('!'…'~', '¡'…'¬', '®'…'ÿ')
// stand for themselves; the other 68 (controls, space, NBSP, soft hyphen) are U+0100 onwards in
// byte order: 0x00 → Ā (U+0100), 0x20 (space) → Ġ (U+0120), 0x0A (newline) → Ċ (U+010A).
char32_t ByteToChar(unsigned char byte);
// The byte a character of the alphabet stands for, or -1 for any other character.
int CharToByte(char32_t c);

// A spelling in the alphabet → the bytes it stands for. On a character outside the alphabet,
// returns false and sets *bad to it.
bool SpellingToBytes(std::string_view spelling, std::string* bytes, char32_t* bad);
// Bytes → their spelling in the alphabet (UTF-8).
std::string BytesToSpelling(std::string_view bytes);

// A short, printable rendering of a token or line for an error message: JSON-quoted, at most
// 40 characters.
std::string Quote(std::string_view text);

struct VocabularyEntry {
  std::string bytes;  // the token's bytes (its key decoded from the alphabet)
  int line;           // where the key is in the file, from 1
};

// Parses a JSON object {"token": id, ...}: `tokens` is indexed by id. Errors are
// kInvalidArgument (kLimitExceeded past BpeLimits) for field "vocab", naming `file`, the line
// and the key: a syntax error, a key outside the alphabet, a repeated key, an id that is not an
// integer in [0, N) or repeats another's.
Status ParseVocabulary(std::string_view json, const std::string& file,
                       std::vector<VocabularyEntry>* tokens);

struct MergeLine {
  std::string left;   // bytes
  std::string right;  // bytes
  std::string text;   // the line as written, for error messages
  int line;           // from 1
};

// Parses a merges file: a "#version" first line, then "a b" lines (two fields separated by
// spaces), an empty last line allowed; "\r\n" line ends are read as "\n". Errors are
// kInvalidArgument (kLimitExceeded past BpeLimits) for field "merges", naming `file` and the line.
Status ParseMerges(std::string_view text, const std::string& file, std::vector<MergeLine>* merges);

}  // namespace bpe
}  // namespace attention
