#include "attention/random.hpp"

#include <algorithm>
#include <cmath>

namespace attention {
namespace {
constexpr int kN = 624;
constexpr int kM = 397;
constexpr uint32_t kMatrixA = 0x9908b0dfu;
constexpr uint32_t kUpperMask = 0x80000000u;
constexpr uint32_t kLowerMask = 0x7fffffffu;
}  // namespace

RandomState::RandomState(uint32_t seed) { InitGenrand(seed); }

RandomState::RandomState(const std::vector<uint32_t>& key) {
  // Reference MT19937 init_by_array, as NumPy's mt19937_init_by_array.
  InitGenrand(19650218u);
  const int key_length = static_cast<int>(key.size());
  int i = 1;
  int j = 0;
  for (int k = std::max(kN, key_length); k > 0; --k) {
    state_[i] = (state_[i] ^ ((state_[i - 1] ^ (state_[i - 1] >> 30)) * 1664525u)) + key[j] +
                static_cast<uint32_t>(j);
    ++i;
    ++j;
    if (i >= kN) {
      state_[0] = state_[kN - 1];
      i = 1;
    }
    if (j >= key_length) j = 0;
  }
  for (int k = kN - 1; k > 0; --k) {
    state_[i] = (state_[i] ^ ((state_[i - 1] ^ (state_[i - 1] >> 30)) * 1566083941u)) -
                static_cast<uint32_t>(i);
    ++i;
    if (i >= kN) {
      state_[0] = state_[kN - 1];
      i = 1;
    }
  }
  state_[0] = 0x80000000u;  // guarantees a non-zero initial state
  index_ = kN;
}

void RandomState::InitGenrand(uint32_t seed) {
  state_[0] = seed;
  for (int i = 1; i < kN; ++i) {
    state_[i] = 1812433253u * (state_[i - 1] ^ (state_[i - 1] >> 30)) + static_cast<uint32_t>(i);
  }
  index_ = kN;
}

void RandomState::Twist() {
  for (int i = 0; i < kN; ++i) {
    const uint32_t y = (state_[i] & kUpperMask) | (state_[(i + 1) % kN] & kLowerMask);
    state_[i] = state_[(i + kM) % kN] ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
  }
  index_ = 0;
}

uint32_t RandomState::NextUint32() {
  if (index_ >= kN) Twist();
  uint32_t y = state_[index_++];
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= (y >> 18);
  return y;
}

double RandomState::NextDouble() {
  const uint32_t a = NextUint32() >> 5;
  const uint32_t b = NextUint32() >> 6;
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

double RandomState::Randn() {
  if (has_gauss_) {
    has_gauss_ = false;
    return gauss_;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * NextDouble() - 1.0;
    x2 = 2.0 * NextDouble() - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  const double f = std::sqrt(-2.0 * std::log(r2) / r2);
  gauss_ = f * x1;
  has_gauss_ = true;
  return f * x2;
}

Matrix RandomState::RandnMatrix(int rows, int cols) {
  Matrix m(rows, cols);
  float* data = m.data();
  for (Eigen::Index i = 0; i < m.size(); ++i) data[i] = static_cast<float>(Randn());
  return m;
}

uint64_t Fnv1a64(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char byte : text) {
    hash ^= byte;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

}  // namespace attention
