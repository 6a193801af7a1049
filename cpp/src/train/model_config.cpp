#include "attention/train/model_config.hpp"

#include "attention/train/parameters.hpp"
#include "attention/train/trainer_fields.hpp"
#include "format.hpp"

namespace attention::train {
namespace {

Status OutOfRange(const char* field, long long value, long long low, long long high) {
  return Status(ErrorCode::kInvalidArgument, field,
                Format("%s (%lld) must be an integer from %lld to %lld", field, value, low, high));
}

}  // namespace

Status ValidateModelConfig(const ModelConfig& c) {
  // The sizes a model file or a corpus sets; the rest are trainer fields (trainer_fields.cpp).
  for (const ModelSize& size : kModelSizes) {
    const int value = c.*size.member;
    if (value < size.min || value > size.max) {
      return OutOfRange(size.key, value, size.min, size.max);
    }
  }
  TrainerConfig fields;
  fields.model = c;
  if (Status status = ValidateFields(fields, FieldSection::kModel); !status.ok()) return status;
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
  // Each size is bounded above, so the count cannot overflow (at most about 3 · 10⁸).
  const auto count = static_cast<long long>(ParameterCount(ParameterLayout(c)));
  if (count > ModelLimits::kMaxParameters) {
    return Status(ErrorCode::kLimitExceeded, "parameters",
                  Format("a model of these sizes has %lld parameters; at most %lld (GPT-2 small "
                         "has 124,439,808): fewer layers, a narrower width or a smaller vocabulary",
                         count, static_cast<long long>(ModelLimits::kMaxParameters)));
  }
  return Status::Ok();
}

}  // namespace attention::train
