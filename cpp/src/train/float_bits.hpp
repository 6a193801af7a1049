// The bits of a float32 and back (memcpy, the defined way), for the model file's encodings.
#pragma once

#include <cstdint>
#include <cstring>

namespace attention::train {

inline uint32_t FloatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

inline float BitsFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

}  // namespace attention::train
