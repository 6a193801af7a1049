// Errors cross every boundary (C++ API, Embind, JS) as values, never as exceptions:
// a Status names the field that was wrong, the value it had and what is allowed.
#pragma once

#include <string>
#include <utility>

namespace attention {

enum class ErrorCode {
  kOk = 0,
  kInvalidArgument,  // a configuration value outside its allowed range
  kShapeMismatch,    // a supplied matrix with the wrong shape
  kNonFinite,        // NaN or ±Infinity in a supplied matrix
  kInvalidUtf8,      // text that is not valid UTF-8
  kLimitExceeded,    // input larger than the documented limits
  kUnknownStep,      // a trace step name or head index that does not exist
};

// Stable, machine-readable names, shared with the JS layer (AttentionError.code).
const char* ErrorCodeName(ErrorCode code);

class Status {
 public:
  Status() = default;
  Status(ErrorCode code, std::string field, std::string message)
      : code_(code), field_(std::move(field)), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  // The configuration or input field at fault, e.g. "heads" or "weights.wQ".
  const std::string& field() const { return field_; }
  // A full sentence for people, e.g. "heads (3) must divide dModel (10)".
  const std::string& message() const { return message_; }

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string field_;
  std::string message_;
};

}  // namespace attention
