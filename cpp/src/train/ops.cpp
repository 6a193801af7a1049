// The element-wise and row-wise operations of ops.hpp, and the products they share.
#include "ops.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "gemm.hpp"

namespace attention::train {

template <typename T>
void Product(View<T> c, ConstView<T> a, ConstView<T> b, Transpose transpose, Write write) {
  if constexpr (std::is_same_v<T, float>) {
    // Every float product through the engine's Gemm (in WebAssembly its SIMD kernel is 2–4
    // times Eigen's), which reads aᵀ in place and accumulates into c itself.
    Gemm(a, transpose == Transpose::kA ? TransposeA::kYes : TransposeA::kNo, b,
         transpose == Transpose::kB ? TransposeB::kYes : TransposeB::kNo,
         write == Write::kAssign ? GemmWrite::kAssign : GemmWrite::kAccumulate, c);
    return;
  } else {
    const bool assign = write == Write::kAssign;
    switch (transpose) {
      case Transpose::kNone:
        if (assign)
          c.noalias() = a * b;
        else
          c.noalias() += a * b;
        break;
      case Transpose::kA:
        if (assign)
          c.noalias() = a.transpose() * b;
        else
          c.noalias() += a.transpose() * b;
        break;
      case Transpose::kB:
        if (assign)
          c.noalias() = a * b.transpose();
        else
          c.noalias() += a * b.transpose();
        break;
    }
  }
}

template <typename T>
void EmbeddingForward(T* out, const int* tokens, const T* wte, const T* pos, int n, int length,
                      int c) {
  for (int i = 0; i < n; ++i) {
    const T* e = wte + static_cast<size_t>(tokens[i]) * c;
    const T* p = pos + static_cast<size_t>(i % length) * c;
    T* o = out + static_cast<size_t>(i) * c;
    for (int j = 0; j < c; ++j) o[j] = e[j] + p[j];
  }
}

template <typename T>
void EmbeddingBackward(T* dwte, T* dpos, const T* dout, const int* tokens, int n, int length,
                       int c) {
  for (int i = 0; i < n; ++i) {
    const T* g = dout + static_cast<size_t>(i) * c;
    T* de = dwte + static_cast<size_t>(tokens[i]) * c;
    for (int j = 0; j < c; ++j) de[j] += g[j];
    if (dpos != nullptr) {
      T* dp = dpos + static_cast<size_t>(i % length) * c;
      for (int j = 0; j < c; ++j) dp[j] += g[j];
    }
  }
}

template <typename T>
void MatmulForward(T* out, const T* inp, const T* w, const T* bias, int n, int c, int oc) {
  View<T> o = ViewOf(out, n, oc, oc);
  if (bias == nullptr) {
    Product<T>(o, ViewOf(inp, n, c, c), ViewOf(w, c, oc, oc), Transpose::kNone, Write::kAssign);
    return;
  }
  // The bias first, then the product accumulated onto it: no second pass over out.
  for (int i = 0; i < n; ++i) std::copy(bias, bias + oc, out + static_cast<size_t>(i) * oc);
  Product<T>(o, ViewOf(inp, n, c, c), ViewOf(w, c, oc, oc), Transpose::kNone, Write::kAccumulate);
}

template <typename T>
void MatmulBackward(T* dinp, Write write, T* dw, T* dbias, const T* dout, const T* inp, const T* w,
                    int n, int c, int oc) {
  const ConstView<T> g = ViewOf(dout, n, oc, oc);
  // Pass 1: dinp = dout · wᵀ [N × C].
  Product<T>(ViewOf(dinp, n, c, c), g, ViewOf(w, c, oc, oc), Transpose::kB, write);
  // Pass 2: dw += inpᵀ · dout [C × OC].
  Product<T>(ViewOf(dw, c, oc, oc), ViewOf(inp, n, c, c), g, Transpose::kA, Write::kAccumulate);
  // Pass 3: dbias += column sums of dout, row by row (contiguous, so the additions vectorize;
  // a column at a time strides by OC).
  if (dbias != nullptr) {
    for (int i = 0; i < n; ++i) {
      const T* row = dout + static_cast<size_t>(i) * oc;
      for (int j = 0; j < oc; ++j) dbias[j] += row[j];
    }
  }
}

template <typename T>
void LayerNormForward(T* out, T* mean, T* rstd, const T* inp, const T* gain, const T* bias, int n,
                      int c) {
  const T eps = T(1e-5);
  for (int i = 0; i < n; ++i) {
    const T* x = inp + static_cast<size_t>(i) * c;
    T m = 0;
    for (int j = 0; j < c; ++j) m += x[j];
    m /= c;
    T var = 0;
    for (int j = 0; j < c; ++j) var += (x[j] - m) * (x[j] - m);
    var /= c;
    const T s = T(1) / std::sqrt(var + eps);
    T* o = out + static_cast<size_t>(i) * c;
    for (int j = 0; j < c; ++j) o[j] = (x[j] - m) * s * gain[j] + bias[j];
    mean[i] = m;
    rstd[i] = s;
  }
}

template <typename T>
void LayerNormBackward(T* dinp, T* dgain, T* dbias, const T* dout, const T* inp, const T* gain,
                       const T* mean, const T* rstd, int n, int c) {
  for (int i = 0; i < n; ++i) {
    const T* g = dout + static_cast<size_t>(i) * c;
    const T* x = inp + static_cast<size_t>(i) * c;
    T* dx = dinp + static_cast<size_t>(i) * c;
    // The row's statistics in locals: read through pointers, every store below (which may alias
    // them, as far as the compiler knows) would force a reload and keep the loops scalar.
    const T m = mean[i], r = rstd[i];
    // Pass 1: the two row means of the normalized input's gradient.
    T dnorm_mean = 0, dnorm_norm_mean = 0;
    for (int j = 0; j < c; ++j) {
      const T norm = (x[j] - m) * r;
      const T dnorm = gain[j] * g[j];
      dnorm_mean += dnorm;
      dnorm_norm_mean += dnorm * norm;
    }
    dnorm_mean /= c;
    dnorm_norm_mean /= c;
    // Pass 2: gain, bias and input gradients.
    for (int j = 0; j < c; ++j) {
      const T norm = (x[j] - m) * r;
      const T dnorm = gain[j] * g[j];
      dbias[j] += g[j];
      dgain[j] += norm * g[j];
      dx[j] += (dnorm - dnorm_mean - norm * dnorm_norm_mean) * r;
    }
  }
}

namespace {

template <typename T>
constexpr T kGeluScale = T(0.7978845608028654);  // √(2/π)

template <typename T>
using ArrayMap = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <typename T>
using ConstArrayMap = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

}  // namespace

// As Eigen array expressions: its tanh is a vectorized rational approximation in float (a
// few ulp; std::tanh one value at a time was a third of a training step) and std::tanh in
// double.
template <typename T>
void GeluForward(T* out, const T* inp, int count) {
  const ConstArrayMap<T> x(inp, count);
  ArrayMap<T>(out, count) =
      T(0.5) * x * (T(1) + (kGeluScale<T> * (x + T(0.044715) * x.cube())).tanh());
}

template <typename T>
void GeluBackward(T* dinp, const T* inp, const T* dout, int count) {
  const ConstArrayMap<T> x(inp, count);
  ArrayMap<T> d(dinp, count);
  // Pass 1: t = tanh(√(2/π)(x + 0.044715x³)), into dinp; pass 2: dinp = dout · GELU'(x).
  d = (kGeluScale<T> * (x + T(0.044715) * x.cube())).tanh();
  d = ConstArrayMap<T>(dout, count) *
      (T(0.5) * (T(1) + d) +
       T(0.5) * x * (T(1) - d * d) * kGeluScale<T> * (T(1) + T(3 * 0.044715) * x.square()));
}

template <typename T>
void ResidualForward(T* out, const T* a, const T* b, int count) {
  for (int i = 0; i < count; ++i) out[i] = a[i] + b[i];
}

template <typename T>
T CrossEntropyForward(T* probs, const T* logits, const int* targets, const float* weights, int n,
                      int v) {
  double loss = 0.0, weight_sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const T* z = logits + static_cast<size_t>(i) * v;
    T* p = probs + static_cast<size_t>(i) * v;
    // Pass 1: the row maximum, so every exponent is ≤ 0.
    T max = z[0];
    for (int j = 1; j < v; ++j) max = z[j] > max ? z[j] : max;
    // Pass 2: exponents and their sum, in double: a float sum of 5,000 terms left rows summing
    // to 1 ± 5e-5; pass 3: normalize.
    double sum = 0;
    for (int j = 0; j < v; ++j) {
      p[j] = std::exp(z[j] - max);
      sum += p[j];
    }
    const T inverse = static_cast<T>(1.0 / sum);
    for (int j = 0; j < v; ++j) p[j] *= inverse;
    if (targets == nullptr) continue;
    const double w = weights != nullptr ? weights[i] : 1.0;
    if (w == 0.0) continue;
    // −ln p[y] = ln Σ − (z_y − max), exact even when p[y] underflows.
    loss += w * (std::log(sum) - static_cast<double>(z[targets[i]] - max));
    weight_sum += w;
  }
  return weight_sum > 0.0 ? static_cast<T>(loss / weight_sum) : T(0);
}

