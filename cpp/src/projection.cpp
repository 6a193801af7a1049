#include "projection.hpp"

#include <cmath>
#include <string>

#include "attention/embedding.hpp"
#include "attention/given.hpp"
#include "attention/parallel.hpp"
#include "attention/random.hpp"
#include "attention/trace.hpp"
#include "finite.hpp"
#include "format.hpp"
#include "gemm.hpp"

namespace attention {
Status Overflow(const char* step, int head) {
  std::string where = head >= 0 ? Format("%s (head %d)", step, head) : std::string(step);
  return Status(ErrorCode::kNonFinite, step,
                "the computation overflowed float32 at step " + where +
                    ": the inputs or weights are too large in magnitude; scale them down");
}

float ScoreScale(const Config& config) {
  const double scale =
      config.scale ? 1.0 / std::sqrt(static_cast<double>(config.ResolvedDK())) : 1.0;
  return static_cast<float>(scale / config.temperature);
}

Status EmbedAndProject(const Config& config, const Input& input, WeightCache* cache,
                       ThreadPool* pool, Projected* out) {
  Projected& t = *out;
  const bool cross = input.cross;
  const int n = static_cast<int>(input.tokens.size());
  const int m = cross ? static_cast<int>(input.kv_tokens.size()) : n;
  const int d = config.d_model;

  // Step 1: embeddings. In "stream" mode X comes first from the same stream as the weights,
  // exactly as np.random.seed(s); X = randn(n, d); W_q = randn(...) in the tutorials.
  RandomState stream(config.seed);
  switch (config.embedding) {
    case EmbeddingSource::kHash:
      t.x = HashEmbeddings(input.tokens, d, config.seed);
      if (cross) t.x_kv = HashEmbeddings(input.kv_tokens, d, config.seed);
      break;
    case EmbeddingSource::kStream:
      t.x = stream.RandnMatrix(n, d);
      if (cross) t.x_kv = stream.RandnMatrix(m, d);
      break;
    case EmbeddingSource::kGiven:
      t.x = *input.given.x;
      if (cross) t.x_kv = *input.given.x_kv;
      break;
  }
  t.pe = config.positional_encoding ? PositionalEncoding(n, d) : Matrix::Zero(n, d);
  t.x_pe = t.x + t.pe;
  if (cross) {
    t.pe_kv = config.positional_encoding ? PositionalEncoding(m, d) : Matrix::Zero(m, d);
    t.x_pe_kv = t.x_kv + t.pe_kv;
  }
  if (cache == nullptr || AnyWeightGiven(input.given)) {
    t.weights = MakeWeights(config, input.given, &stream);
  } else {
    const bool stream_x = config.embedding == EmbeddingSource::kStream;
    const int64_t prior_draws = stream_x ? static_cast<int64_t>(n + (cross ? m : 0)) * d : 0;
    t.weights = cache->Generated(config, prior_draws, &stream);
  }

  // Step 2: projections. Keys and values read the other sentence in cross-attention. Each of
  // the three is one whole product, so running them at once on `pool` changes no bit.
  const Matrix& kv_input = cross ? t.x_pe_kv : t.x_pe;
  const Weights& w = t.weights;
  const int width = config.ProjectionWidth();
  const auto project = [&](int i) {
    const Matrix& in = i == 0 ? t.x_pe : kv_input;
    const Matrix& weight = i == 0 ? w.w_q : i == 1 ? w.w_k : w.w_v;
    const Matrix& bias = i == 0 ? w.b_q : i == 1 ? w.b_k : w.b_v;
    Matrix& product = i == 0 ? t.q : i == 1 ? t.k : t.v;
    product.resize(in.rows(), width);
    Gemm(in, weight, TransposeB::kNo, product);
    AddBias(config.bias, bias, &product);
  };
  if (pool != nullptr && Trace::SpreadsProjections(n, m, d, width)) {
    pool->Run(3, project);
  } else {
    for (int i = 0; i < 3; ++i) project(i);
  }
  if (!AllFinite(t.q)) return Overflow("q", -1);
  if (!AllFinite(t.k)) return Overflow("k", -1);
  if (!AllFinite(t.v)) return Overflow("v", -1);
  return Status::Ok();
}

}  // namespace attention
