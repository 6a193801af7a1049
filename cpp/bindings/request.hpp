// Reads the JS wrapper's normalized request object into the engine's Config and Input.
#pragma once

#include <emscripten/val.h>

#include "attention/config.hpp"
#include "attention/status.hpp"

namespace attention::bindings {

// `request` is what engine.js builds (types already checked there):
// { tokens: string[], cross: bool, kvTokens: string[], dModel, heads, dK, seed, scale,
//   temperature, bias, outputProjection, positionalEncoding, init: "randn"|"scaled",
//   embedding: "hash"|"stream"|"given",
//   mask: { type, width, causal, positions: Int32Array, matrix: Uint8Array, rows, cols },
//   given: { x?: { data: Float32Array, rows, cols }, xKv?, wQ?, wK?, wV?, wO?, bQ?, ... } }
Status ReadRequest(const emscripten::val& request, Config* config, Input* input);

}  // namespace attention::bindings
