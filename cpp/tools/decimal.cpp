#include "decimal.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace attention::train {

bool ReadDecimal(const std::string& text, double* value) {
  // The grammar first: strtod alone would take " 0.5", "0x1p-1", "inf" and "nan".
  size_t i = 0;
  const auto digits = [&] {
    const size_t from = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - from;
  };
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  size_t mantissa = digits();
  if (i < text.size() && text[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  if (i != text.size()) return false;
  errno = 0;
  const double number = std::strtod(text.c_str(), nullptr);
  // ERANGE: past ±DBL_MAX, or below the normal range (1e-320 is subnormal, 1e-400 rounds to 0).
  if (errno == ERANGE || !std::isfinite(number) ||
      (number != 0 && std::fabs(number) < std::numeric_limits<double>::min())) {
    return false;
  }
  *value = number;
  return true;
}

}  // namespace attention::train
