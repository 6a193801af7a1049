#include "fixtures.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>

#include "attention/given.hpp"

namespace attention::testing {

using nlohmann::json;

json LoadJson(const std::string& file_name) {
  const std::string path = std::string(ATTENTION_FIXTURE_DIR) + "/" + file_name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open fixture " + path);
  return json::parse(in);
}

std::vector<std::string> FixtureNames() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(ATTENTION_FIXTURE_DIR)) {
    const std::string name = entry.path().stem().string();
    if (entry.path().extension() == ".json" && name != "generator") names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

Reference ReadReference(const json& matrix) {
  Reference r;
  r.rows = matrix.at("shape").at(0).get<int>();
  r.cols = matrix.at("shape").at(1).get<int>();
  for (const json& v : matrix.at("data")) {
    // "-inf" (masked) and "nan" (the format allows it; no committed fixture holds one).
    if (v.is_string()) {
      r.data.push_back(v == "nan" ? std::numeric_limits<double>::quiet_NaN()
                                  : -std::numeric_limits<double>::infinity());
    } else {
      r.data.push_back(v.get<double>());
    }
  }
  return r;
}

Matrix ToMatrix(const json& matrix) {
  const Reference r = ReadReference(matrix);
  Matrix m(r.rows, r.cols);
  for (size_t i = 0; i < r.data.size(); ++i) m.data()[i] = static_cast<float>(r.data[i]);
  return m;
}

void ReadCase(const json& fixture, Config* config, Input* input) {
  const json& c = fixture.at("config");
  config->d_model = c.at("dModel").get<int>();
  config->heads = c.at("heads").get<int>();
  config->d_k = c.at("dK").get<int>();
  config->seed = c.at("seed").get<uint32_t>();
  config->scale = c.at("scale").get<bool>();
  config->temperature = c.at("temperature").get<double>();
  config->bias = c.at("bias").get<bool>();
  config->output_projection = c.at("outputProjection").get<bool>();
  config->positional_encoding = c.at("positionalEncoding").get<bool>();
  config->init = c.at("init") == "randn" ? Init::kRandn : Init::kScaled;
  const std::string embedding = c.at("embedding");
  config->embedding = embedding == "hash"     ? EmbeddingSource::kHash
                      : embedding == "stream" ? EmbeddingSource::kStream
                                              : EmbeddingSource::kGiven;
  // Fixtures made before linear attention have no "attention" key: softmax.
  config->attention = c.value("attention", "softmax") == "linear" ? AttentionKind::kLinear
                                                                  : AttentionKind::kSoftmax;
  const json& mask = c.at("mask");
  const std::string type = mask.at("type");
  MaskSpec& spec = config->mask;
  if (type == "causal") {
    spec.type = MaskType::kCausal;
  } else if (type == "window" || type == "longformer" || type == "bigbird" || type == "dilated") {
    spec.type = type == "window"       ? MaskType::kWindow
                : type == "longformer" ? MaskType::kLongformer
                : type == "bigbird"    ? MaskType::kBigBird
                                       : MaskType::kDilated;
    spec.width = mask.at("width").get<int>();
    spec.causal = mask.value("causal", false);
    if (mask.contains("global")) spec.global_tokens = mask.at("global").get<std::vector<int>>();
    if (mask.contains("dilation")) spec.dilation = mask.at("dilation").get<int>();
    if (mask.contains("block")) spec.block = mask.at("block").get<int>();
    if (mask.contains("random")) spec.random = mask.at("random").get<int>();
    if (mask.contains("seed")) spec.seed = mask.at("seed").get<uint32_t>();
  } else if (type == "padding") {
    spec.type = MaskType::kPadding;
    spec.positions = mask.at("positions").get<std::vector<int>>();
  } else if (type == "custom") {
    spec.type = MaskType::kCustom;
    const auto rows = mask.at("matrix").get<std::vector<std::vector<int>>>();
    spec.matrix.resize(static_cast<Eigen::Index>(rows.size()),
                       static_cast<Eigen::Index>(rows.at(0).size()));
    for (size_t i = 0; i < rows.size(); ++i) {
      for (size_t j = 0; j < rows[i].size(); ++j) {
        spec.matrix(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) =
            static_cast<unsigned char>(rows[i][j]);
      }
    }
  }
  input->tokens = fixture.at("tokens").get<std::vector<std::string>>();
  input->cross = !fixture.at("kvTokens").is_null();
  if (input->cross) input->kv_tokens = fixture.at("kvTokens").get<std::vector<std::string>>();
  const json& given = fixture.at("given");
  for (const auto& [name, matrix] : given.items()) {
    const GivenSlot* slot = FindGivenSlot(name);
    if (slot == nullptr) throw std::runtime_error("fixture gives an unknown matrix " + name);
    input->given.*slot->given = ToMatrix(matrix);
  }
}

train::ModelConfig ReadModelConfig(const json& c) {
  train::ModelConfig config;
  config.vocab_size = c.at("vocabSize").get<int>();
  config.context_length = c.at("contextLength").get<int>();
  config.d_model = c.at("dModel").get<int>();
  config.heads = c.at("heads").get<int>();
  config.d_k = c.at("dK").get<int>();
  config.layers = c.at("layers").get<int>();
  config.causal = c.at("causal").get<bool>();
  config.scale = c.at("scale").get<bool>();
  config.residual = c.at("residual").get<bool>();
  config.attention_only = c.at("attentionOnly").get<bool>();
  config.tied_embeddings = c.at("tiedEmbeddings").get<bool>();
  config.positional = c.at("positionalEncoding").get<std::string>() == "learned"
                          ? train::PositionalKind::kLearned
                          : train::PositionalKind::kSinusoidal;
  return config;
}

train::Batch ReadBatch(const json& b) {
  train::Batch batch;
  batch.size = b.at("size").get<int>();
  batch.length = b.at("length").get<int>();
  batch.tokens = b.at("tokens").get<std::vector<int>>();
  batch.targets = b.at("targets").get<std::vector<int>>();
  batch.loss_weights = b.at("lossWeights").get<std::vector<float>>();
  return batch;
}

double MaxAbs(const std::vector<double>& values) {
  double m = 0.0;
  for (double x : values) m = std::max(m, std::abs(x));
  return m;
}

double RelativeError(const Matrix& actual, const Reference& expected, double floor) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (actual.rows() != expected.rows || actual.cols() != expected.cols) return kInf;
  double max_reference = 0.0;
  double max_difference = 0.0;
  for (size_t i = 0; i < expected.data.size(); ++i) {
    const double b = expected.data[i];
    const double a = actual.data()[i];
    if (std::isinf(b)) {
      if (a != b) return kInf;
      continue;
    }
    if (std::isnan(b)) {
      if (!std::isnan(a)) return kInf;
      continue;
    }
    if (!std::isfinite(a)) return kInf;
    max_reference = std::max(max_reference, std::abs(b));
    max_difference = std::max(max_difference, std::abs(a - b));
  }
  max_reference = std::max(max_reference, floor);
  return max_reference > 0.0 ? max_difference / max_reference : max_difference;
}

}  // namespace attention::testing
