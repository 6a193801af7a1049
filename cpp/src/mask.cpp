#include "attention/mask.hpp"

#include <cstdlib>

namespace attention {

MaskMatrix BuildMask(const MaskSpec& spec, int n_query, int n_key) {
  MaskMatrix mask = MaskMatrix::Ones(n_query, n_key);
  switch (spec.type) {
    case MaskType::kNone:
      break;
    case MaskType::kCausal:
      // A decoder must not see the future: key j is visible to query i only when j <= i.
      for (int i = 0; i < n_query; ++i) {
        for (int j = i + 1; j < n_key; ++j) mask(i, j) = 0;
      }
      break;
    case MaskType::kWindow:
      for (int i = 0; i < n_query; ++i) {
        for (int j = 0; j < n_key; ++j) {
          const bool outside = std::abs(i - j) > spec.width || (spec.causal && j > i);
          if (outside) mask(i, j) = 0;
        }
      }
      break;
    case MaskType::kPadding:
      for (int p : spec.positions) mask.col(p).setZero();
      break;
    case MaskType::kCustom:
      mask = spec.matrix;
      break;
  }
  return mask;
}

}  // namespace attention
