#include "attention/mask.hpp"

#include "attention/sparse_pattern.hpp"

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
    case MaskType::kLongformer:
    case MaskType::kBigBird:
    case MaskType::kDilated: {
      // The patterns have one definition, their key lists; the dense mask is drawn from it.
      const SparsePattern pattern = BuildSparsePattern(spec, n_query, n_key);
      mask.setZero();
      for (int i = 0; i < n_query; ++i) {
        const int* keys = pattern.Row(i);
        for (int c = 0; c < pattern.RowSize(i); ++c) mask(i, keys[c]) = 1;
      }
      break;
    }
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
