// A test-only door to the engine's matrix product (see gemm_probe.cpp).
#pragma once

#include <emscripten/val.h>

namespace attention::bindings {

emscripten::val GemmProbe(emscripten::val a, emscripten::val b, emscripten::val c, int m, int k,
                          int n, bool transpose_a, bool transpose_b, bool accumulate);

}  // namespace attention::bindings
