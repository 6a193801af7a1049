// The raw Embind surface. The public API is engine.js, which validates, copies results out
// of WASM memory and frees every handle; nothing else should call these names directly.
#include <emscripten/bind.h>

#include "gemm_probe.hpp"
#include "trace_handle.hpp"

EMSCRIPTEN_BINDINGS(attention_engine) {
  using attention::bindings::TraceHandle;
  // The generated layer remembered between runs, one per instance: engine.js makes it beside
  // the instance and hands it to every run.
  emscripten::class_<attention::WeightCache>("WeightCache").constructor<>();
  emscripten::class_<TraceHandle>("TraceHandle")
      .constructor<>()
      .function("run", &TraceHandle::run)
      .function("summary", &TraceHandle::summary)
      .function("step", &TraceHandle::step)
      .function("errorCode", &TraceHandle::errorCode)
      .function("errorField", &TraceHandle::errorField)
      .function("errorMessage", &TraceHandle::errorMessage);
  emscripten::function("tokenize", &attention::bindings::Tokenize);
  emscripten::function("limits", &attention::bindings::GetLimits);
  emscripten::function("attend", &attention::bindings::AttendOutput);
  emscripten::function("givenNames", &attention::bindings::GivenNames);
  emscripten::function("heapBytesInUse", &attention::bindings::HeapBytesInUse);
  // For tests/node/gemm.test.mjs only.
  emscripten::function("gemmProbe", &attention::bindings::GemmProbe);
}
