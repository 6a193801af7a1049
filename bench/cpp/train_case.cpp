#include "train_case.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "attention/random.hpp"

namespace attention::bench {
namespace {

constexpr int kPoolSize = 4;  // random batches, cycled: drawing data is not what is timed

// B seeded random sequences of T + 1 tokens; tokens = s[0 … T−1], targets = s[1 … T].
train::Batch RandomBatch(RandomState* random, int batch, int length, int vocab) {
  train::Batch b;
  b.size = batch;
  b.length = length;
  for (int s = 0; s < batch; ++s) {
    int token = static_cast<int>(random->NextUint32() % static_cast<uint32_t>(vocab));
    for (int t = 0; t < length; ++t) {
      b.tokens.push_back(token);
      token = static_cast<int>(random->NextUint32() % static_cast<uint32_t>(vocab));
      b.targets.push_back(token);
    }
  }
  return b;
}

}  // namespace

TrainCase::TrainCase(const TrainSpec& spec) : spec_(spec) {
  config_.vocab_size = spec.vocab;
  config_.context_length = spec.context;
  if (spec.data != "random") {
    status_ = train::ParseTaskKind(spec.data, &task_.kind);
    if (!status_.ok()) return;
    const train::TaskLayout layout = train::LayoutOf(task_);
    config_.vocab_size = layout.vocab_size;
    config_.context_length = layout.sequence_length;
  }
  config_.layers = spec.layers;
  config_.d_model = spec.d_model;
  config_.heads = spec.heads;
  config_.d_k = spec.d_k;
  config_.d_ff = spec.d_ff;
  config_.scale = spec.scale;
  config_.init_std = spec.init_std;
  config_.positional =
      spec.learned_positions ? train::PositionalKind::kLearned : train::PositionalKind::kSinusoidal;
  status_ = train::ValidateModelConfig(config_);
  if (!status_.ok()) return;
  model_ = std::make_unique<train::Model<float>>(config_);
  model_->InitParameters(spec.seed);
  train::AdamWConfig adam;
  adam.learning_rate = spec.learning_rate;
  adamw_ = std::make_unique<train::AdamW<float>>(adam, model_->layout());
  if (spec.data == "random") {
    RandomState random(spec.seed + 1000);
    for (int i = 0; i < kPoolSize; ++i) {
      pool_.push_back(RandomBatch(&random, spec.batch, config_.context_length, config_.vocab_size));
    }
  } else {
    stream_ = std::make_unique<train::TaskStream>(task_, spec.seed, train::Split::kTrain);
    pool_.push_back(train::MakeBatch(stream_->Take(spec.batch)));
  }
}

const train::Batch& TrainCase::NextBatch() {
  if (stream_) {
    pool_[0] = train::MakeBatch(stream_->Take(spec_.batch));
    return pool_[0];
  }
  const train::Batch& b = pool_[next_];
  next_ = (next_ + 1) % pool_.size();
  return b;
}

Status TrainCase::Step() {
  if (!status_.ok()) return status_;
  Status status = model_->Forward(NextBatch());
  if (!status.ok()) return status;
  loss_ = model_->loss();
  model_->ZeroGradients();
  status = model_->Backward();
  if (!status.ok()) return status;
  report_ = adamw_->Step(model_->parameters(), model_->gradients());
  return Status::Ok();
}

Status TrainCase::Evaluate(double* loss) {
  if (!status_.ok()) return status_;
  Status status = model_->Forward(pool_[0]);
  *loss = model_->loss();
  return status;
}

StepLog TrainCase::Log() const {
  StepLog log;
  log.loss = loss_;
  log.gradient_norm = report_.gradient_norm;
  double entropy = 0.0, dscores = 0.0;
  int64_t rows = 0;
  for (const train::AttentionStats& s : model_->attention_stats()) {
    entropy += s.entropy_sum;
    rows += s.rows;
    dscores += s.dscores_sq_sum;
    log.max_attention = std::max(log.max_attention, s.max_weight);
    log.layer_entropy.push_back(s.rows > 0 ? s.entropy_sum / static_cast<double>(s.rows) : 0.0);
    log.layer_dscores_norm.push_back(std::sqrt(s.dscores_sq_sum));
  }
  log.entropy = rows > 0 ? entropy / static_cast<double>(rows) : 0.0;
  log.mean_row_max = MeanRowMax();
  log.dscores_norm = std::sqrt(dscores);
  const float* p = model_->parameters();
  for (const train::TensorInfo& info : model_->layout()) {
    float largest = 0.0f;
    for (size_t i = info.offset; i < info.offset + info.size(); ++i) {
      largest = std::max(largest, std::fabs(p[i]));
    }
    log.max_weight = std::max(log.max_weight, static_cast<double>(largest));
    if (info.kind == train::TensorKind::kWQ || info.kind == train::TensorKind::kWK) {
      log.max_qk_weight = std::max(log.max_qk_weight, static_cast<double>(largest));
    }
  }
  return log;
}

double TrainCase::MeanRowMax() const {
  const int b = spec_.batch, t = config_.context_length, heads = config_.heads;
  const int d_k = config_.ResolvedDK();
  const double alpha = config_.scale ? 1.0 / std::sqrt(static_cast<double>(d_k)) : 1.0;
  double sum = 0.0;
  int64_t rows = 0;
  std::vector<double> scores(static_cast<size_t>(t));
  for (int l = 0; l < config_.layers; ++l) {
    int p = 0;
    const float* q = model_->Activation("q", l, &p);
    const float* k = model_->Activation("k", l, &p);
    if (q == nullptr || k == nullptr) return 0.0;
    for (int s = 0; s < b; ++s) {
      for (int h = 0; h < heads; ++h) {
        for (int i = 0; i < t; ++i) {
          const int visible = config_.causal ? i + 1 : t;
          if (visible < 2) continue;
          const float* qi = q + (static_cast<size_t>(s) * t + i) * p + h * d_k;
          double max = -INFINITY, total = 0.0;
          for (int j = 0; j < visible; ++j) {
            const float* kj = k + (static_cast<size_t>(s) * t + j) * p + h * d_k;
            double dot = 0.0;
            for (int x = 0; x < d_k; ++x) dot += static_cast<double>(qi[x]) * kj[x];
            scores[static_cast<size_t>(j)] = alpha * dot;
            max = std::max(max, alpha * dot);
          }
          for (int j = 0; j < visible; ++j) total += std::exp(scores[static_cast<size_t>(j)] - max);
          sum += 1.0 / total;  // the largest weight: exp(max − max) / total
          ++rows;
        }
      }
    }
  }
  return rows > 0 ? sum / static_cast<double>(rows) : 0.0;
}

double TrainCase::HeldOutAccuracy(int count) {
  if (!stream_) return -1.0;
  train::TaskStream held_out(task_, spec_.seed, train::Split::kHeldOut);
  const std::vector<train::Example> examples = held_out.Take(count);
  const int v = config_.vocab_size;
  train::Predictor predict = [&](const std::vector<std::vector<int>>& sequences) {
    train::Batch b;
    b.size = static_cast<int>(sequences.size());
    b.length = static_cast<int>(sequences[0].size());
    for (const std::vector<int>& s : sequences) b.tokens.insert(b.tokens.end(), s.begin(), s.end());
    std::vector<std::vector<int>> out(sequences.size());
    if (!model_->Forward(b).ok()) return out;
    int width = 0;
    const float* logits = model_->Activation("logits", -1, &width);
    for (size_t s = 0; s < sequences.size(); ++s) {
      for (int t = 0; t < b.length; ++t) {
        const float* row = logits + (s * static_cast<size_t>(b.length) + t) * v;
        out[s].push_back(static_cast<int>(std::max_element(row, row + v) - row));
      }
    }
    return out;
  };
  return train::Evaluate(task_, examples, predict, train::Decoding::kGreedy).exact_match;
}

std::string TrainCase::LayoutJson() const {
  std::ostringstream out;
  out << "{\"parameters\":" << model_->parameter_count() << ",\"tensors\":[";
  bool first = true;
  for (const train::TensorInfo& t : model_->layout()) {
    out << (first ? "" : ",") << "{\"name\":\"" << t.name << "\",\"rows\":" << t.rows
        << ",\"cols\":" << t.cols << ",\"offset\":" << t.offset
        << ",\"decay\":" << (t.decay ? "true" : "false") << "}";
    first = false;
  }
  out << "]}";
  return out.str();
}

std::string TrainCase::MemoryJson() const {
  train::MemoryUse use = model_->memory();
  if (use.activations == 0) {
    use = train::EstimateMemory(config_, spec_.batch, config_.context_length, sizeof(float));
  }
  std::ostringstream out;
  out << "{\"activations\":" << use.activations << ",\"parameters\":" << use.parameters
      << ",\"gradients\":" << use.gradients << ",\"adam\":" << 2 * use.parameters
      << ",\"scratch\":" << use.scratch << "}";
  return out.str();
}

Status ParseTrainSpec(const std::string& text, TrainSpec* spec) {
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    const size_t eq = word.find('=');
    const std::string key = word.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : word.substr(eq + 1);
    if (key == "data") {
      spec->data = value;
      continue;
    }
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0') {
      return Status(ErrorCode::kInvalidArgument, key, key + " needs a number, got '" + value + "'");
    }
    const int whole = static_cast<int>(number);
    if (key == "vocab")
      spec->vocab = whole;
    else if (key == "layers")
      spec->layers = whole;
    else if (key == "dModel")
      spec->d_model = whole;
    else if (key == "heads")
      spec->heads = whole;
    else if (key == "dK")
      spec->d_k = whole;
    else if (key == "dFF")
      spec->d_ff = whole;
    else if (key == "context")
      spec->context = whole;
    else if (key == "batch")
      spec->batch = whole;
    else if (key == "scale")
      spec->scale = whole != 0;
    else if (key == "learnedPositions")
      spec->learned_positions = whole != 0;
    else if (key == "initStd")
      spec->init_std = number;
    else if (key == "learningRate")
      spec->learning_rate = number;
    else if (key == "seed")
      spec->seed = static_cast<uint32_t>(number);
    else {
      return Status(ErrorCode::kInvalidArgument, key,
                    "unknown key '" + key +
                        "': vocab, layers, dModel, heads, dK, dFF, context, batch, scale, "
                        "learnedPositions, initStd, learningRate, seed, data");
    }
  }
  return Status::Ok();
}

std::string StepLogJson(const StepLog& log) {
  std::ostringstream out;
  out.precision(9);
  auto list = [&](const std::vector<double>& values) {
    out << "[";
    for (size_t i = 0; i < values.size(); ++i) out << (i ? "," : "") << values[i];
    out << "]";
  };
  out << "{\"loss\":" << log.loss << ",\"gradientNorm\":" << log.gradient_norm
      << ",\"entropy\":" << log.entropy << ",\"maxAttention\":" << log.max_attention
      << ",\"meanRowMax\":" << log.mean_row_max << ",\"dScoresNorm\":" << log.dscores_norm
      << ",\"maxQKWeight\":" << log.max_qk_weight << ",\"maxWeight\":" << log.max_weight
      << ",\"layerEntropy\":";
  list(log.layer_entropy);
  out << ",\"layerDScoresNorm\":";
  list(log.layer_dscores_norm);
  out << "}";
  return out.str();
}

}  // namespace attention::bench
