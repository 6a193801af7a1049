// The parameter table of a model: one row per tensor, in one fixed order, with its shape and
// its offset in the model's single contiguous parameter buffer (llm.c keeps the same table).
// Everything that walks the parameters (initialisation, the optimizer, the gradient checks,
// the model file) reads this table.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "attention/train/model_config.hpp"

namespace attention::train {

enum class TensorKind {
  kTokenEmbedding,     // [V × d]
  kPositionEmbedding,  // [contextLength × d], learned positional encoding only
  kLn1Gain,            // [1 × d]; LayerNorm tensors are absent in attention-only models
  kLn1Bias,            // [1 × d]
  kWQ,                 // [d × P]
  kBQ,                 // [1 × P]
  kWK,                 // [d × P]
  kBK,                 // [1 × P]
  kWV,                 // [d × P]
  kBV,                 // [1 × P]
  kWO,                 // [P × d]
  kBO,                 // [1 × d]
  kLn2Gain,            // [1 × d]; LN₂ and the FFN are absent in attention-only models
  kLn2Bias,            // [1 × d]
  kW1,                 // [d × dFF]
  kB1,                 // [1 × dFF]
  kW2,                 // [dFF × d]
  kB2,                 // [1 × d]
  kLnFinalGain,        // [1 × d]
  kLnFinalBias,        // [1 × d]
  kUnembedding,        // [V × d], untied logits only: logits = lnFinal · Uᵀ
};
inline constexpr int kTensorKinds = static_cast<int>(TensorKind::kUnembedding) + 1;

enum class InitRule {
  kNormal,          // N(0, initStd²)
  kNormalResidual,  // N(0, (initStd / √(2·layers))²): W_O and W_2 write into the residual
  kZeros,           // biases
  kOnes,            // LayerNorm gains
};

struct TensorInfo {
  TensorKind kind;
  int layer;         // 0 … layers − 1, or −1 for the model-wide tensors
  std::string name;  // e.g. "tokenEmbedding", "layers.1.wQ"
  int rows, cols;
  size_t offset;  // in scalars from the start of the parameter buffer
  // AdamW's weight decay applies to the matrices of linear maps (W_Q, W_K, W_V, W_O, W_1, W_2,
  // the untied unembedding), not to biases, LayerNorm gains and biases, or embeddings
  // (token and positional, as minGPT: the tied embedding is therefore not decayed either).
  bool decay;
  InitRule init;

  size_t size() const { return static_cast<size_t>(rows) * static_cast<size_t>(cols); }
};

// Short names, e.g. "wQ" for kWQ: the same spelling as the engine's trace steps.
const char* TensorKindName(TensorKind kind);

// The tensors of a valid `config` in buffer order: token embedding, position embedding, each
// layer's tensors in TensorKind order, final LayerNorm, unembedding (those that exist).
std::vector<TensorInfo> ParameterLayout(const ModelConfig& config);

// Total scalars of the layout.
size_t ParameterCount(const std::vector<TensorInfo>& layout);

}  // namespace attention::train
