#include "attention/weights.hpp"

#include <cmath>
#include <mutex>
#include <optional>
#include <tuple>
#include <utility>

namespace attention {

Weights MakeWeights(const Config& config, const GivenMatrices& given, RandomState* stream) {
  const int d = config.d_model;
  const int p = config.ProjectionWidth();
  // init "scaled": each W and b is divided by sqrt(fan_in) so that Q, K, V entries stay near
  // unit variance.
  const bool scaled = config.init == Init::kScaled;
  const float in = scaled ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(d))) : 1.0f;
  const float out = scaled ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(p))) : 1.0f;
  Weights w;
  struct Draw {
    const std::optional<Matrix>* given;
    Matrix* target;
    int rows, cols;
    float scale;
  };
  const Draw draws[] = {
      {&given.w_q, &w.w_q, d, p, in}, {&given.w_k, &w.w_k, d, p, in},
      {&given.w_v, &w.w_v, d, p, in}, {&given.w_o, &w.w_o, p, d, out},
      {&given.b_q, &w.b_q, 1, p, in}, {&given.b_k, &w.b_k, 1, p, in},
      {&given.b_v, &w.b_v, 1, p, in}, {&given.b_o, &w.b_o, 1, d, out},
  };
  // A given matrix is still drawn when a generated one follows it, so that the stream stays
  // aligned; the draws after the last generated matrix change nothing and are skipped (with
  // every matrix given, a 512-wide layer would otherwise draw a million numbers per run).
  int needed = 0;
  for (int i = 0; i < 8; ++i) {
    if (!draws[i].given->has_value()) needed = i + 1;
  }
  for (int i = 0; i < 8; ++i) {
    const Draw& draw = draws[i];
    if (draw.given->has_value()) {
      if (i < needed) stream->RandnMatrix(draw.rows, draw.cols);
      *draw.target = **draw.given;
    } else {
      *draw.target = stream->RandnMatrix(draw.rows, draw.cols);
      if (scaled) *draw.target *= draw.scale;
    }
  }
  return w;
}

Weights GeneratedWeights(const Config& config, int64_t prior_draws, RandomState* stream) {
  using Key = std::tuple<uint32_t, int, int, Init, int64_t>;
  static std::mutex mutex;
  static std::optional<std::pair<Key, Weights>> last;
  const Key key{config.seed, config.d_model, config.ProjectionWidth(), config.init, prior_draws};
  std::lock_guard<std::mutex> lock(mutex);
  if (!last || last->first != key) last.emplace(key, MakeWeights(config, GivenMatrices{}, stream));
  return last->second;
}

}  // namespace attention
