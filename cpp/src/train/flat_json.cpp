#include "attention/train/flat_json.hpp"

#include <cmath>
#include <cstdlib>

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

std::string Quote(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      out += Format("\\u%04x", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// A recursive-descent reader of one flat object; every error names the byte offset.
class Parser {
 public:
  Parser(std::string_view text, const std::string& field) : text_(text), field_(field) {}

  Status Object(std::map<std::string, FlatJson::Value>* values) {
    if (!Expect('{')) return Error("expected '{'");
    if (Peek() == '}') {
      ++at_;
    } else {
      while (true) {
        std::string key;
        const size_t key_at = (SkipSpace(), at_);
        Status status = String(&key);
        if (!status.ok()) return status;
        if (!Expect(':')) return Error("expected ':'");
        FlatJson::Value value;
        // A bad value's error names its key (model.config.heldOutLoss), as a checked one does.
        key_ = &key;
        status = Value(&value);
        key_ = nullptr;
        if (!status.ok()) return status;
        if (!values->emplace(key, value).second) {
          at_ = key_at;
          return Error("the key \"" + key + "\" appears twice");
        }
        if (Expect(',')) continue;
        if (Expect('}')) break;
        return Error("expected ',' or '}'");
      }
    }
    SkipSpace();
    if (at_ != text_.size()) return Error("unexpected text after the object");
    return Status::Ok();
  }

 private:
  Status Error(const std::string& what) const {
    const std::string field = key_ ? field_ + "." + *key_ : field_;
    return Status(ErrorCode::kInvalidArgument, field,
                  Format("%s: %s at byte %zu", field.c_str(), what.c_str(), at_));
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
    if (Peek() != c || at_ >= text_.size()) return false;
    ++at_;
    return true;
  }
  bool Word(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }

  Status Value(FlatJson::Value* value) {
    const char c = Peek();
    if (c == '"') {
      value->kind = FlatJson::Value::Kind::kString;
      return String(&value->text);
    }
    for (const bool b : {true, false}) {
      if (Word(b ? "true" : "false")) {
        value->kind = FlatJson::Value::Kind::kBool;
        value->boolean = b;
        return Status::Ok();
      }
    }
    if (c == '{' || c == '[') return Error("nested objects and arrays are not supported");
    if (c == '-' || (c >= '0' && c <= '9')) return Number(value);
    return Error("expected a number, true, false or a string");
  }

  // JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  Status Number(FlatJson::Value* value) {
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
    value->kind = FlatJson::Value::Kind::kNumber;
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
      const char h = at_ < text_.size() ? text_[at_] : '\0';
      const int digit = h >= '0' && h <= '9'   ? h - '0'
                        : h >= 'a' && h <= 'f' ? h - 'a' + 10
                        : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                               : -1;
      if (digit < 0) return Error("expected 4 hex digits after \\u");
      *code = *code * 16 + static_cast<char32_t>(digit);
    }
    return Status::Ok();
  }

  std::string_view text_;
  const std::string* key_ = nullptr;  // the key whose value is being read, if any
  const std::string& field_;
  size_t at_ = 0;
};

}  // namespace

void FlatJson::SetNumber(const std::string& key, double value) {
  Value v;
  v.number = value;
  values_[key] = v;
}

void FlatJson::SetBool(const std::string& key, bool value) {
  Value v;
  v.kind = Value::Kind::kBool;
  v.boolean = value;
  values_[key] = v;
}

void FlatJson::SetString(const std::string& key, const std::string& value) {
  Value v;
  v.kind = Value::Kind::kString;
  v.text = value;
  values_[key] = v;
}

std::string FlatJson::Write() const {
  std::string out = "{";
  for (const auto& [key, value] : values_) {
    if (out.size() > 1) out += ",";
    out += Quote(key) + ":";
    switch (value.kind) {
      case Value::Kind::kNumber:
        out +=
            std::fabs(value.number) < 9007199254740992.0 && value.number == std::trunc(value.number)
                ? Format("%.0f", value.number)
                : Format("%.17g", value.number);
        break;
      case Value::Kind::kBool:
        out += value.boolean ? "true" : "false";
        break;
      case Value::Kind::kString:
        out += Quote(value.text);
        break;
    }
  }
  return out + "}";
}

Status FlatJson::Parse(std::string_view text, const std::string& field, FlatJson* json) {
  FlatJson result;
  result.field_ = field;
  Status status = Parser(text, field).Object(&result.values_);
  if (!status.ok()) return status;
  *json = std::move(result);
  return Status::Ok();
}

const FlatJson::Value* FlatJson::Find(const std::string& key, Value::Kind kind,
                                      const char* expected, Status* status) const {
  const std::string name = field_ + "." + key;
  const auto found = values_.find(key);
  if (found == values_.end()) {
    *status = Status(ErrorCode::kInvalidArgument, name, name + " is missing");
    return nullptr;
  }
  if (found->second.kind != kind) {
    *status = Status(ErrorCode::kInvalidArgument, name, name + " must be " + expected);
    return nullptr;
  }
  *status = Status::Ok();
  return &found->second;
}

Status FlatJson::GetInt(const std::string& key, int* value) const {
  Status status;
  const Value* v = Find(key, Value::Kind::kNumber, "an integer", &status);
  if (v == nullptr) return status;
  if (v->number != std::trunc(v->number) || std::fabs(v->number) > 2147483647.0) {
    const std::string name = field_ + "." + key;
    return Status(ErrorCode::kInvalidArgument, name,
                  Format("%s (%g) must be an integer", name.c_str(), v->number));
  }
  *value = static_cast<int>(v->number);
  return Status::Ok();
}

Status FlatJson::GetNumber(const std::string& key, double* value) const {
  Status status;
  const Value* v = Find(key, Value::Kind::kNumber, "a number", &status);
  if (v != nullptr) *value = v->number;
  return status;
}

Status FlatJson::GetBool(const std::string& key, bool* value) const {
  Status status;
  const Value* v = Find(key, Value::Kind::kBool, "true or false", &status);
  if (v != nullptr) *value = v->boolean;
  return status;
}

Status FlatJson::GetString(const std::string& key, std::string* value) const {
  Status status;
  const Value* v = Find(key, Value::Kind::kString, "a string", &status);
  if (v != nullptr) *value = v->text;
  return status;
}

}  // namespace attention::train
