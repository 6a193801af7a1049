// The training ops' numerics beyond the gradient checks (train_gradient_test.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "train/ops.hpp"

namespace attention::train {
namespace {

// The softmax denominator summed in float left rows of a 5,000-way output summing
// to 1 + up to 5.1e-5; docs/model-format.md promises rows that sum to 1.
TEST(TrainOps, CrossEntropyProbabilityRowsSumToOneOverLargeVocabularies) {
  for (int v : {5000, 65536}) {
    std::mt19937 random(7);
    std::normal_distribution<float> normal(0.0f, 3.0f);
    const int rows = 8;
    std::vector<float> logits(static_cast<size_t>(rows) * v), probs(logits.size());
    for (float& z : logits) z = normal(random);
    CrossEntropyForward<float>(probs.data(), logits.data(), nullptr, nullptr, rows, v);
    double worst = 0.0;
    for (int r = 0; r < rows; ++r) {
      double sum = 0.0;
      for (int j = 0; j < v; ++j) sum += probs[static_cast<size_t>(r) * v + j];
      worst = std::max(worst, std::fabs(sum - 1.0));
    }
    std::printf("V = %d: largest |row sum − 1| = %.3g\n", v, worst);
    EXPECT_LT(worst, 1e-6) << "V = " << v;
  }
}

}  // namespace
}  // namespace attention::train
