// The engine's matrix product on matrices from JS, for tests/node/gemm.test.mjs only (engine.js
// never calls it). Training's backward products use the SIMD128 kernel's transposed-A and
// accumulating paths, which only WebAssembly runs: the native gradient checks go through Eigen.
#include "gemm_probe.hpp"

#include <emscripten/val.h>

#include <vector>

#include "gemm.hpp"

namespace attention::bindings {

// c = op(a) · op(b) (+ c when accumulate); a, b, c row-major Float32Arrays; op(a) [m × k],
// op(b) [k × n]. Returns the new c [m × n] as a Float32Array (a copy).
emscripten::val GemmProbe(emscripten::val a_js, emscripten::val b_js, emscripten::val c_js, int m,
                          int k, int n, bool transpose_a, bool transpose_b, bool accumulate) {
  const std::vector<float> a_data = emscripten::convertJSArrayToNumberVector<float>(a_js);
  const std::vector<float> b_data = emscripten::convertJSArrayToNumberVector<float>(b_js);
  std::vector<float> c_data = emscripten::convertJSArrayToNumberVector<float>(c_js);
  const int a_rows = transpose_a ? k : m;
  const int a_cols = transpose_a ? m : k;
  const int b_rows = transpose_b ? n : k;
  const int b_cols = transpose_b ? k : n;
  if (a_data.size() != size_t(a_rows) * a_cols || b_data.size() != size_t(b_rows) * b_cols ||
      c_data.size() != size_t(m) * n) {
    return emscripten::val::null();
  }
  const Matrix a = Eigen::Map<const Matrix>(a_data.data(), a_rows, a_cols);
  const Matrix b = Eigen::Map<const Matrix>(b_data.data(), b_rows, b_cols);
  Matrix c = Eigen::Map<const Matrix>(c_data.data(), m, n);
  Gemm(a, transpose_a ? TransposeA::kYes : TransposeA::kNo, b,
       transpose_b ? TransposeB::kYes : TransposeB::kNo,
       accumulate ? GemmWrite::kAccumulate : GemmWrite::kAssign, c);
  return emscripten::val(emscripten::typed_memory_view(c.size(), c.data()))
      .call<emscripten::val>("slice");
}

}  // namespace attention::bindings
