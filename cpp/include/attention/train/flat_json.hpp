// A flat JSON object — {"key": number | true | false | "string", …} — written and read without
// a JSON library (the engine also compiles to WebAssembly, where it carries no dependency): the
// configuration string of a model file. Nested objects and arrays are refused.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "attention/status.hpp"

namespace attention::train {

class FlatJson {
 public:
  struct Value {
    enum class Kind { kNumber, kBool, kString } kind = Kind::kNumber;
    double number = 0.0;
    bool boolean = false;
    std::string text;
  };

  void SetNumber(const std::string& key, double value);
  void SetBool(const std::string& key, bool value);
  void SetString(const std::string& key, const std::string& value);

  // Keys in byte order; numbers with 17 significant digits (doubles round-trip exactly),
  // integers without a fraction; strings escaped as JSON requires.
  std::string Write() const;

  // Parses `text` (UTF-8). Errors are kInvalidArgument for `field`, naming the byte offset:
  // "config: expected ':' at byte 12". Duplicate keys and non-finite numbers are refused.
  static Status Parse(std::string_view text, const std::string& field, FlatJson* json);

  bool Has(const std::string& key) const { return values_.count(key) != 0; }
  // Typed reads: kInvalidArgument for field "<field>.<key>" when the key is missing or has
  // another type ("config.dModel must be an integer"). Integers must be whole and in int range.
  Status GetInt(const std::string& key, int* value) const;
  Status GetNumber(const std::string& key, double* value) const;
  Status GetBool(const std::string& key, bool* value) const;
  Status GetString(const std::string& key, std::string* value) const;

  const std::map<std::string, Value>& values() const { return values_; }

 private:
  const Value* Find(const std::string& key, Value::Kind kind, const char* expected,
                    Status* status) const;

  std::string field_ = "config";
  std::map<std::string, Value> values_;
};

}  // namespace attention::train
