#include "attention/config.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "attention/given.hpp"
#include "attention/tokenizer.hpp"
#include "finite.hpp"
#include "format.hpp"

namespace attention {
namespace {

Status Invalid(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kInvalidArgument, field, message);
}

Status ValidateTokens(const std::vector<std::string>& tokens, const std::string& field,
                      int max_tokens) {
  if (tokens.empty()) {
    return Invalid(field, field + " must hold at least 1 token, got none");
  }
  if (tokens.size() > static_cast<size_t>(max_tokens)) {
    return Status(ErrorCode::kLimitExceeded, field,
                  Format("%s (%zu tokens) must hold at most %d tokens", field.c_str(),
                         tokens.size(), max_tokens));
  }
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string name = Format("%s[%zu]", field.c_str(), i);
    if (tokens[i].empty()) return Invalid(name, name + " must not be empty");
    // Before the UTF-8 check, so that an oversized token is refused without reading it all.
    if (tokens[i].size() > static_cast<size_t>(Limits::kMaxTokenBytes)) {
      return Status(ErrorCode::kLimitExceeded, name,
                    Format("%s (%zu bytes) must be at most %d bytes of UTF-8", name.c_str(),
                           tokens[i].size(), Limits::kMaxTokenBytes));
    }
    Status utf8 = CheckUtf8(tokens[i], name);
    if (!utf8.ok()) return utf8;
  }
  return Status::Ok();
}

// An integer option of a pattern within [low, max_tokens].
Status ValidateCount(const char* field, int value, int low, int max_tokens) {
  if (value >= low && value <= max_tokens) return Status::Ok();
  return Invalid(field,
                 Format("%s (%d) must be an integer from %d to %d", field, value, low, max_tokens));
}

// The options of window, dilated, longformer and bigbird (sparse_pattern.hpp).
// max_tokens: the run's token limit (a trace's or Attend's), which bounds every count.
Status ValidatePattern(const MaskSpec& mask, int n_query, int n_key, int max_tokens) {
  Status status = ValidateCount("mask.width", mask.width, 0, max_tokens);
  if (!status.ok()) return status;
  if (mask.type == MaskType::kDilated)
    return ValidateCount("mask.dilation", mask.dilation, 1, max_tokens);
  if (mask.type != MaskType::kLongformer && mask.type != MaskType::kBigBird) return Status::Ok();
  // A global token is a query (if < n_query) and a key (if < n_key): in cross-attention either.
  const int tokens = std::max(n_query, n_key);
  if (mask.global_tokens.size() > static_cast<size_t>(max_tokens)) {
    return Status(ErrorCode::kLimitExceeded, "mask.global",
                  Format("mask.global (%zu positions) must hold at most %d positions",
                         mask.global_tokens.size(), max_tokens));
  }
  for (size_t i = 0; i < mask.global_tokens.size(); ++i) {
    const int g = mask.global_tokens[i];
    if (g < 0 || g >= tokens) {
      const std::string name = Format("mask.global[%zu]", i);
      return Invalid(name, Format("%s (%d) must be a token position from 0 to %d", name.c_str(), g,
                                  tokens - 1));
    }
  }
  if (mask.type != MaskType::kBigBird) return Status::Ok();
  status = ValidateCount("mask.block", mask.block, 1, max_tokens);
  if (!status.ok()) return status;
  return ValidateCount("mask.random", mask.random, 0, max_tokens);
}