template <typename T>
void CrossEntropyBackward(T* dlogits, const T* probs, const int* targets, const float* weights,
                          int n, int v) {
  double weight_sum = 0.0;
  for (int i = 0; i < n; ++i) weight_sum += weights != nullptr ? weights[i] : 1.0;
  for (int i = 0; i < n; ++i) {
    const double w = weights != nullptr ? weights[i] : 1.0;
    const T scale = weight_sum > 0.0 ? static_cast<T>(w / weight_sum) : T(0);
    const T* p = probs + static_cast<size_t>(i) * v;
    T* g = dlogits + static_cast<size_t>(i) * v;
    for (int j = 0; j < v; ++j) g[j] = p[j] * scale;
    g[targets[i]] -= scale;
  }
}

#define ATTENTION_TRAIN_INSTANTIATE(T)                                                             \
  template void Product<T>(View<T>, ConstView<T>, ConstView<T>, Transpose, Write);                 \
  template void EmbeddingForward<T>(T*, const int*, const T*, const T*, int, int, int);            \
  template void EmbeddingBackward<T>(T*, T*, const T*, const int*, int, int, int);                 \
  template void MatmulForward<T>(T*, const T*, const T*, const T*, int, int, int);                 \
  template void MatmulBackward<T>(T*, Write, T*, T*, const T*, const T*, const T*, int, int, int); \
  template void LayerNormForward<T>(T*, T*, T*, const T*, const T*, const T*, int, int);           \
  template void LayerNormBackward<T>(T*, T*, T*, const T*, const T*, const T*, const T*, const T*, \
                                     int, int);                                                    \
  template void GeluForward<T>(T*, const T*, int);                                                 \
  template void GeluBackward<T>(T*, const T*, const T*, int);                                      \
  template void ResidualForward<T>(T*, const T*, const T*, int);                                   \
  template T CrossEntropyForward<T>(T*, const T*, const int*, const float*, int, int);             \
  template void CrossEntropyBackward<T>(T*, const T*, const int*, const float*, int, int);

ATTENTION_TRAIN_INSTANTIATE(float)
ATTENTION_TRAIN_INSTANTIATE(double)

}  // namespace attention::train
