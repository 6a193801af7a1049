#include "attention/softmax.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace attention {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// e^x for x ≤ 0, within about 2 ulp of the correctly rounded value, and exactly 1 at x = 0:
// Cephes' expf (x = n·ln2 + r, |r| ≤ ln2/2, a degree-7 polynomial for e^r, then ·2^n), written
// without calls or branches so that the compiler vectorizes the loop that calls it (WASM
// SIMD128 has no exp; std::exp one value at a time was the softmax's whole cost at n = 1024).
inline float ExpNonPositive(float x) {
  constexpr float kLowest = -87.0f;  // below, e^x < 2^-125: flushed to 0
  // NaN (x = ∞ − ∞ in a row that overflowed) takes the flushed branch too: converting NaN to
  // int below would be undefined behaviour.
  const bool flushed = !(x >= kLowest);
  const float clamped = flushed ? kLowest : x;
  const float n = std::floor(clamped * 1.44269504088896341f + 0.5f);
  float r = clamped - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float y = p * r * r + r + 1.0f;
  const int32_t bits = (static_cast<int32_t>(n) + 127) << 23;  // 2^n, n ∈ [−126, 0]
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return flushed ? 0.0f : y * scale;
}

inline bool IsFinite(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return (bits & 0x7f800000u) != 0x7f800000u;
}

// One row of m entries: x_j = α·s_j where visible (−∞ elsewhere), a = softmax(x). Writes a,
// and x when `masked` is not null. Returns false when some α·s_j (masked or not) is not finite.
// kAllVisible: `visible` is not read (a sparse pattern's row holds only its visible keys).
template <bool kAllVisible>
bool SoftmaxRow(const float* s, float alpha, const unsigned char* visible, Eigen::Index m,
                float* masked, float* a, RowStats* stats) {
  // Pass 1: scale, mask, row maximum (its first position is the "1 +" of the sum below).
  float row_max = kNegInf;
  Eigen::Index arg_max = -1;
  bool finite = true;
  for (Eigen::Index j = 0; j < m; ++j) {
    const float scaled = s[j] * alpha;
    finite &= IsFinite(scaled);
    const float x = kAllVisible || visible[j] ? scaled : kNegInf;
    a[j] = x;
    if (x > row_max) {
      row_max = x;
      arg_max = j;
    }
  }
  if (masked != nullptr) std::memcpy(masked, a, static_cast<size_t>(m) * sizeof(float));
  if (row_max == kNegInf) {
    // Nothing to attend to: exp(−∞ − (−∞)) would be NaN, so the row is defined as zeros.
    for (Eigen::Index j = 0; j < m; ++j) a[j] = 0.0f;
    *stats = RowStats{0.0f, 0.0f, true};
    return finite;
  }
  // Pass 2: exponents. Subtracting the row maximum keeps every one ≤ 0: no overflow at any
  // scale; a masked entry (−∞) gives exactly 0.
  for (Eigen::Index j = 0; j < m; ++j) a[j] = ExpNonPositive(a[j] - row_max);
  // Pass 3, in double. The entropy is taken from the exponents, not from log(a): in a saturated
  // row the top weight rounds to 1.0f and log(a) would lose exactly the part that matters.
  // With Δj = xj − max, S = 1 + rest: H = log1p(rest) − Σ e^Δj·Δj / S. `rest` leaves out the
  // first maximum (e^0 = 1), so that it keeps its digits when every other weight is tiny.
  double rest = 0.0;
  double weighted_exponents = 0.0;
  for (Eigen::Index j = 0; j < m; ++j) {
    if ((!kAllVisible && !visible[j]) || j == arg_max) continue;
    // In double: scores spanning more than FLT_MAX give a float Δ of −∞, and 0·(−∞) is NaN.
    const double delta = static_cast<double>(s[j] * alpha) - row_max;
    rest += a[j];
    weighted_exponents += static_cast<double>(a[j]) * delta;
  }
  const double sum = 1.0 + rest;
  const float inverse = static_cast<float>(1.0 / sum);
  // Pass 4: normalize. The largest weight is the maximum's: e^0 · inverse.
  for (Eigen::Index j = 0; j < m; ++j) a[j] *= inverse;
  const double entropy = std::log1p(rest) - weighted_exponents / sum;
  *stats = RowStats{inverse, static_cast<float>(entropy), false};
  return finite;
}

}  // namespace

void MaskedSoftmax(const Matrix& scaled, const MaskMatrix& mask, Matrix* masked, Matrix* weights,
                   RowStats* stats) {
  const Eigen::Index n = scaled.rows();
  const Eigen::Index m = scaled.cols();
  masked->resize(n, m);
  weights->resize(n, m);
  for (Eigen::Index i = 0; i < n; ++i) {
    SoftmaxRow<false>(scaled.data() + i * m, 1.0f, mask.data() + i * m, m, masked->data() + i * m,
                      weights->data() + i * m, &stats[i]);
  }
}

bool ScaledMaskedSoftmax(const Matrix& scores, float alpha, const MaskMatrix& mask, Matrix* weights,
                         RowStats* stats) {
  const Eigen::Index n = scores.rows();
  const Eigen::Index m = scores.cols();
  weights->resize(n, m);
  bool finite = true;
  for (Eigen::Index i = 0; i < n; ++i) {
    finite &= SoftmaxRow<false>(scores.data() + i * m, alpha, mask.data() + i * m, m, nullptr,
                                weights->data() + i * m, &stats[i]);
  }
  return finite;
}

bool ScaledSoftmaxRow(const float* scores, float alpha, Eigen::Index count, float* masked,
                      float* weights, RowStats* stats) {
  return SoftmaxRow<true>(scores, alpha, nullptr, count, masked, weights, stats);
}

}  // namespace attention