Status ValidateMask(const MaskSpec& mask, int n_query, int n_key, int max_tokens) {
  switch (mask.type) {
    case MaskType::kNone:
    case MaskType::kCausal:
      return Status::Ok();
    case MaskType::kWindow:
    case MaskType::kLongformer:
    case MaskType::kBigBird:
    case MaskType::kDilated:
      return ValidatePattern(mask, n_query, n_key, max_tokens);
    case MaskType::kPadding:
      for (size_t i = 0; i < mask.positions.size(); ++i) {
        const int p = mask.positions[i];
        if (p < 0 || p >= n_key) {
          const std::string name = Format("mask.positions[%zu]", i);
          return Invalid(name, Format("%s (%d) must be a key position from 0 to %d", name.c_str(),
                                      p, n_key - 1));
        }
      }
      return Status::Ok();
    case MaskType::kCustom:
      if (mask.matrix.rows() != n_query || mask.matrix.cols() != n_key) {
        return Status(
            ErrorCode::kShapeMismatch, "mask.matrix",
            Format("mask.matrix must be %d × %d (queries × keys), got %ld × %ld", n_query, n_key,
                   static_cast<long>(mask.matrix.rows()), static_cast<long>(mask.matrix.cols())));
      }
      for (Eigen::Index i = 0; i < mask.matrix.size(); ++i) {
        if (mask.matrix.data()[i] > 1) {
          return Invalid("mask.matrix", "mask.matrix values must be 0 (masked) or 1 (visible)");
        }
      }
      return Status::Ok();
  }
  return Invalid("mask.type", "mask.type must be one of " + NameList(kMaskTypes));
}

// `m` must be rows × cols of `slot` (e.g. "given.wQ must be 4 × 4 (dModel × heads·dK)") and
// finite.
Status ValidateGivenMatrix(const GivenSlot& slot, const Matrix& m, int rows, int cols) {
  const std::string name = std::string("given.") + slot.name;
  const char* field = name.c_str();
  if (m.rows() != rows || m.cols() != cols) {
    return Status(ErrorCode::kShapeMismatch, field,
                  Format("%s must be %d × %d (%s × %s), got %ld × %ld", field, rows, cols,
                         AxisMeaning(slot.rows), AxisMeaning(slot.cols),
                         static_cast<long>(m.rows()), static_cast<long>(m.cols())));
  }
  // The vectorized test first: a 512×512 weight is checked in ~0.1 ms instead of ~1.2 ms.
  if (AllFinite(m)) return Status::Ok();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      const float v = m(r, c);
      if (!std::isfinite(v)) {
        return Status(ErrorCode::kNonFinite, field,
                      Format("%s[%ld][%ld] is %s; every value must be a finite number", field,
                             static_cast<long>(r), static_cast<long>(c),
                             std::isnan(v) ? "NaN" : (v > 0 ? "Infinity" : "-Infinity")));
      }
    }
  }
  return Status::Ok();
}

// What linear attention refuses, and why. Its output reads one running sum of the keys: over
// every key (mask none) or over a growing prefix (causal). A window or custom mask gives each
// query its own set of keys, which would need a sum per query (the n×m cost linear attention
// exists to avoid); padding is refused with them rather than half supported. Scaling and
// temperature act on the scores QKᵀ, which linear attention never forms: they would change only
// the softmax comparison steps, so a learner moving them would see the output stand still.
Status ValidateLinear(const Config& config) {
  const MaskType mask = config.mask.type;
  if (mask != MaskType::kNone && mask != MaskType::kCausal) {
    const char* name = MaskTypeName(mask);
    return Invalid("mask.type",
                   Format("mask.type (\"%s\") must be none or causal with attention \"linear\": "
                          "its running sum of the keys covers every key or a prefix, not a "
                          "different set per query",
                          name));
  }
  if (!config.scale) {
    return Invalid("scale",
                   "scale (false) must be true with attention \"linear\": it never forms the "
                   "scores QKᵀ that scale divides");
  }
  if (config.temperature != 1.0) {
    return Invalid("temperature",
                   Format("temperature (%g) must be 1 with attention \"linear\": it never "
                          "forms the scores QKᵀ that temperature divides",
                          config.temperature));
  }
  return Status::Ok();
}

}  // namespace

int AxisSize(Axis axis, const Config& config, int n_query, int n_key) {
  switch (axis) {
    case Axis::kQuery:
      return n_query;
    case Axis::kKey:
      return n_key;
    case Axis::kModel:
      return config.d_model;
    case Axis::kProjection:
      return config.ProjectionWidth();
    case Axis::kHeadDim:
      return config.ResolvedDK();
    case Axis::kOne:
      return 1;
  }
  return 0;
}

