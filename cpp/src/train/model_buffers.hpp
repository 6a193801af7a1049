// Where a model's activations and backward scratch live: one contiguous buffer each, carved
// into the named arrays below by Place, which is also what EstimateMemory counts.
// N = B·T rows, C = dModel, P = heads·dK, F = dFF, V = vocab.
#pragma once

#include <array>
#include <vector>

#include "attention/train/model.hpp"
#include "ops.hpp"

namespace attention::train {

// A LayerNorm's output [N × C] and the row statistics its backward pass reads, [N] each.
template <typename T>
struct NormActivations {
  T* out = nullptr;
  T* mean = nullptr;
  T* rstd = nullptr;
};

template <typename T>
struct LayerActivations {
  NormActivations<T> ln1;  // LayerNorm models only (else attention reads the input)
  T *q = nullptr, *k = nullptr, *v = nullptr;  // [N × P]
  T* concat = nullptr;                         // [N × P] every head's output side by side
  T* attention_weights = nullptr;  // [B × heads × T × T] when KeepsAttentionWeights, else null
  T* attention = nullptr;          // [N × C] concat · W_O + b_O
  T* residual1 = nullptr;          // [N × C] input + attention (or attention)
  NormActivations<T> ln2;          // FFN models only, as everything down to residual2
  T* ffn_hidden = nullptr;         // [N × F] ln2 · W_1 + b_1
  T* ffn_activation = nullptr;     // [N × F] GELU(ffn_hidden)
  T* ffn_out = nullptr;            // [N × C] ffn_activation · W_2 + b_2
  T* residual2 = nullptr;          // [N × C] residual1 + ffn_out (or ffn_out)
};

template <typename T>
struct Activations {
  T* embedding = nullptr;  // [N × C] token embedding + positional encoding
  std::vector<LayerActivations<T>> layers;
  NormActivations<T> ln_final;  // LayerNorm models only
  T* logits = nullptr;          // [N × V], or [B × V] for Outputs::kLastPosition
  T* probabilities = nullptr;   // as logits
};

// Activation gradients of the backward pass, reused by every layer.
template <typename T>
struct Scratch {
  T* dlogits = nullptr;  // [N × V]
  T* dstream = nullptr;  // [N × C] ∂L/∂ the residual stream at the current point
  T* dnorm = nullptr;    // [N × C] ∂L/∂ a LayerNorm's output (or the attention's input)
  T *dhidden = nullptr, *dactivation = nullptr;   // [N × F]
  T *dq = nullptr, *dk = nullptr, *dv = nullptr;  // [N × P]
  T* dconcat = nullptr;                           // [N × P]
};

// Whether Forward keeps every head's attention weights for Backward (which then need not
// recompute them): when they take at most kMaxKeptAttentionWeights scalars over all layers
// (16 MiB of float; the reference model's B 32, T 32 keeps 1 MiB). Longer sequences recompute.
inline constexpr int64_t kMaxKeptAttentionWeights = int64_t{1} << 22;
bool KeepsAttentionWeights(const ModelConfig& config, int batch, int length);

// Carves the arrays out of `base` (nullptr: only counts) and returns how many scalars they take.
template <typename T>
size_t PlaceActivations(const ModelConfig& config, int batch, int length, Outputs outputs, T* base,
                        Activations<T>* a);
template <typename T>
size_t PlaceScratch(const ModelConfig& config, int n, T* base, Scratch<T>* s);

template <typename T>
struct Model<T>::Buffers {
  int batch = 0, length = 0;
  Outputs outputs = Outputs::kEveryPosition;
  std::vector<T> activation_data, scratch_data;
  Activations<T> acts;
  Scratch<T> scratch;
  MatrixT<T> positions;              // [contextLength × C]: the sinusoid table (sinusoidal models)
  std::vector<int> tokens, targets;  // of the last Forward, [N]
  std::vector<float> loss_weights;   // [N] or empty
  AttentionCore<T> core;
  std::vector<AttentionStats> stats;  // [layers]
  // parameter offsets: index[layer + 1][kind] into layout, −1 when absent
  std::vector<std::array<int, kTensorKinds>> index;
};

}  // namespace attention::train
