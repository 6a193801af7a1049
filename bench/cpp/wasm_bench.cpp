// The benchmark's WebAssembly module (bench only, never shipped): the same engine library as
// dist/engine, with an entry point that keeps the given matrices in WASM memory between runs,
// as a peer runtime keeps its model's weights.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <string>
#include <vector>

#include "workload.hpp"

namespace attention::bench {
namespace {

using emscripten::val;

val Copy(const Matrix& m) {
  return val(emscripten::typed_memory_view(static_cast<size_t>(m.size()), m.data()))
      .call<val>("slice");
}

void Fill(float* target, size_t size, const val& source) {
  val(emscripten::typed_memory_view(size, target)).call<void>("set", source);
}

class ForwardHandle {
 public:
  ForwardHandle(int n, int d_model, int heads) : forward_(n, d_model, heads) {}
  bool setMatrix(const std::string& name, const val& data) {
    std::vector<float> copy(data["length"].as<size_t>());
    Fill(copy.data(), copy.size(), data);
    return forward_.SetMatrix(name, copy.data());
  }
  // Runs the forward pass and returns the output [n × d] as a Float32Array copy (null on error).
  val run() {
    const Status status = forward_.Run();
    if (!status.ok()) return val(status.message());
    const Matrix* output = nullptr;
    forward_.trace().View("output", 0, &output);
    return Copy(*output);
  }
  val step(const std::string& name, int head) {
    const Matrix* view = nullptr;
    if (!forward_.trace().View(name, head, &view).ok()) return val::null();
    return Copy(*view);
  }

 private:
  Forward forward_;
};

class GemmHandle {
 public:
  GemmHandle(int m, int k, int n) : gemm_(m, k, n), m_(m), k_(k), n_(n) {}
  void setA(const val& data) { Fill(gemm_.a(), static_cast<size_t>(m_) * k_, data); }
  void setB(const val& data) { Fill(gemm_.b(), static_cast<size_t>(k_) * n_, data); }
  void run(int times) {
    for (int i = 0; i < times; ++i) gemm_.Run();
  }
  val result() const { return Copy(gemm_.c()); }

 private:
  GemmCase gemm_;
  int m_, k_, n_;
};

// The high-water mark of malloc'ed WASM memory since the module started (dlmalloc's
// max_footprint): instantiate a fresh module per size to read one run's peak.
double HeapPeakBytes() { return static_cast<double>(mallinfo().usmblks); }
double HeapInUseBytes() { return static_cast<double>(mallinfo().uordblks); }

bool SimdBuild() {
#ifdef __wasm_simd128__
  return true;
#else
  return false;
#endif
}

}  // namespace
}  // namespace attention::bench

EMSCRIPTEN_BINDINGS(attention_bench) {
  using namespace attention::bench;
  emscripten::class_<ForwardHandle>("Forward")
      .constructor<int, int, int>()
      .function("setMatrix", &ForwardHandle::setMatrix)
      .function("run", &ForwardHandle::run)
      .function("step", &ForwardHandle::step);
  emscripten::class_<GemmHandle>("Gemm")
      .constructor<int, int, int>()
      .function("setA", &GemmHandle::setA)
      .function("setB", &GemmHandle::setB)
      .function("run", &GemmHandle::run)
      .function("result", &GemmHandle::result);
  emscripten::function("heapPeakBytes", &HeapPeakBytes);
  emscripten::function("heapInUseBytes", &HeapInUseBytes);
  emscripten::function("simd", &SimdBuild);
}
