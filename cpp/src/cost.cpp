#include "attention/cost.hpp"

#include "attention/sparse_pattern.hpp"

namespace attention {

int64_t ParameterCount(const Config& config) {
  const int64_t d = config.d_model;
  const int64_t p = config.ProjectionWidth();
  int64_t count = 3 * d * p + (config.bias ? 3 * p : 0);
  if (config.output_projection) count += p * d + (config.bias ? d : 0);
  return count;
}

Flops CountFlops(const Config& config, int n_query, int n_key, int64_t computed_scores) {
  const int64_t n = n_query;
  const int64_t m = n_key;
  const int64_t d = config.d_model;
  const int64_t p = config.ProjectionWidth();
  const int64_t dk = config.ResolvedDK();
  const int64_t h = config.heads;
  const int64_t bias = config.bias ? 1 : 0;
  Flops f;
  f.q_projection = 2 * n * d * p + bias * n * p;
  f.k_projection = 2 * m * d * p + bias * m * p;
  f.v_projection = 2 * m * d * p + bias * m * p;
  if (config.attention == AttentionKind::kLinear) {
    f.feature_map = (n + m) * p;
    f.summary = 2 * m * dk * dk * h + m * dk * h;
    f.normaliser = 2 * n * dk * h;
    f.weighted_sum = 2 * n * dk * dk * h + n * dk * h;
  } else {
    const bool sparse = IsSparsePattern(config.mask.type);
    int64_t c = computed_scores;
    if (c < 0) c = sparse ? BuildSparsePattern(config.mask, n_query, n_key).Count() : n * m;
    f.scores = 2 * c * dk * h;
    f.scaling = c * h;
    f.mask = sparse ? 0 : n * m * h;
    f.softmax = 5 * c * h;
    f.weighted_sum = 2 * c * dk * h;
  }
  f.output_projection = config.output_projection ? 2 * n * p * d + bias * n * d : 0;
  return f;
}

}  // namespace attention
