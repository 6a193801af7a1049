// Steps 6–7 for one head: mask the scaled scores, then a numerically safe softmax per row.
#pragma once

#include "attention/matrix.hpp"

namespace attention {

struct RowStats {
  float max = 0.0f;      // largest weight of the row
  float entropy = 0.0f;  // −Σ a·ln a, with 0·ln 0 = 0
  bool all_masked = false;
};

// scaled, mask: [n × m]. Writes masked (−∞ where mask is 0) and weights (rows sum to 1,
// masked entries exactly 0; an all-masked row is all zeros and flagged, never NaN), and
// the statistics of each row into `stats` (size n).
void MaskedSoftmax(const Matrix& scaled, const MaskMatrix& mask, Matrix* masked, Matrix* weights,
                   RowStats* stats);

// The same weights and statistics straight from the raw scores [n × m]: scaled = α·scores is
// formed on the fly, and neither it nor masked is stored (a forward pass needs only the
// weights). Bit for bit the weights of MaskedSoftmax(α·scores, ...). Returns false when some
// α·score, masked or not, is not finite (float32 overflow).
bool ScaledMaskedSoftmax(const Matrix& scores, float alpha, const MaskMatrix& mask, Matrix* weights,
                         RowStats* stats);

// One row of a sparse pattern: the `count` scores of the keys the query may see (every one
// visible). Writes weights [count] (and α·scores into `masked` unless it is null). The same
// passes as a dense row, so the weights are bit for bit those MaskedSoftmax gives a dense row
// holding these scores in the same order with every other entry masked. count 0: stats flag
// the row as all masked. Returns false when some α·score is not finite.
bool ScaledSoftmaxRow(const float* scores, float alpha, Eigen::Index count, float* masked,
                      float* weights, RowStats* stats);

}  // namespace attention
