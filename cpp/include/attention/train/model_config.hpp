// The shape and switches of a trainable transformer language model.
//
// A model is: token embedding [V × d] + positional encoding (sinusoidal, or learned [T × d]);
// `layers` pre-LN blocks
//     x → LN₁ → multi-head attention (W_Q, W_K, W_V [d × P], W_O [P × d], biases) → + x
//       → LN₂ → FFN (d → d_ff → d, GELU tanh approximation) → + residual₁;
// a final LayerNorm; logits = lnFinal · Eᵀ with E the token embedding (tied) or a separate
// unembedding [V × d]; cross-entropy over the positions whose loss weight is not 0.
#pragma once

#include <cstdint>
#include <string>

#include "attention/status.hpp"

namespace attention::train {

enum class PositionalKind {
  kSinusoidal,  // fixed, the engine's PositionalEncoding (no parameters)
  kLearned,     // a parameter [contextLength × dModel]
};

// Every member but the two sizes is a trainer field: its default, bounds and JSON key are its
// row in trainer_fields.cpp, which the constructor reads (2 layers, 4 heads, dModel 64, …).
struct ModelConfig {
  ModelConfig();
  int vocab_size = 16;      // V (set by the task or the vocabulary)
  int context_length = 32;  // the longest sequence T the model takes (set by the task or corpus)
  int d_model;              // d
  int heads;
  int d_k;  // per-head width of Q, K and V; 0: dModel / heads (heads must divide dModel)
  int layers;
  int d_ff;              // FFN hidden width; 0: 4 · dModel
  bool causal;           // a query sees keys j ≤ i; false: bidirectional
  bool scale;            // divide scores by √dK
  bool residual;         // the two residual adds of each block
  bool attention_only;   // no FFN and no LayerNorm anywhere (ln1, ln2, lnFinal)
  bool tied_embeddings;  // logits from the token embedding, else a separate matrix
  PositionalKind positional;
  // Initial weights ~ N(0, initStd²) (GPT-2's 0.02); W_O and W_2 get initStd / √(2·layers).
  double init_std;
  // W_Q and W_K start at this multiple of that draw (the same draw: the random stream is not
  // moved). The √dK experiment's control: dK^(−1/4) makes an unscaled model compute at step 0
  // exactly what the scaled one does, (s·q)·(s·k)ᵀ = q·kᵀ/√dK, so what differs later is the
  // training, not the start. Used only at initialisation; not stored in model files.
  double query_key_init;

  int ResolvedDK() const { return d_k > 0 ? d_k : (heads > 0 ? d_model / heads : 0); }
  int ProjectionWidth() const { return heads * ResolvedDK(); }  // P
  int ResolvedDFF() const { return d_ff > 0 ? d_ff : 4 * d_model; }
  bool has_layer_norm() const { return !attention_only; }
  bool has_ffn() const { return !attention_only; }
};

// The largest model the engine makes, trains or loads. Each size alone admits GPT-2 small
// (12 layers, 12 heads, width 768, vocabulary 50,257, context 1,024: 124,439,808 parameters); the
// parameter count bounds them together, so that the largest model's weights (512 MiB of float32)
// and its file's bytes, which a load holds at once, fit in one WebAssembly instance (2 GiB)
// with room for a trace. Every size is checked before anything is allocated.
struct ModelLimits {
  static constexpr int kMaxLayers = 12;
  static constexpr int kMaxVocab = 65536;
  static constexpr int kMaxContext = 2048;
  static constexpr int kMaxWidth = 1024;                       // dModel and P; dFF up to 4 times it
  static constexpr int64_t kMaxParameters = int64_t{1} << 27;  // 134,217,728
};

// The two sizes that are not trainer fields (the task or the vocabulary and corpus set them):
// the model file's key, the member and the bounds ValidateModelConfig checks.
struct ModelSize {
  const char* key;
  int ModelConfig::*member;
  int min, max;
};
inline constexpr ModelSize kModelSizes[] = {
    {"vocabSize", &ModelConfig::vocab_size, 2, ModelLimits::kMaxVocab},
    {"contextLength", &ModelConfig::context_length, 1, ModelLimits::kMaxContext},
};

// Checks every field; the error names the field (JSON spelling, e.g. "dModel") and the
// allowed values. A model of more than kMaxParameters parameters is refused (kLimitExceeded,
// field "parameters", naming the count) without allocating it.
Status ValidateModelConfig(const ModelConfig& config);

}  // namespace attention::train
