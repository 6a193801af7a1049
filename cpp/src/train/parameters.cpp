#include "attention/train/parameters.hpp"

namespace attention::train {

const char* TensorKindName(TensorKind kind) {
  static const char* const kNames[kTensorKinds] = {
      "tokenEmbedding",
      "positionEmbedding",
      "ln1Gain",
      "ln1Bias",
      "wQ",
      "bQ",
      "wK",
      "bK",
      "wV",
      "bV",
      "wO",
      "bO",
      "ln2Gain",
      "ln2Bias",
      "w1",
      "b1",
      "w2",
      "b2",
      "lnFinalGain",
      "lnFinalBias",
      "unembedding",
  };
  return kNames[static_cast<int>(kind)];
}

std::vector<TensorInfo> ParameterLayout(const ModelConfig& config) {
  const int v = config.vocab_size;
  const int d = config.d_model;
  const int p = config.ProjectionWidth();
  const int f = config.ResolvedDFF();
  std::vector<TensorInfo> layout;
  size_t offset = 0;
  auto add = [&](TensorKind kind, int layer, int rows, int cols, bool decay, InitRule init) {
    std::string name = TensorKindName(kind);
    if (layer >= 0) name = "layers." + std::to_string(layer) + "." + name;
    layout.push_back(TensorInfo{kind, layer, name, rows, cols, offset, decay, init});
    offset += layout.back().size();
  };
  using K = TensorKind;
  const InitRule n = InitRule::kNormal;
  const InitRule z = InitRule::kZeros;
  add(K::kTokenEmbedding, -1, v, d, false, n);
  if (config.positional == PositionalKind::kLearned) {
    add(K::kPositionEmbedding, -1, config.context_length, d, false, n);
  }
  for (int l = 0; l < config.layers; ++l) {
    if (config.has_layer_norm()) {
      add(K::kLn1Gain, l, 1, d, false, InitRule::kOnes);
      add(K::kLn1Bias, l, 1, d, false, z);
    }
    add(K::kWQ, l, d, p, true, n);
    add(K::kBQ, l, 1, p, false, z);
    add(K::kWK, l, d, p, true, n);
    add(K::kBK, l, 1, p, false, z);
    add(K::kWV, l, d, p, true, n);
    add(K::kBV, l, 1, p, false, z);
    add(K::kWO, l, p, d, true, InitRule::kNormalResidual);
    add(K::kBO, l, 1, d, false, z);
    if (config.has_ffn()) {
      add(K::kLn2Gain, l, 1, d, false, InitRule::kOnes);
      add(K::kLn2Bias, l, 1, d, false, z);
      add(K::kW1, l, d, f, true, n);
      add(K::kB1, l, 1, f, false, z);
      add(K::kW2, l, f, d, true, InitRule::kNormalResidual);
      add(K::kB2, l, 1, d, false, z);
    }
  }
  if (config.has_layer_norm()) {
    add(K::kLnFinalGain, -1, 1, d, false, InitRule::kOnes);
    add(K::kLnFinalBias, -1, 1, d, false, z);
  }
  if (!config.tied_embeddings) add(K::kUnembedding, -1, v, d, true, n);
  return layout;
}

size_t ParameterCount(const std::vector<TensorInfo>& layout) {
  return layout.empty() ? 0 : layout.back().offset + layout.back().size();
}

}  // namespace attention::train
