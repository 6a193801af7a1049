#include <string>

#include "attention/tokenizer.hpp"
#include "unicode.hpp"

namespace attention {

Status CheckUtf8(std::string_view text, const std::string& field) {
  std::size_t offset = 0;
  while (offset < text.size()) {
    char32_t code_point = 0;
    std::size_t length = 0;
    std::string error;
    if (!unicode::DecodeUtf8(text, offset, &code_point, &length, &error)) {
      return Status(ErrorCode::kInvalidUtf8, field, field + " is not valid UTF-8: " + error);
    }
    offset += length;
  }
  return Status::Ok();
}

}  // namespace attention
