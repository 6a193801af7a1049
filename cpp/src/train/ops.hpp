// The operations of the model, one forward and one backward function each (llm.c style),
// templated on the scalar: float for training, double for the finite-difference checks.
// Every buffer is a contiguous row-major array; shapes are given as [rows × cols] with
// N = B·T rows (one per position of the batch), C = dModel, P = heads·dK, F = dFF, V = vocab.
// Backward functions accumulate (+=) into parameter gradients; what they do with activation
// gradients (= or +=) is stated for each.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "attention/matrix.hpp"
#include "attention/softmax.hpp"
#include "attention/train/model.hpp"

namespace attention::train {

template <typename T>
using MatrixT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
// A row-major view with any row stride: head h of a [N × P] buffer is cols h·dK … h·dK+dK−1.
template <typename T>
using View = Eigen::Map<MatrixT<T>, 0, Eigen::OuterStride<>>;
template <typename T>
using ConstView = Eigen::Map<const MatrixT<T>, 0, Eigen::OuterStride<>>;

template <typename T>
View<T> ViewOf(T* data, int rows, int cols, int stride) {
  return View<T>(data, rows, cols, Eigen::OuterStride<>(stride));
}
template <typename T>
ConstView<T> ViewOf(const T* data, int rows, int cols, int stride) {
  return ConstView<T>(data, rows, cols, Eigen::OuterStride<>(stride));
}

enum class Transpose { kNone, kA, kB };  // c = a·b, aᵀ·b or a·bᵀ
enum class Write { kAssign, kAccumulate };

// Every matrix product of training: c (=|+=) op(a)·op(b). Float products that assign and do
// not transpose a go through the engine's Gemm (its WASM SIMD kernel); the rest through Eigen.
template <typename T>
void Product(View<T> c, ConstView<T> a, ConstView<T> b, Transpose transpose, Write write);

// Embedding: out[N × C] = wte[tokens[i]] + pos[i mod T]. pos [T × C]: the learned position
// embedding or the fixed sinusoid table.
template <typename T>
void EmbeddingForward(T* out, const int* tokens, const T* wte, const T* pos, int n, int length,
                      int c);
// Reads dout [N × C]; dwte [V × C] +=; dpos [T × C] += when not null (learned positions).
template <typename T>
void EmbeddingBackward(T* dwte, T* dpos, const T* dout, const int* tokens, int n, int length,
                       int c);

// out[N × OC] = inp[N × C] · w[C × OC] + bias[1 × OC].
template <typename T>
void MatmulForward(T* out, const T* inp, const T* w, const T* bias, int n, int c, int oc);
// Reads dout [N × OC], inp [N × C], w [C × OC]; dinp [N × C] (= or +=, `write`);
// dw [C × OC] +=; dbias [1 × OC] +=.
template <typename T>
void MatmulBackward(T* dinp, Write write, T* dw, T* dbias, const T* dout, const T* inp, const T* w,
                    int n, int c, int oc);

// out[N × C] = (inp − mean) · rstd · gain + bias per row, rstd = 1/√(var + 1e-5);
// mean, rstd [N] are kept for the backward pass.
template <typename T>
void LayerNormForward(T* out, T* mean, T* rstd, const T* inp, const T* gain, const T* bias, int n,
                      int c);
// Reads dout, inp [N × C], gain [C], mean, rstd [N]; dinp [N × C] +=; dgain, dbias [C] +=.
template <typename T>
void LayerNormBackward(T* dinp, T* dgain, T* dbias, const T* dout, const T* inp, const T* gain,
                       const T* mean, const T* rstd, int n, int c);

// GELU, tanh approximation (GPT-2): out = ½x(1 + tanh(√(2/π)(x + 0.044715x³))), count values.
template <typename T>
void GeluForward(T* out, const T* inp, int count);
// dinp = dout · GELU'(inp), count values (=).
template <typename T>
void GeluBackward(T* dinp, const T* inp, const T* dout, int count);

// out = a + b, count values.
template <typename T>
void ResidualForward(T* out, const T* a, const T* b, int count);

// Multi-head attention core of one layer, B sequences of length T:
//   per sequence b and head h: scores = q_h·k_hᵀ [T × T], weights = softmax(α·scores, mask),
//   concat_h = weights·v_h [T × dK].
// Reads q, k, v [N × P]; writes concat [N × P]. With `kept` (non-null, [B × heads × T × T]) the
// forward pass stores every head's weights there and the backward pass reads them; with null
// the backward pass recomputes each head's weights from q and k, one [T × T] at a time.
template <typename T>
class AttentionCore {
 public:
  void Forward(T* concat, T* kept, const T* q, const T* k, const T* v, int batch, int length,
               int heads, int d_k, bool causal, T alpha, AttentionStats* stats);
  // Reads dconcat, q, k, v [N × P]; writes (=) dq, dk, dv [N × P].
  void Backward(T* dq, T* dk, T* dv, const T* dconcat, const T* kept, const T* q, const T* k,
                const T* v, int batch, int length, int heads, int d_k, bool causal, T alpha,
                AttentionStats* stats);

 private:
  // weights_ = masked softmax of α·scores_ ([T × T]), summing row statistics into `stats`.
  void Softmax(T alpha, AttentionStats* stats);
  void PrepareMask(int length, bool causal);

  MatrixT<T> scores_, weights_, dweights_;  // [T × T] of one head
  MaskMatrix mask_;                         // [T × T], 1 = visible
  std::vector<RowStats> row_stats_;         // [T] (float: the engine softmax's row statistics)
  int mask_length_ = -1;
  bool mask_causal_ = false;
};

// probs[N × V] = softmax(logits) per row. With targets: returns the loss
// Σᵢ wᵢ·(−ln probs[i, targets[i]]) / Σᵢ wᵢ (wᵢ = weights[i], or 1 when weights is null; 0 when
// every weight is 0).
template <typename T>
T CrossEntropyForward(T* probs, const T* logits, const int* targets, const float* weights, int n,
                      int v);
// Reads probs [N × V]; writes dlogits [N × V] (=): (probs − onehot(target))·wᵢ/Σw.
template <typename T>
void CrossEntropyBackward(T* dlogits, const T* probs, const int* targets, const float* weights,
                          int n, int v);

}  // namespace attention::train
