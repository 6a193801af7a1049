#include "attention/train/head_scores.hpp"

#include <algorithm>
#include <cmath>

namespace attention::train {

Matrix HeadWeights(const Model<float>& model, int length, int layer, int head, int sequence) {
  const ModelConfig& config = model.config();
  const int d_k = config.ResolvedDK();
  int p = 0;
  const float* q = model.Activation("q", layer, &p);
  const float* k = model.Activation("k", layer, &p);
  if (q == nullptr || k == nullptr) return Matrix();  // no Forward yet
  const double alpha = config.scale ? 1.0 / std::sqrt(static_cast<double>(d_k)) : 1.0;
  // Rows of sequence `sequence`, columns of head `head`: element (t, c) at row0 + t·P + c.
  const size_t row0 = static_cast<size_t>(sequence) * length * p + static_cast<size_t>(head) * d_k;
  Matrix weights = Matrix::Zero(length, length);
  std::vector<double> scores(static_cast<size_t>(length));
  for (int i = 0; i < length; ++i) {
    const int visible = config.causal ? i + 1 : length;
    double top = -INFINITY;
    for (int j = 0; j < visible; ++j) {
      double dot = 0.0;
      for (int c = 0; c < d_k; ++c) {
        dot += static_cast<double>(q[row0 + static_cast<size_t>(i) * p + c]) *
               k[row0 + static_cast<size_t>(j) * p + c];
      }
      scores[j] = alpha * dot;
      top = std::max(top, scores[j]);
    }
    double sum = 0.0;
    for (int j = 0; j < visible; ++j) sum += (scores[j] = std::exp(scores[j] - top));
    for (int j = 0; j < visible; ++j) weights(i, j) = static_cast<float>(scores[j] / sum);
  }
  return weights;
}

HeadScores ScoreHeads(Model<float>* model, const std::vector<Example>& examples, int batch_size) {
  const ModelConfig& config = model->config();
  HeadScores scores;
  scores.induction.assign(config.layers, std::vector<double>(config.heads, 0.0));
  scores.previous_token = scores.induction;
  batch_size = std::max(batch_size, 1);
  int64_t previous_count = 0;
  for (size_t begin = 0; begin < examples.size(); begin += static_cast<size_t>(batch_size)) {
    const size_t end = std::min(examples.size(), begin + static_cast<size_t>(batch_size));
    Batch batch = MakeBatch(std::vector<Example>(examples.begin() + begin, examples.begin() + end));
    batch.targets.clear();
    batch.loss_weights.clear();
    if (!model->Forward(batch).ok()) return scores;
    for (int b = 0; b < batch.size; ++b) {
      const Example& e = examples[begin + b];
      for (int i = 0; i < batch.length; ++i) {
        scores.induction_positions += e.source[i] >= 0 && e.mask[i];
      }
      previous_count += batch.length - 1;
      for (int l = 0; l < config.layers; ++l) {
        for (int h = 0; h < config.heads; ++h) {
          const Matrix w = HeadWeights(*model, batch.length, l, h, b);
          for (int i = 0; i < batch.length; ++i) {
            if (e.mask[i] && e.source[i] >= 0) scores.induction[l][h] += w(i, e.source[i]);
            if (i > 0) scores.previous_token[l][h] += w(i, i - 1);
          }
        }
      }
    }
  }
  for (int l = 0; l < config.layers; ++l) {
    for (int h = 0; h < config.heads; ++h) {
      scores.induction[l][h] /= std::max<int64_t>(scores.induction_positions, 1);
      scores.previous_token[l][h] /= std::max<int64_t>(previous_count, 1);
    }
  }
  return scores;
}

std::vector<float> AttentionSnapshot(Model<float>* model, const std::vector<int>& tokens) {
  const ModelConfig& config = model->config();
  Batch batch;
  batch.size = 1;
  batch.length = static_cast<int>(tokens.size());
  batch.tokens = tokens;
  if (!model->Forward(batch).ok()) return {};
  const size_t t2 = tokens.size() * tokens.size();
  std::vector<float> weights(static_cast<size_t>(config.layers) * config.heads * t2);
  float* out = weights.data();
  for (int l = 0; l < config.layers; ++l) {
    for (int h = 0; h < config.heads; ++h, out += t2) {
      const Matrix w = HeadWeights(*model, batch.length, l, h, 0);
      // Matrix is row-major (matrix.hpp): its data is the [T × T] block as is.
      std::copy(w.data(), w.data() + t2, out);
    }
  }
  return weights;
}

}  // namespace attention::train
