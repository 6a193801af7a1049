#include "json_lexer.hpp"

#include <cmath>
#include <cstdlib>

#include "format.hpp"
#include "unicode.hpp"

namespace attention::train {
Status JsonLexer::Error(const std::string& what) const {
  const std::string field = key_ ? field_ + "." + *key_ : field_;
  return Status(ErrorCode::kInvalidArgument, field,
                Format("%s: %s at byte %zu", field.c_str(), what.c_str(), at_));
}

void JsonLexer::SkipSpace() {
  while (at_ < text_.size() &&
         (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) {
    ++at_;
  }
}

char JsonLexer::Peek() {
  SkipSpace();
  return at_ < text_.size() ? text_[at_] : '\0';
}

bool JsonLexer::Expect(char c) {
  if (Peek() != c || at_ >= text_.size()) return false;
  ++at_;
  return true;
}

bool JsonLexer::Word(std::string_view word) {
  if (text_.substr(at_, word.size()) != word) return false;
  at_ += word.size();
  return true;
}

Status JsonLexer::Number(double* value) {
  const size_t start = at_;
  auto digits = [&] {
    const size_t from = at_;
    while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
    return at_ > from;
  };
  if (text_[at_] == '-') ++at_;
  if (at_ < text_.size() && text_[at_] == '0') {
    ++at_;
  } else if (!digits()) {
    return Error("expected a digit");
  }
  if (at_ < text_.size() && text_[at_] == '.' && (++at_, !digits())) {
    return Error("expected a digit after '.'");
  }
  if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
    ++at_;
    if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
    if (!digits()) return Error("expected an exponent");
  }
  *value = std::strtod(std::string(text_.substr(start, at_ - start)).c_str(), nullptr);
  if (!std::isfinite(*value)) {
    at_ = start;
    return Error("a number beyond the range of a double");
  }
  return Status::Ok();
}

Status JsonLexer::String(std::string* out) {
  if (!Expect('"')) return Error("expected '\"'");
  out->clear();
  while (at_ < text_.size() && text_[at_] != '"') {
    const unsigned char c = static_cast<unsigned char>(text_[at_]);
    if (c < 0x20) return Error("a control character inside a string");
    if (c != '\\') {
      *out += static_cast<char>(c);
      ++at_;
      continue;
    }
    if (++at_ >= text_.size()) break;
    const char e = text_[at_++];
    const char* simple = "\"\"\\\\//b\bf\fn\nr\rt\t";
    bool found = false;
    for (const char* s = simple; *s && !found; s += 2) {
      if (*s == e) {
        *out += s[1];
        found = true;
      }
    }
    if (found) continue;
    if (e != 'u') return Error(Format("an unknown escape '\\%c'", e));
    char32_t code = 0;
    Status status = Hex4(&code);
    if (!status.ok()) return status;
    if (code >= 0xd800 && code < 0xdc00) {  // a high surrogate: its low half must follow
      char32_t low = 0;
      if (!Word("\\u") || !(status = Hex4(&low)).ok() || low < 0xdc00 || low > 0xdfff) {
        return Error("an unpaired surrogate escape");
      }
      code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      return Error("an unpaired surrogate escape");
    }
    unicode::AppendUtf8(code, out);
  }
  if (at_ >= text_.size()) return Error("an unterminated string");
  ++at_;
  return Status::Ok();
}

Status JsonLexer::Hex4(char32_t* code) {
  *code = 0;
  for (int i = 0; i < 4; ++i, ++at_) {
    if (at_ >= text_.size()) return Error("a short \\u escape");
    const char h = text_[at_];
    const int digit = h >= '0' && h <= '9'   ? h - '0'
                      : h >= 'a' && h <= 'f' ? h - 'a' + 10
                      : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                             : -1;
    if (digit < 0) return Error("a bad hex digit in a \\u escape");
    *code = *code * 16 + static_cast<char32_t>(digit);
  }
  return Status::Ok();
}

}  // namespace attention::train
