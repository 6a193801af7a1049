#include "json_value.hpp"

#include "attention/tokenizer.hpp"
#include "format.hpp"
#include "json_lexer.hpp"

namespace attention::train {
namespace {

// Recursive descent over RFC 8259's grammar and the shared lexer; every error names the byte
// offset.
class Parser : JsonLexer {
 public:
  Parser(std::string_view text, const std::string& field) : JsonLexer(text, field) {}

  Status Document(JsonValue* out) {
    Status status = Value(out, 0);
    if (!status.ok()) return status;
    SkipSpace();
    if (at_ != text_.size()) return Error("unexpected text after the value");
    return Status::Ok();
  }

 private:
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

  Status Number(JsonValue* value) {
    value->kind = JsonValue::Kind::kNumber;
    return JsonLexer::Number(&value->number);
  }
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
