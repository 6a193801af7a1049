#include "attention/softmax.hpp"

#include <cmath>
#include <limits>

namespace attention {

void MaskedSoftmax(const Matrix& scaled, const MaskMatrix& mask, Matrix* masked, Matrix* weights,
                   RowStats* stats) {
  constexpr float kNegInf = -std::numeric_limits<float>::infinity();
  const Eigen::Index n = scaled.rows();
  const Eigen::Index m = scaled.cols();
  masked->resize(n, m);
  weights->resize(n, m);
  for (Eigen::Index i = 0; i < n; ++i) {
    const float* s = scaled.data() + i * m;
    const unsigned char* visible = mask.data() + i * m;
    float* x = masked->data() + i * m;
    float* a = weights->data() + i * m;
    float row_max = kNegInf;
    for (Eigen::Index j = 0; j < m; ++j) {
      x[j] = visible[j] ? s[j] : kNegInf;
      if (x[j] > row_max) row_max = x[j];
    }
    RowStats& st = stats[i];
    if (row_max == kNegInf) {
      // Nothing to attend to: exp(−∞ − (−∞)) would be NaN, so the row is defined as zeros.
      for (Eigen::Index j = 0; j < m; ++j) a[j] = 0.0f;
      st = RowStats{0.0f, 0.0f, true};
      continue;
    }
    // Subtracting the row maximum keeps every exponent ≤ 0: no overflow at any scale.
    // The entropy is taken from the exponents, not from log(a): in a saturated row the top
    // weight rounds to 1.0f and log(a) would lose exactly the part that matters.
    // With Δj = xj − max, S = 1 + rest: H = log1p(rest) − Σ e^Δj·Δj / S.
    double rest = 0.0;
    double weighted_exponents = 0.0;
    bool seen_max = false;
    for (Eigen::Index j = 0; j < m; ++j) {
      if (!visible[j]) {
        a[j] = 0.0f;
        continue;
      }
      const float delta = x[j] - row_max;
      a[j] = std::exp(delta);
      if (delta == 0.0f && !seen_max) {
        seen_max = true;  // e^0 = 1 is the "1 +" of S
      } else {
        rest += a[j];
      }
      weighted_exponents += static_cast<double>(a[j]) * delta;
    }
    const double sum = 1.0 + rest;
    const float inverse = static_cast<float>(1.0 / sum);
    float largest = 0.0f;
    for (Eigen::Index j = 0; j < m; ++j) {
      a[j] *= inverse;
      if (a[j] > largest) largest = a[j];
    }
    const double entropy = std::log1p(rest) - weighted_exponents / sum;
    st = RowStats{largest, static_cast<float>(entropy), false};
  }
}

}  // namespace attention
