// AdamW with learning-rate warmup, cosine decay and global gradient-norm clipping, over a
// model's single parameter buffer (the parameter table says which tensors are decayed).
#pragma once

#include <vector>

#include "attention/status.hpp"
#include "attention/train/parameters.hpp"

namespace attention::train {

// Every member is a trainer field: its default, bounds and JSON key are its row in
// trainer_fields.cpp, which the constructor reads (learning rate 1e-3, β 0.9 and 0.95, …).
struct AdamWConfig {
  AdamWConfig();
  double learning_rate;  // the peak, reached at the end of the warmup
  double beta1;
  double beta2;
  double epsilon;
  // Decoupled decay, p ← p − lr·wd·p, on TensorInfo::decay tensors only (linear maps' matrices;
  // not biases, LayerNorm gains or biases, token or position embeddings).
  double weight_decay;
  int warmup_steps;  // the rate rises linearly over these steps: lr·(step + 1)/warmup
  // After the warmup, a cosine from learning_rate down to min_learning_rate at total_steps,
  // then flat; 0: constant learning_rate after the warmup.
  int total_steps;
  double min_learning_rate;
  // Global norm clipping: when ‖g‖₂ over every gradient exceeds it, all are scaled by
  // clip_norm / (‖g‖₂ + 1e-6); 0: off.
  double clip_norm;
};

// Errors name the field in its JSON spelling, e.g. "beta2".
Status ValidateAdamWConfig(const AdamWConfig& config);

// The learning rate of step `step` (0 for the first update).
double LearningRateAt(const AdamWConfig& config, int step);

struct StepReport {
  double learning_rate = 0.0;
  double gradient_norm = 0.0;  // ‖g‖₂ before clipping
  bool clipped = false;
};

template <typename T>
class AdamW {
 public:
  // `config` must pass ValidateAdamWConfig; `layout` is the model's parameter table.
  AdamW(const AdamWConfig& config, const std::vector<TensorInfo>& layout);

  // One update of `params` from `grads` (both ParameterCount(layout) long).
  StepReport Step(T* params, const T* grads);

  int steps() const { return steps_; }
  const AdamWConfig& config() const { return config_; }
  // The moment estimates, parameter-buffer order (for saving a run and for tests).
  const std::vector<T>& first_moment() const { return m_; }
  const std::vector<T>& second_moment() const { return v_; }
  // Continues a saved run: its moments (as long as this optimizer's) and its updates done.
  void Restore(std::vector<T> first_moment, std::vector<T> second_moment, int steps);

 private:
  AdamWConfig config_;
  std::vector<TensorInfo> layout_;
  std::vector<T> m_, v_;
  int steps_ = 0;
};

extern template class AdamW<float>;
extern template class AdamW<double>;

}  // namespace attention::train
