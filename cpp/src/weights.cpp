#include "attention/weights.hpp"

#include <cmath>

#include "attention/given.hpp"

namespace attention {

Weights MakeWeights(const Config& config, const GivenMatrices& given, RandomState* stream) {
  // init "scaled": each W and b is divided by sqrt(fan_in) so that Q, K, V entries stay near
  // unit variance.
  const bool scaled = config.init == Init::kScaled;
  const auto size = [&config](Axis axis) { return AxisSize(axis, config, 0, 0); };
  // A given matrix is still drawn when a generated one follows it, so that the stream stays
  // aligned; the draws after the last generated matrix change nothing and are skipped (with
  // every matrix given, a 512-wide layer would otherwise draw a million numbers per run).
  const GivenSlot* needed = kGivenSlots;
  for (const GivenSlot& slot : kGivenSlots) {
    if (slot.weight != nullptr && !(given.*slot.given).has_value()) needed = &slot + 1;
  }
  Weights w;
  for (const GivenSlot& slot : kGivenSlots) {
    if (slot.weight == nullptr) continue;  // x, xKv: embeddings, drawn (if at all) by Run
    const std::optional<Matrix>& supplied = given.*slot.given;
    Matrix& target = w.*slot.weight;
    if (supplied.has_value()) {
      if (&slot < needed) stream->RandnMatrix(size(slot.rows), size(slot.cols));
      target = *supplied;
    } else {
      target = stream->RandnMatrix(size(slot.rows), size(slot.cols));
      if (scaled) {
        target *= static_cast<float>(1.0 / std::sqrt(static_cast<double>(size(slot.fan_in))));
      }
    }
  }
  return w;
}

bool WeightCache::Key::operator==(const Key& o) const {
  return seed == o.seed && d_model == o.d_model && projection_width == o.projection_width &&
         init == o.init && prior_draws == o.prior_draws;
}

const Weights& WeightCache::Generated(const Config& config, int64_t prior_draws,
                                      RandomState* stream) {
  const Key key{config.seed, config.d_model, config.ProjectionWidth(), config.init, prior_draws};
  if (!key_ || !(*key_ == key)) {
    weights_ = MakeWeights(config, GivenMatrices{}, stream);
    key_ = key;
    ++draws_;
  }
  return weights_;
}

}  // namespace attention
