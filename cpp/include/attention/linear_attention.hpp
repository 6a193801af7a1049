// Linear attention for one head (Katharopoulos et al., 2020, "Transformers are RNNs"):
//   out_i = φ(q_i)ᵀ S / z_i,  S = Σ_j φ(k_j) v_jᵀ [dK × dK],  z_i = φ(q_i)ᵀ Σ_j φ(k_j),
// with φ(x) = elu(x) + 1. S and Σφ(k) are summed once and shared by every query, so a head costs
// O(n·dK²) and never holds an n×m matrix; causal attention sums over j ≤ i, as running sums.
#pragma once

#include <Eigen/Core>

#include "attention/matrix.hpp"

namespace attention {

using LinearIn = Eigen::Ref<const Matrix, 0, Eigen::OuterStride<>>;
using LinearOut = Eigen::Ref<Matrix, 0, Eigen::OuterStride<>>;

// φ(x) = elu(x) + 1, entry by entry: x + 1 for x > 0, eˣ otherwise. Always > 0, so every implied
// weight is ≥ 0 and no normaliser is 0 (unless eˣ underflows: Run reports that as an overflow).
Matrix FeatureMap(const Matrix& x);

// phi_q [n × dK], phi_k [m × dK], v [m × dK]. Writes
//   summary [dK × dK]  Σ_j φ(k_j) v_jᵀ over every key (with causal: the last prefix, j < m),
//   key_sum [1 × dK]   Σ_j φ(k_j), the same keys,
//   normaliser [1 × n] z_i = φ(q_i)ᵀ Σ_{visible j} φ(k_j) (a row: Trace keeps one per head),
//   out [n × dK]       φ(q_i)ᵀ S_i / z_i, S_i the sum over the keys query i sees.
// With causal, query i sees keys j ≤ i: the sums grow one key per query (prefix sums), and the
// keys past the last query (cross-attention with m > n) are added only to the shown sums.
// Returns false when some output is not finite.
bool LinearAttentionHead(const LinearIn& phi_q, const LinearIn& phi_k, const LinearIn& v,
                         bool causal, LinearOut summary, LinearOut key_sum, LinearOut normaliser,
                         LinearOut out);

// The weights linear attention implies, for display: w_ij = φ(q_i)·φ(k_j) / z_i where mask_ij
// is 1, exactly 0 elsewhere [n × m], normaliser [1 × n]; out = w·v up to rounding and each row sums
// to 1. This is the n×m matrix the output path avoids: Trace::View forms it for one head only when
// asked.
void LinearWeights(const LinearIn& phi_q, const LinearIn& phi_k, const MaskMatrix& mask,
                   const LinearIn& normaliser, Matrix* weights);

}  // namespace attention
