// One layer's output without a trace: what the cost panel and the long-sequence benchmark time.
//
// A trace (trace.hpp) keeps every step a page can read, and a page reads one head's n×n steps
// scores … weights at once (4 n×n floats: 256 MB at n = 4,096), so its length stops at
// Limits::kMaxTokens. Attend computes the same output holding only what the algorithm needs,
// one head after another, and reuses one head's buffers for the next:
//   full and the dense masks: one head's scores and weights [n × m] (and the mask, n×m bytes,
//     unless it is none);
//   a sparse pattern (window, dilated, longformer, bigbird): its key lists and two rows;
//   linear attention: one head's φ(Q), φ(K) and its dK × dK sums.
// Its output equals the trace's (the same kernels in the same order): tests/cpp/attend_test.cpp.
#pragma once

#include <cstdint>

#include "attention/config.hpp"
#include "attention/matrix.hpp"
#include "attention/status.hpp"
#include "attention/weights.hpp"

namespace attention {

struct Attended {
  Matrix output;                // [n × dModel] (the concatenated heads, n × P, without W_O)
  int64_t computed_scores = 0;  // (query, key) scores one head computes; 0 with linear attention
  // The bytes the attention's buffers hold at their peak (one head's, counted from the code
  // above): what grows with n beyond the n·d matrices X, Q, K, V and the output.
  int64_t score_bytes = 0;
};

// Validates (tokens up to Limits::kMaxAttendTokens a side), then computes the layer's output.
// Errors as Trace::Run's; a linear layer does not check its softmax comparison steps (it has
// none). On error `out` is left unchanged.
Status Attend(const Config& config, const Input& input, Attended* out,
              WeightCache* cache = nullptr);

}  // namespace attention
