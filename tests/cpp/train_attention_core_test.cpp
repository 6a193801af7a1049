// AttentionCore's two ways to the backward pass: from the weights Forward kept (what the model
// does for short sequences) and recomputed from q and k (long sequences) must give the same
// gradients, bit for bit: the kept weights are the ones the recomputation would produce.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "attention/train/model.hpp"
#include "fixtures.hpp"
#include "train/model_buffers.hpp"
#include "train/ops.hpp"

namespace attention::train {
namespace {

struct Gradients {
  std::vector<float> concat, dq, dk, dv;
  AttentionStats stats;
};

// B 3, T 7, 2 heads of dK 5 (P 10): q, k, v, dconcat drawn from a fixed seed.
Gradients RunCore(bool keep, bool causal) {
  const int batch = 3, length = 7, heads = 2, d_k = 5;
  const size_t np = static_cast<size_t>(batch) * length * heads * d_k;
  std::mt19937 rng(11);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  auto draw = [&] {
    std::vector<float> x(np);
    for (float& e : x) e = normal(rng);
    return x;
  };
  const std::vector<float> q = draw(), k = draw(), v = draw(), dconcat = draw();
  std::vector<float> kept(keep ? static_cast<size_t>(batch) * heads * length * length : 0);
  float* kept_data = keep ? kept.data() : nullptr;
  Gradients g;
  g.concat.resize(np);
  g.dq.resize(np);
  g.dk.resize(np);
  g.dv.resize(np);
  AttentionCore<float> core;
  const float alpha = 0.45f;
  core.Forward(g.concat.data(), kept_data, q.data(), k.data(), v.data(), batch, length, heads, d_k,
               causal, alpha, &g.stats);
  core.Backward(g.dq.data(), g.dk.data(), g.dv.data(), dconcat.data(), kept_data, q.data(),
                k.data(), v.data(), batch, length, heads, d_k, causal, alpha, &g.stats);
  return g;
}

TEST(TrainAttentionCore, KeptWeightsGiveTheRecomputedGradients) {
  for (const bool causal : {true, false}) {
    const Gradients kept = RunCore(true, causal), recomputed = RunCore(false, causal);
    EXPECT_EQ(kept.concat, recomputed.concat) << "causal " << causal;
    EXPECT_EQ(kept.dq, recomputed.dq) << "causal " << causal;
    EXPECT_EQ(kept.dk, recomputed.dk) << "causal " << causal;
    EXPECT_EQ(kept.dv, recomputed.dv) << "causal " << causal;
    EXPECT_EQ(kept.stats.dscores_sq_sum, recomputed.stats.dscores_sq_sum);
    EXPECT_EQ(kept.stats.rows, recomputed.stats.rows);  // the backward pass counts no rows
    EXPECT_GT(kept.stats.dscores_sq_sum, 0.0);
  }
}

TEST(TrainAttentionCore, ModelKeepsWeightsOnlyForShortSequences) {
  ModelConfig c = testing::SizedConfig(16, 2048, 64, 4, 2);
  // Reference batch: 2 layers · 32 · 4 heads · 32² = 262,144 scalars, kept.
  EXPECT_TRUE(KeepsAttentionWeights(c, 32, 32));
  // T 512: 2 · 32 · 4 · 512² = 67 M scalars, recomputed.
  EXPECT_FALSE(KeepsAttentionWeights(c, 32, 512));
  // The estimate counts the kept weights exactly: B · heads · T² per layer.
  const int64_t with = EstimateMemory(c, 32, 32, 4).activations;
  const int64_t half = EstimateMemory(c, 16, 32, 4).activations;
  EXPECT_EQ(with, 2 * half);
  const int64_t per_sequence_weights = int64_t{2} * 4 * 32 * 32 * 4;  // layers · heads · T² · bytes
  c.heads = 2;
  c.d_k = 32;  // same P, half the heads: half the kept weights, the rest unchanged
  EXPECT_EQ(EstimateMemory(c, 32, 32, 4).activations, with - 32 * per_sequence_weights / 2);
}

}  // namespace
}  // namespace attention::train
