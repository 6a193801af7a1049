#include "attention/embedding.hpp"

#include <cmath>

#include "attention/random.hpp"

namespace attention {

Matrix HashEmbeddings(const std::vector<std::string>& tokens, int d_model, uint32_t seed) {
  Matrix x(static_cast<Eigen::Index>(tokens.size()), d_model);
  for (size_t i = 0; i < tokens.size(); ++i) {
    const uint64_t hash = Fnv1a64(tokens[i]);
    RandomState rng({static_cast<uint32_t>(hash), static_cast<uint32_t>(hash >> 32), seed});
    for (int c = 0; c < d_model; ++c) x(static_cast<Eigen::Index>(i), c) = rng.Randn();
  }
  return x;
}

Matrix PositionalEncoding(int n, int d_model) {
  Matrix pe(n, d_model);
  for (int c = 0; c < d_model; ++c) {
    // Columns 2i and 2i+1 share the frequency 1 / 10000^(2i / dModel); computed in double
    // so the float32 result is the correctly rounded one, as NumPy's.
    const double inverse_frequency = std::pow(10000.0, -static_cast<double>(c - c % 2) / d_model);
    for (int p = 0; p < n; ++p) {
      const double angle = p * inverse_frequency;
      pe(p, c) = static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  }
  return pe;
}

}  // namespace attention
