#include "attention/train/optimizer.hpp"

#include <cmath>
#include <utility>

#include "attention/train/trainer_fields.hpp"

namespace attention::train {
namespace {
constexpr double kPi = 3.14159265358979323846;
}

Status ValidateAdamWConfig(const AdamWConfig& c) {
  TrainerConfig config;
  config.optimizer = c;
  return ValidateFields(config, FieldSection::kOptimizer);  // trainer_fields.cpp's rows
}

double LearningRateAt(const AdamWConfig& c, int step) {
  if (step < c.warmup_steps) return c.learning_rate * (step + 1) / c.warmup_steps;
  if (c.total_steps <= c.warmup_steps) return c.learning_rate;
  const double progress =
      std::min(1.0, static_cast<double>(step - c.warmup_steps) / (c.total_steps - c.warmup_steps));
  const double cosine = 0.5 * (1.0 + std::cos(kPi * progress));
  return c.min_learning_rate + (c.learning_rate - c.min_learning_rate) * cosine;
}

template <typename T>
AdamW<T>::AdamW(const AdamWConfig& config, const std::vector<TensorInfo>& layout)
    : config_(config), layout_(layout) {
  m_.assign(ParameterCount(layout_), T(0));
  v_.assign(m_.size(), T(0));
}

template <typename T>
StepReport AdamW<T>::Step(T* params, const T* grads) {
  StepReport report;
  report.learning_rate = LearningRateAt(config_, steps_);
  // Pass 1: the global gradient norm (in double: 10⁵ squares), and the clipping factor.
  double sum = 0.0;
  for (size_t i = 0; i < m_.size(); ++i) sum += static_cast<double>(grads[i]) * grads[i];
  report.gradient_norm = std::sqrt(sum);
  double clip = 1.0;
  if (config_.clip_norm > 0.0 && report.gradient_norm > config_.clip_norm) {
    clip = config_.clip_norm / (report.gradient_norm + 1e-6);
    report.clipped = true;
  }
  // Pass 2: the update, tensor by tensor (weight decay on some).
  ++steps_;
  const T b1 = static_cast<T>(config_.beta1);
  const T b2 = static_cast<T>(config_.beta2);
  const T correction1 = static_cast<T>(1.0 - std::pow(config_.beta1, steps_));
  const T correction2 = static_cast<T>(1.0 - std::pow(config_.beta2, steps_));
  const T lr = static_cast<T>(report.learning_rate);
  const T eps = static_cast<T>(config_.epsilon);
  const T scale = static_cast<T>(clip);
  for (const TensorInfo& info : layout_) {
    const T decay = info.decay ? static_cast<T>(config_.weight_decay) : T(0);
    const size_t end = info.offset + info.size();
    for (size_t i = info.offset; i < end; ++i) {
      const T g = grads[i] * scale;
      m_[i] = b1 * m_[i] + (T(1) - b1) * g;
      v_[i] = b2 * v_[i] + (T(1) - b2) * g * g;
      const T m_hat = m_[i] / correction1;
      const T v_hat = v_[i] / correction2;
      params[i] -= lr * (m_hat / (std::sqrt(v_hat) + eps) + decay * params[i]);
    }
  }
  return report;
}

template <typename T>
void AdamW<T>::Restore(std::vector<T> first_moment, std::vector<T> second_moment, int steps) {
  m_ = std::move(first_moment);
  v_ = std::move(second_moment);
  steps_ = steps;
}

template class AdamW<float>;
template class AdamW<double>;

}  // namespace attention::train
