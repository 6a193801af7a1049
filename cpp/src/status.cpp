#include "attention/status.hpp"

namespace attention {

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk:
      return "OK";
    case ErrorCode::kInvalidArgument:
      return "INVALID_ARGUMENT";
    case ErrorCode::kShapeMismatch:
      return "SHAPE_MISMATCH";
    case ErrorCode::kNonFinite:
      return "NON_FINITE";
    case ErrorCode::kInvalidUtf8:
      return "INVALID_UTF8";
    case ErrorCode::kLimitExceeded:
      return "LIMIT_EXCEEDED";
    case ErrorCode::kUnknownStep:
      return "UNKNOWN_STEP";
  }
  return "UNKNOWN";
}

}  // namespace attention