namespace {

// Indexed by Axis.
struct AxisNames {
  const char* key;      // the JS API's rowsAxis / colsAxis
  const char* meaning;  // in error messages
};
constexpr AxisNames kAxisNames[] = {
    {"query", "tokens"},        {"key", "kvTokens"}, {"model", "dModel"},
    {"projection", "heads·dK"}, {"headDim", "dK"},   {"one", "1"},
};

}  // namespace

const char* AxisKey(Axis axis) { return kAxisNames[static_cast<int>(axis)].key; }
const char* AxisMeaning(Axis axis) { return kAxisNames[static_cast<int>(axis)].meaning; }

Status ValidateConfig(const Config& config) {
  if (config.d_model < 1 || config.d_model > Limits::kMaxDModel) {
    return Invalid("dModel", Format("dModel (%d) must be an integer from 1 to %d", config.d_model,
                                    Limits::kMaxDModel));
  }
  if (config.heads < 1 || config.heads > config.d_model) {
    return Invalid("heads", Format("heads (%d) must be an integer from 1 to dModel (%d)",
                                   config.heads, config.d_model));
  }
  if (config.d_k < 0 || config.d_k > Limits::kMaxDK) {
    return Invalid("dK", Format("dK (%d) must be 0 (meaning dModel / heads) or from 1 to %d",
                                config.d_k, Limits::kMaxDK));
  }
  if (config.d_k == 0 && config.d_model % config.heads != 0) {
    return Invalid("heads", Format("heads (%d) must divide dModel (%d), or set dK explicitly",
                                   config.heads, config.d_model));
  }
  if (static_cast<long>(config.heads) * config.ResolvedDK() > Limits::kMaxProjectionWidth) {
    return Status(ErrorCode::kLimitExceeded, "dK",
                  Format("heads × dK (%d × %d) must be at most %d", config.heads, config.d_k,
                         Limits::kMaxProjectionWidth));
  }
  if (!(config.temperature >= Limits::kMinTemperature &&
        config.temperature <= Limits::kMaxTemperature)) {
    return Invalid("temperature",
                   Format("temperature (%g) must be a number from %g to %g", config.temperature,
                          Limits::kMinTemperature, Limits::kMaxTemperature));
  }
  if (config.attention == AttentionKind::kLinear) return ValidateLinear(config);
  return Status::Ok();
}

Status ValidateInput(const Config& config, const Input& input, int max_tokens) {
  Status status = ValidateTokens(input.tokens, "tokens", max_tokens);
  if (!status.ok()) return status;
  if (input.cross) {
    status = ValidateTokens(input.kv_tokens, "kvTokens", max_tokens);
    if (!status.ok()) return status;
  }
  const int n = static_cast<int>(input.tokens.size());
  const int m = input.cross ? static_cast<int>(input.kv_tokens.size()) : n;
  status = ValidateMask(config.mask, n, m, max_tokens);
  if (!status.ok()) return status;

  const GivenMatrices& g = input.given;
  if (config.embedding == EmbeddingSource::kGiven) {
    if (!g.x) return Invalid("given.x", "given.x is required when embedding is \"given\"");
    if (input.cross && !g.x_kv) {
      return Invalid("given.xKv",
                     "given.xKv is required when embedding is \"given\" in cross-attention");
    }
  } else if (g.x || g.x_kv) {
    const char* field = g.x ? "given.x" : "given.xKv";
    const char* source = NameOf(kEmbeddings, config.embedding);
    return Invalid(field, Format("%s needs embedding \"given\" (it is \"%s\")", field, source));
  }
  if (g.x_kv && !input.cross) {
    return Invalid("given.xKv", "given.xKv is only used in cross-attention (set cross)");
  }
  for (const GivenSlot& slot : kGivenSlots) {
    const std::optional<Matrix>& matrix = g.*slot.given;
    if (!matrix) continue;
    status = ValidateGivenMatrix(slot, *matrix, AxisSize(slot.rows, config, n, m),
                                 AxisSize(slot.cols, config, n, m));
    if (!status.ok()) return status;
  }
  return Status::Ok();
}

}  // namespace attention
