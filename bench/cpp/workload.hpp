// The benchmark's unit of work, shared by the WebAssembly module (wasm_bench.cpp) and the
// native program (native_bench.cpp), so both time exactly the same engine call.
#pragma once

#include <string>

#include "attention/matrix.hpp"
#include "attention/status.hpp"
#include "attention/trace.hpp"

namespace attention::bench {

// One self-attention layer with given matrices, as every peer computes it: X [n × d] → Q, K, V
// [n × d] (no bias, no positional encoding) → heads → QKᵀ/√dK → softmax → A·V → concat → W_O.
class Forward {
 public:
  Forward(int n, int d_model, int heads);

  // name: "x" [n × d], "wQ", "wK", "wV", "wO" [d × d]; `data` holds rows × cols floats.
  bool SetMatrix(const std::string& name, const float* data);

  // Trace::Run: the whole forward pass with the complete trace (see trace.hpp).
  Status Run();
  const Trace& trace() const { return trace_; }

 private:
  int n_, d_;
  Config config_;
  Input input_;
  Trace trace_;
};

// c = a · b through the engine's Gemm, a [m × k], b [k × n]: the GEMM of the benchmark.
class GemmCase {
 public:
  GemmCase(int m, int k, int n);
  float* a() { return a_.data(); }
  float* b() { return b_.data(); }
  const Matrix& c() const { return c_; }
  void Run();

 private:
  Matrix a_, b_, c_;
};

}  // namespace attention::bench
