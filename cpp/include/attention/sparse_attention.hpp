// Softmax attention over a sparse pattern (sparse_pattern.hpp), one head: only the pattern's
// (query, key) pairs are touched, so the time and the memory follow the pattern's count, not
// n × m. Per query i, over its keys j (ascending):
//   s_j = q_i·k_j,  a = softmax(α·s),  out_i = Σ_j a_j v_j.
// Each score is one dot product over dK and each weighted value one row update, in plain loops
// the compiler vectorizes (in WebAssembly about 20% faster than Eigen's matrix–vector products,
// which have no WASM SIMD there).
// Rows whose longest run of consecutive keys holds 32 keys or more (a window's, and Longformer's
// and BigBird's beside their global and random keys) go in tiles of up to 64 rows instead: the
// runs' scores and weighted sum are two GEMMs over the keys the tile spans (at w = 128, 320 a row
// for 257), at the GEMM's speed per score, in WebAssembly about half a dot product's; a row's
// other keys keep a dot product each (docs/benchmarks.md, "Long sequences"). The same softmax;
// sums differ in rounding.
#pragma once

#include <Eigen/Core>

#include "attention/matrix.hpp"
#include "attention/softmax.hpp"
#include "attention/sparse_pattern.hpp"

namespace attention {

using SparseIn = Eigen::Ref<const Matrix, 0, Eigen::OuterStride<>>;
using SparseOut = Eigen::Ref<Matrix, 0, Eigen::OuterStride<>>;

// q [n × dK], k and v [m × dK]; writes out [n × dK] (a query with no keys gets zeros) and
// stats [n]. Peak extra memory: two rows of the pattern's longest row. Returns false when
// some α·q_i·k_j of the pattern is not finite (float32 overflow).
bool SparseAttentionHead(const SparseIn& q, const SparseIn& k, const SparseIn& v,
                         const SparsePattern& pattern, float alpha, SparseOut out, RowStats* stats);

// The same head's display steps, [n × m] each, with the same arithmetic: scores and scaled
// where the pattern computes them and NaN (not computed) elsewhere; masked −∞ elsewhere;
// weights exactly 0 elsewhere. stats [n].
void SparseHeadSteps(const SparseIn& q, const SparseIn& k, const SparsePattern& pattern,
                     float alpha, Matrix* scores, Matrix* scaled, Matrix* masked, Matrix* weights,
                     RowStats* stats);

}  // namespace attention
