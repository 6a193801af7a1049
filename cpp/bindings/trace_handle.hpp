// The object JS holds while it reads a trace. Errors are recorded, never thrown: JS reads
// errorCode/errorField/errorMessage after a false or null result and throws its own Error.
#pragma once

#include <emscripten/val.h>

#include <string>

#include "attention/status.hpp"
#include "attention/trace.hpp"

namespace attention::bindings {

class TraceHandle {
 public:
  // Validates and runs `request` (see request.hpp), with generated weights from `weights`:
  // the cache the JS Engine keeps beside its instance. False on error.
  bool run(const emscripten::val& request, WeightCache& weights);

  // { nQuery, nKey, dModel, heads, dK, projectionWidth, parameterCount, flops: {...},
  //   tokens, kvTokens, cross, steps: [{ name, perHead, rows, cols, rowsAxis, colsAxis }] }
  emscripten::val summary() const;

  // { rows, cols, data } where data is a Float32Array VIEW into WASM memory: valid only until
  // the next call into the module, so the JS layer copies it at once. null on error.
  emscripten::val step(const std::string& name, int head);

  std::string errorCode() const { return ErrorCodeName(status_.code()); }
  std::string errorField() const { return status_.field(); }
  std::string errorMessage() const { return status_.message(); }

 private:
  Trace trace_;
  bool has_trace_ = false;
  Status status_;
};

// { ok: true, tokens: string[] } or { ok: false, code, field, message }.
emscripten::val Tokenize(const std::string& text);

// Attend (attend.hpp): { ok: true, rows, cols, data: Float32Array (a copy), computedScores,
// scoreBytes } or { ok: false, code, field, message }. Generated weights from `weights`.
emscripten::val AttendOutput(const emscripten::val& request, WeightCache& weights);

// The engine's documented limits, so the JS layer never repeats them.
emscripten::val GetLimits();

// The names of the given matrices (kGivenSlots), so the JS layer never repeats them.
emscripten::val GivenNames();

// Bytes currently allocated by malloc in WASM memory (dlmalloc's mallinfo): what a leak test
// watches, since WebAssembly memory itself never shrinks.
double HeapBytesInUse();

}  // namespace attention::bindings
