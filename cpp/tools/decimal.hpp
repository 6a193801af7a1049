// The numbers the native tools read from their flags: decimal, as JSON and the JS command read
// them. strtod alone takes " 0.5", "0x1p-1", "inf", "nan" and subnormal numbers.
#pragma once

#include <string>

namespace attention::train {

// A decimal number in full, as JSON writes one: an optional sign, digits with an optional point,
// an optional exponent ("3e-3", "-0.5", ".5"); not "3e-3x", " 0.5", "0x1p-1", "inf", and not
// one outside the normal range of a double (1e-320 is subnormal, 1e-400 rounds to 0, 1e999 is
// infinite). False if not.
bool ReadDecimal(const std::string& text, double* value);

}  // namespace attention::train
