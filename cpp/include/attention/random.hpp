// A NumPy-compatible random generator, so that a teacher's notebook and the page show the
// same numbers: RandomState(s).randn(...) here equals np.random.seed(s); np.random.randn(...).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "attention/matrix.hpp"

namespace attention {

class RandomState {
 public:
  // np.random.seed(seed): MT19937 init_genrand.
  explicit RandomState(uint32_t seed);
  // np.random.RandomState([k0, k1, ...]): MT19937 init_by_array.
  explicit RandomState(const std::vector<uint32_t>& key);

  uint32_t NextUint32();
  // NumPy's legacy random_sample: a 53-bit double in [0, 1).
  double NextDouble();
  // NumPy's legacy gauss (Marsaglia polar method, caching the second value).
  double Randn();
  // randn(rows, cols), filled row by row and stored as float32.
  Matrix RandnMatrix(int rows, int cols);

 private:
  void InitGenrand(uint32_t seed);
  void Twist();

  uint32_t state_[624];
  int index_ = 624;
  bool has_gauss_ = false;
  double gauss_ = 0.0;
};

// 64-bit FNV-1a of the bytes of `text`: the stable hash behind token embeddings.
uint64_t Fnv1a64(std::string_view text);

}  // namespace attention
