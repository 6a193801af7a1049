// Step 6: which keys each query may see.
#pragma once

#include "attention/config.hpp"
#include "attention/matrix.hpp"

namespace attention {

// [n_query × n_key], 1 where query i may attend to key j (docs/computation.md, "mask").
// `spec` must have passed ValidateInput for these sizes.
MaskMatrix BuildMask(const MaskSpec& spec, int n_query, int n_key);

}  // namespace attention
