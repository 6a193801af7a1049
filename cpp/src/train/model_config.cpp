#include "attention/train/model_config.hpp"

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
  if (c.vocab_size < 2 || c.vocab_size > ModelLimits::kMaxVocab) {
    return OutOfRange("vocabSize", c.vocab_size, 2, ModelLimits::kMaxVocab);
  }
  if (c.context_length < 1 || c.context_length > ModelLimits::kMaxContext) {
    return OutOfRange("contextLength", c.context_length, 1, ModelLimits::kMaxContext);
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
  return Status::Ok();
}

const char* PositionalKindName(PositionalKind kind) {
  return kind == PositionalKind::kLearned ? "learned" : "sinusoidal";
}

}  // namespace attention::train
