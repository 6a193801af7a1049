#include "attention/weights.hpp"

#include <cmath>

namespace attention {

Weights MakeWeights(const Config& config, const GivenMatrices& given, RandomState* stream) {
  const int d = config.d_model;
  const int p = config.ProjectionWidth();
  Weights w;
  w.w_q = stream->RandnMatrix(d, p);
  w.w_k = stream->RandnMatrix(d, p);
  w.w_v = stream->RandnMatrix(d, p);
  w.w_o = stream->RandnMatrix(p, d);
  w.b_q = stream->RandnMatrix(1, p);
  w.b_k = stream->RandnMatrix(1, p);
  w.b_v = stream->RandnMatrix(1, p);
  w.b_o = stream->RandnMatrix(1, d);
  if (config.init == Init::kScaled) {
    // Each W and b is divided by sqrt(fan_in) so that Q, K, V entries stay near unit variance.
    const float input_scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(d)));
    const float output_scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(p)));
    for (Matrix* m : {&w.w_q, &w.w_k, &w.w_v, &w.b_q, &w.b_k, &w.b_v}) *m *= input_scale;
    for (Matrix* m : {&w.w_o, &w.b_o}) *m *= output_scale;
  }
  const std::pair<const std::optional<Matrix>*, Matrix*> overrides[] = {
      {&given.w_q, &w.w_q}, {&given.w_k, &w.w_k}, {&given.w_v, &w.w_v}, {&given.w_o, &w.w_o},
      {&given.b_q, &w.b_q}, {&given.b_k, &w.b_k}, {&given.b_v, &w.b_v}, {&given.b_o, &w.b_o},
  };
  for (const auto& [source, target] : overrides) {
    if (source->has_value()) *target = **source;
  }
  return w;
}

}  // namespace attention
