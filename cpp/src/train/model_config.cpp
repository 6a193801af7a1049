#include "attention/train/model_config.hpp"

#include <cmath>

#include "format.hpp"

namespace attention::train {
namespace {

Status OutOfRange(const char* field, long long value, long long low, long long high) {
  return Status(ErrorCode::kInvalidArgument, field,
                Format("%s (%lld) must be an integer from %lld to %lld", field, value, low, high));
}

}  // namespace

Status ValidateModelConfig(const ModelConfig& c) {
  struct Range {
    const char* field;
    int value, low, high;
  };
  const Range ranges[] = {
      {"vocabSize", c.vocab_size, 2, ModelLimits::kMaxVocab},
      {"contextLength", c.context_length, 1, ModelLimits::kMaxContext},
      {"dModel", c.d_model, 1, ModelLimits::kMaxWidth},
      {"heads", c.heads, 1, ModelLimits::kMaxWidth},
      {"dK", c.d_k, 0, ModelLimits::kMaxWidth},
      {"layers", c.layers, 1, ModelLimits::kMaxLayers},
      {"dFF", c.d_ff, 0, 4 * ModelLimits::kMaxWidth},
  };
  for (const Range& r : ranges) {
    if (r.value < r.low || r.value > r.high) return OutOfRange(r.field, r.value, r.low, r.high);
  }
  // As the explorer's Config: its trace shows every layer of a model.
  if (c.heads > c.d_model) {
    return Status(
        ErrorCode::kInvalidArgument, "heads",
        Format("heads (%d) must be an integer from 1 to dModel (%d)", c.heads, c.d_model));
  }
  if (c.d_k == 0 && c.d_model % c.heads != 0) {
    return Status(ErrorCode::kInvalidArgument, "heads",
                  Format("heads (%d) must divide dModel (%d) when dK is 0 (auto); or give dK",
                         c.heads, c.d_model));
  }
  if (c.ProjectionWidth() > ModelLimits::kMaxWidth) {
    return Status(ErrorCode::kInvalidArgument, "dK",
                  Format("heads · dK (%d · %d) must be at most %d", c.heads, c.ResolvedDK(),
                         ModelLimits::kMaxWidth));
  }
  if (!(std::isfinite(c.init_std) && c.init_std > 0.0 && c.init_std <= 10.0)) {
    return Status(ErrorCode::kInvalidArgument, "initStd",
                  Format("initStd (%g) must be a number above 0 and at most 10", c.init_std));
  }
  if (c.positional != PositionalKind::kSinusoidal && c.positional != PositionalKind::kLearned) {
    return Status(ErrorCode::kInvalidArgument, "positionalEncoding",
                  "positionalEncoding must be \"sinusoidal\" or \"learned\"");
  }
  return Status::Ok();
}

const char* PositionalKindName(PositionalKind kind) {
  return kind == PositionalKind::kLearned ? "learned" : "sinusoidal";
}

}  // namespace attention::train
