#include "json_value.hpp"

#include <cmath>
#include <cstdlib>

#include "attention/tokenizer.hpp"
#include "format.hpp"

namespace attention::train {
namespace {

void AppendUtf8(char32_t c, std::string* out) {
  if (c < 0x80) {
    *out += static_cast<char>(c);
  } else if (c < 0x800) {
    *out += static_cast<char>(0xc0 | (c >> 6));
    *out += static_cast<char>(0x80 | (c & 0x3f));
  } else if (c < 0x10000) {
    *out += static_cast<char>(0xe0 | (c >> 12));
    *out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
    *out += static_cast<char>(0x80 | (c & 0x3f));
  } else {
    *out += static_cast<char>(0xf0 | (c >> 18));
    *out += static_cast<char>(0x80 | ((c >> 12) & 0x3f));
    *out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
    *out += static_cast<char>(0x80 | (c & 0x3f));
  }
}

// Recursive descent over RFC 8259's grammar; every error names the byte offset.
class Parser {
 public:
  Parser(std::string_view text, const std::string& field) : text_(text), field_(field) {}

  Status Document(JsonValue* out) {
    Status status = Value(out, 0);
    if (!status.ok()) return status;
    SkipSpace();
    if (at_ != text_.size()) return Error("unexpected text after the value");
    return Status::Ok();
  }

 private:
  Status Error(const std::string& what) const {
    return Status(ErrorCode::kInvalidArgument, field_,
                  Format("%s: %s at byte %zu", field_.c_str(), what.c_str(), at_));
  }
  void SkipSpace() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) {
      ++at_;
    }
  }
  char Peek() {
    SkipSpace();
    return at_ < text_.size() ? text_[at_] : '\0';
  }
  bool Expect(char c) {
    if (at_ >= text_.size() || Peek() != c) return false;
    ++at_;
    return true;
  }
  bool Word(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }

  Status Value(JsonValue* value, int depth) {
    if (depth > kMaxJsonDepth) return Error(Format("nesting deeper than %d", kMaxJsonDepth));
    const char c = Peek();
    if (c == '{') return Object(value, depth);
    if (c == '[') return Array(value, depth);
    if (c == '"') {
      value->kind = JsonValue::Kind::kString;
      return String(&value->text);
    }
    if (Word("null")) {
      value->kind = JsonValue::Kind::kNull;
      return Status::Ok();
    }
    for (const bool b : {true, false}) {
      if (Word(b ? "true" : "false")) {
        value->kind = JsonValue::Kind::kBool;
        value->boolean = b;
        return Status::Ok();
      }
    }
    if (c == '-' || (c >= '0' && c <= '9')) return Number(value);
    return Error("expected a value");
  }

  Status Object(JsonValue* value, int depth) {
    ++at_;  // '{'
    value->kind = JsonValue::Kind::kObject;
    if (Expect('}')) return Status::Ok();
    while (true) {
      std::string key;
      const size_t key_at = (SkipSpace(), at_);
      Status status = String(&key);
      if (!status.ok()) return status;
      for (const auto& member : value->members) {
        if (member.first == key) {
          at_ = key_at;
          return Error("the key \"" + key + "\" appears twice");
        }
      }
      if (!Expect(':')) return Error("expected ':'");
      value->members.emplace_back(std::move(key), JsonValue());
      if (!(status = Value(&value->members.back().second, depth + 1)).ok()) return status;
      if (Expect(',')) continue;
      if (Expect('}')) return Status::Ok();
      return Error("expected ',' or '}'");
    }
  }

  Status Array(JsonValue* value, int depth) {
    ++at_;  // '['
    value->kind = JsonValue::Kind::kArray;
    if (Expect(']')) return Status::Ok();
    while (true) {
      value->items.emplace_back();
      Status status = Value(&value->items.back(), depth + 1);
      if (!status.ok()) return status;
      if (Expect(',')) continue;
      if (Expect(']')) return Status::Ok();
      return Error("expected ',' or ']'");
    }
  }

  // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  Status Number(JsonValue* value) {
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
    value->kind = JsonValue::Kind::kNumber;
    value->number = std::strtod(std::string(text_.substr(start, at_ - start)).c_str(), nullptr);
    if (!std::isfinite(value->number)) {
      at_ = start;
      return Error("a number beyond the range of a double");
    }
    return Status::Ok();
  }

  Status String(std::string* out) {
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
      AppendUtf8(code, out);
    }
    if (at_ >= text_.size()) return Error("an unterminated string");
    ++at_;
    return Status::Ok();
  }

  Status Hex4(char32_t* code) {
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

  std::string_view text_;
  const std::string& field_;
  size_t at_ = 0;
};

}  // namespace

const JsonValue* JsonValue::Get(std::string_view key) const {
  for (const auto& member : members) {
    if (member.first == key) return &member.second;
  }
  return nullptr;
}

const char* JsonValue::KindName() const {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return "a boolean";
    case Kind::kNumber:
      return "a number";
    case Kind::kString:
      return "a string";
    case Kind::kArray:
      return "an array";
    case Kind::kObject:
      return "an object";
  }
  return "a value";
}

Status ParseJson(std::string_view text, const std::string& field, JsonValue* out) {
  Status status = CheckUtf8(text, field);
  if (!status.ok()) return status;
  JsonValue value;
  if (!(status = Parser(text, field).Document(&value)).ok()) return status;
  *out = std::move(value);
  return Status::Ok();
}

}  // namespace attention::train
