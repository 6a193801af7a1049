// The multi-head attention core of ops.hpp: forward, and backward from the weights the forward
// pass kept, or (when the model keeps none) with them recomputed one head at a time.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "attention/mask.hpp"
#include "attention/softmax.hpp"
#include "ops.hpp"

namespace attention::train {

template <typename T>
void AttentionCore<T>::PrepareMask(int length, bool causal) {
  if (length == mask_length_ && causal == mask_causal_) return;
  MaskSpec spec;
  spec.type = causal ? MaskType::kCausal : MaskType::kNone;
  mask_ = BuildMask(spec, length, length);
  mask_length_ = length;
  mask_causal_ = causal;
  scores_.resize(length, length);
  weights_.resize(length, length);
  dweights_.resize(length, length);
  row_stats_.resize(static_cast<size_t>(length));
}

template <typename T>
void AttentionCore<T>::Softmax(T alpha, AttentionStats* stats) {
  const int n = static_cast<int>(scores_.rows());
  if constexpr (std::is_same_v<T, float>) {
    // Float: the engine's own masked softmax, the one the explorer shows (entropy included).
    std::vector<RowStats>& rs = row_stats_;
    ScaledMaskedSoftmax(scores_, alpha, mask_, &weights_, rs.data());
    for (int i = 0; i < n; ++i) {
      stats->entropy_sum += rs[i].entropy;
      stats->max_weight = std::max(stats->max_weight, static_cast<double>(rs[i].max));
    }
  } else {
    // Double (gradient checks): the same definition, written out.
    for (int i = 0; i < n; ++i) {
      T max = -INFINITY;
      for (int j = 0; j < n; ++j) {
        if (mask_(i, j)) max = std::max(max, alpha * scores_(i, j));
      }
      T sum = 0;
      for (int j = 0; j < n; ++j) {
        weights_(i, j) = mask_(i, j) ? std::exp(alpha * scores_(i, j) - max) : T(0);
        sum += weights_(i, j);
      }
      weights_.row(i) /= sum;
      double entropy = 0.0;
      for (int j = 0; j < n; ++j) {
        const double a = weights_(i, j);
        if (a > 0.0) entropy -= a * std::log(a);
        stats->max_weight = std::max(stats->max_weight, a);
      }
      stats->entropy_sum += entropy;
    }
  }
  stats->rows += n;
}

template <typename T>
void AttentionCore<T>::Forward(T* concat, T* kept, const T* q, const T* k, const T* v, int batch,
                               int length, int heads, int d_k, bool causal, T alpha,
                               AttentionStats* stats) {
  PrepareMask(length, causal);
  const int p = heads * d_k;
  View<T> scores(scores_.data(), length, length, Eigen::OuterStride<>(length));
  for (int b = 0; b < batch; ++b) {
    const size_t row0 = static_cast<size_t>(b) * length * p;
    for (int h = 0; h < heads; ++h) {
      const size_t at = row0 + static_cast<size_t>(h) * d_k;
      // Pass 1: scores = q_h · k_hᵀ [T × T].
      Product<T>(scores, ViewOf(q + at, length, d_k, p), ViewOf(k + at, length, d_k, p),
                 Transpose::kB, Write::kAssign);
      // Pass 2: weights = masked softmax(α · scores).
      Softmax(alpha, stats);
      if (kept != nullptr) {
        std::copy(weights_.data(), weights_.data() + weights_.size(),
                  kept + (static_cast<size_t>(b) * heads + h) * length * length);
      }
      // Pass 3: concat_h = weights · v_h [T × dK].
      Product<T>(ViewOf(concat + at, length, d_k, p),
                 ViewOf(static_cast<const T*>(weights_.data()), length, length, length),
                 ViewOf(v + at, length, d_k, p), Transpose::kNone, Write::kAssign);
    }
  }
}

template <typename T>
void AttentionCore<T>::Backward(T* dq, T* dk, T* dv, const T* dconcat, const T* kept, const T* q,
                                const T* k, const T* v, int batch, int length, int heads, int d_k,
                                bool causal, T alpha, AttentionStats* stats) {
  PrepareMask(length, causal);
  const int p = heads * d_k;
  AttentionStats recompute;  // the forward pass already counted these rows
  View<T> scores(scores_.data(), length, length, Eigen::OuterStride<>(length));
  View<T> dweights(dweights_.data(), length, length, Eigen::OuterStride<>(length));
  for (int b = 0; b < batch; ++b) {
    const size_t row0 = static_cast<size_t>(b) * length * p;
    for (int h = 0; h < heads; ++h) {
      const size_t at = row0 + static_cast<size_t>(h) * d_k;
      const ConstView<T> qh = ViewOf(q + at, length, d_k, p);
      const ConstView<T> kh = ViewOf(k + at, length, d_k, p);
      const ConstView<T> vh = ViewOf(v + at, length, d_k, p);
      const ConstView<T> dout = ViewOf(dconcat + at, length, d_k, p);
      // Pass 1: this head's weights [T × T]: kept by the forward pass, or recomputed exactly as
      // it computed them.
      const T* weights_data = weights_.data();
      if (kept != nullptr) {
        weights_data = kept + (static_cast<size_t>(b) * heads + h) * length * length;
      } else {
        Product<T>(scores, qh, kh, Transpose::kB, Write::kAssign);
        Softmax(alpha, &recompute);
      }
      const ConstView<T> weights(weights_data, length, length, Eigen::OuterStride<>(length));
      // Pass 2: dweights = dconcat_h · v_hᵀ [T × T]; dv_h = weightsᵀ · dconcat_h [T × dK].
      Product<T>(dweights, dout, vh, Transpose::kB, Write::kAssign);
      Product<T>(ViewOf(dv + at, length, d_k, p), weights, dout, Transpose::kA, Write::kAssign);
      // Pass 3: softmax backward, into scores' storage: dscores = α·a ⊙ (da − Σⱼ aⱼ·daⱼ);
      // masked entries have a = 0 and get 0.
      for (int i = 0; i < length; ++i) {
        const T dot = weights.row(i).dot(dweights.row(i));
        for (int j = 0; j < length; ++j) {
          scores(i, j) = alpha * weights(i, j) * (dweights(i, j) - dot);
        }
      }
      stats->dscores_sq_sum += static_cast<double>(scores.squaredNorm());
      // Pass 4: dq_h = dscores · k_h, dk_h = dscoresᵀ · q_h [T × dK].
      const ConstView<T> dscores(scores_.data(), length, length, Eigen::OuterStride<>(length));
      Product<T>(ViewOf(dq + at, length, d_k, p), dscores, kh, Transpose::kNone, Write::kAssign);
      Product<T>(ViewOf(dk + at, length, d_k, p), dscores, qh, Transpose::kA, Write::kAssign);
    }
  }
}

template class AttentionCore<float>;
template class AttentionCore<double>;

}  // namespace attention::train
