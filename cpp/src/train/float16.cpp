// IEEE 754 binary16 conversions for float16 tensors of the model file (model_file.hpp).
#include <cmath>
#include <cstdint>

#include "attention/train/model_file.hpp"
#include "float_bits.hpp"

namespace attention::train {
uint16_t FloatToHalf(float value) {
  const uint32_t bits = FloatBits(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const int exponent = static_cast<int>((bits >> 23) & 0xffu);
  const uint32_t mantissa = bits & 0x7fffffu;
  if (exponent == 0xff) {  // ±∞ stays ±∞; NaN keeps its top payload bits and stays quiet
    return sign | 0x7c00u | (mantissa ? 0x200u | (mantissa >> 13) : 0u);
  }
  const int e = exponent - 127 + 15;  // the float16 exponent field
  if (e >= 31) return sign | 0x7c00u;
  // Keep the top bits of the 24-bit significand, rounding the `shift` dropped bits to nearest
  // even; a carry out of the mantissa correctly bumps the exponent (up to ∞).
  uint32_t significand;
  int shift;
  uint32_t half;
  if (e >= 1) {
    significand = mantissa;
    shift = 13;
    half = static_cast<uint32_t>(e) << 10;
  } else {
    if (e < -10) return sign;  // below half the smallest subnormal: ±0
    significand = mantissa | 0x800000u;
    shift = 14 - e;
    half = 0;
  }
  half += significand >> shift;
  const uint32_t rest = significand & ((1u << shift) - 1);
  const uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (half & 1u))) ++half;
  return static_cast<uint16_t>(sign | half);
}

float HalfToFloat(uint16_t half) {
  const uint32_t sign = uint32_t{half & 0x8000u} << 16;
  const uint32_t exponent = (half >> 10) & 0x1fu;
  const uint32_t mantissa = half & 0x3ffu;
  if (exponent == 0) {  // zero or subnormal: mantissa · 2⁻²⁴, exact in float
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) return BitsFloat(sign | 0x7f800000u | (mantissa << 13));
  return BitsFloat(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
}

}  // namespace attention::train
