// The tokens of JSON (RFC 8259) that both of the engine's readers share: white space, literal
// words, numbers and strings with their escapes (\u surrogate pairs joined, unpaired ones
// refused). FlatJson (one flat object, the model file's configuration) and ParseJson (any
// document: a safetensors header, a Hugging Face config.json) each derive their grammar from it,
// so that a string or a number reads the same in both. Internal to the engine.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "attention/status.hpp"

namespace attention::train {

class JsonLexer {
 protected:
  JsonLexer(std::string_view text, const std::string& field) : text_(text), field_(field) {}

  // kInvalidArgument for the field (field.key while a key's value is read), naming the offset:
  // "model.config: expected ':' at byte 12".
  Status Error(const std::string& what) const;
  void SkipSpace();
  // The next character after white space, or '\0' at the end.
  char Peek();
  // Consumes `c` after white space if it is next.
  bool Expect(char c);
  // Consumes `word` if the text continues with it here.
  bool Word(std::string_view word);
  // JSON's number grammar, -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, starting at the
  // current character ('-' or a digit); a number beyond a double is refused.
  Status Number(double* value);
  // A string after white space, its escapes decoded to UTF-8.
  Status String(std::string* out);

  std::string_view text_;
  const std::string& field_;
  const std::string* key_ = nullptr;  // the key whose value is being read, if any
  size_t at_ = 0;

 private:
  Status Hex4(char32_t* code);
};

}  // namespace attention::train
