// A finiteness test the compiler vectorizes (Eigen's allFinite() is about 10 times slower in
// WebAssembly): a float is ±∞ or NaN exactly when its exponent bits are all ones.
#pragma once

#include <cstdint>
#include <cstring>

#include "attention/matrix.hpp"

namespace attention {

inline bool AllFinite(const float* data, Eigen::Index size) {
  uint32_t worst = 0;
  for (Eigen::Index i = 0; i < size; ++i) {
    uint32_t bits;
    std::memcpy(&bits, data + i, sizeof bits);
    const uint32_t exponent = bits & 0x7f800000u;
    worst = exponent > worst ? exponent : worst;
  }
  return worst != 0x7f800000u;
}

inline bool AllFinite(const Matrix& m) { return AllFinite(m.data(), m.size()); }

}  // namespace attention
