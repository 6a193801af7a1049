#include "attention/train/flat_json.hpp"

#include <cmath>

#include "format.hpp"
#include "json_lexer.hpp"

namespace attention::train {
namespace {

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

// A recursive-descent reader of one flat object over the shared lexer; every error names the
// byte offset, and a bad value's the key it belongs to.
class Parser : JsonLexer {
 public:
  Parser(std::string_view text, const std::string& field) : JsonLexer(text, field) {}

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

  Status Number(FlatJson::Value* value) {
    value->kind = FlatJson::Value::Kind::kNumber;
    return JsonLexer::Number(&value->number);
  }
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
