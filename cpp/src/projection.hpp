// Steps 1–2 of a layer, shared by Trace::Run (which keeps everything) and Attend (which keeps
// only Q, K, V and the weights): the embeddings, the positional encoding, the weights and the
// projections Q, K, V.
#pragma once

#include "attention/config.hpp"
#include "attention/matrix.hpp"
#include "attention/status.hpp"
#include "attention/weights.hpp"

namespace attention {

class ThreadPool;

struct Projected {
  Matrix x, pe, x_pe;           // [n × dModel]
  Matrix x_kv, pe_kv, x_pe_kv;  // [m × dModel], cross-attention only
  Weights weights;
  Matrix q, k, v;  // [n × P], [m × P], [m × P]
};

// `config` and `input` already validated. Generated weights come from `cache` when there is one;
// with a `pool` the three projections run at once (Trace::SpreadsProjections), bit for bit the
// same. Returns kNonFinite (step "q", "k" or "v") when a projection overflows float32.
Status EmbedAndProject(const Config& config, const Input& input, WeightCache* cache,
                       ThreadPool* pool, Projected* out);

// The softmax's scale α = (1/√dK if scaling) / temperature.
float ScoreScale(const Config& config);

// Adds the [1 × width] bias to every row of `m` when `enabled`.
inline void AddBias(bool enabled, const Matrix& bias, Matrix* m) {
  if (enabled) m->rowwise() += bias.row(0);
}

// The error of a step that overflowed float32 (head −1: a step of the whole layer).
Status Overflow(const char* step, int head);

}  // namespace attention
