#include "attention/linear_attention.hpp"

#include <cmath>

#include "finite.hpp"
#include "gemm.hpp"

namespace attention {

Matrix FeatureMap(const Matrix& x) {
  return x.unaryExpr([](float v) { return v > 0.0f ? v + 1.0f : std::exp(v); });
}

bool LinearAttentionHead(const LinearIn& phi_q, const LinearIn& phi_k, const LinearIn& v,
                         bool causal, LinearOut summary, LinearOut key_sum, LinearOut normaliser,
                         LinearOut out) {
  const Eigen::Index n = phi_q.rows();
  const Eigen::Index m = phi_k.rows();
  if (!causal) {
    // Pass 1: the two sums over every key, once for all queries.
    Gemm(phi_k, TransposeA::kYes, v, TransposeB::kNo, GemmWrite::kAssign, summary);  // [dK × dK]
    key_sum = phi_k.colwise().sum();                                                 // [1 × dK]
    // Pass 2: each query reads them: numerator φ(Q)·S [n × dK], normaliser φ(Q)·Σφ(k) [n].
    Gemm(phi_q, summary, TransposeB::kNo, out);
    normaliser = (phi_q * key_sum.transpose()).transpose();
  } else {
    // One pass in key order: query i adds key i to the running sums, then reads them.
    summary.setZero();
    key_sum.setZero();
    for (Eigen::Index i = 0; i < n; ++i) {
      if (i < m) {
        summary.noalias() += phi_k.row(i).transpose() * v.row(i);
        key_sum += phi_k.row(i);
      }
      out.row(i).noalias() = phi_q.row(i) * summary;
      normaliser(0, i) = phi_q.row(i).dot(key_sum.row(0));
    }
    // Keys no query reaches (m > n in cross-attention) still belong to the shown full sums.
    for (Eigen::Index j = n; j < m; ++j) {
      summary.noalias() += phi_k.row(j).transpose() * v.row(j);
      key_sum += phi_k.row(j);
    }
  }
  for (Eigen::Index i = 0; i < n; ++i) out.row(i) /= normaliser(0, i);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (!AllFinite(out.row(i).data(), out.cols())) return false;
  }
  return true;
}

void LinearWeights(const LinearIn& phi_q, const LinearIn& phi_k, const MaskMatrix& mask,
                   const LinearIn& normaliser, Matrix* weights) {
  weights->resize(phi_q.rows(), phi_k.rows());
  Gemm(phi_q, phi_k, TransposeB::kYes, *weights);  // φ(q_i)·φ(k_j) [n × m]
  for (Eigen::Index i = 0; i < weights->rows(); ++i) {
    const float z = normaliser(0, i);
    for (Eigen::Index j = 0; j < weights->cols(); ++j) {
      (*weights)(i, j) = mask(i, j) ? (*weights)(i, j) / z : 0.0f;
    }
  }
}

}  // namespace attention
