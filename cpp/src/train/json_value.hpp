// A strict reader of any JSON document into a tree: what a safetensors header and a Hugging Face
// config.json need (nested objects, arrays, null), which FlatJson (flat_json.hpp, one flat
// object for the model file's configuration) refuses on purpose. Internal to the engine.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "attention/status.hpp"

namespace attention::train {

struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = Kind::kNull;
  bool boolean = false;
  double number = 0.0;
  std::string text;
  std::vector<JsonValue> items;                            // kArray
  std::vector<std::pair<std::string, JsonValue>> members;  // kObject, in document order

  // The member `key` of an object, or nullptr (also for other kinds).
  const JsonValue* Get(std::string_view key) const;
  // A name of the kind for messages: "null", "a boolean", "a number", …
  const char* KindName() const;
};

// Nesting deeper than this is refused (a header is two levels deep, a config.json three).
inline constexpr int kMaxJsonDepth = 32;

// Parses `text` (UTF-8, checked) as exactly one JSON value. Errors are kInvalidArgument for
// `field`, naming the byte offset ("safetensors.header: expected ':' at byte 12"). An object
// with a key twice, a number beyond a double, an unpaired surrogate escape and text after the
// value are refused.
Status ParseJson(std::string_view text, const std::string& field, JsonValue* out);

}  // namespace attention::train
