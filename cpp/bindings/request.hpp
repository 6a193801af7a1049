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
//   mask: { type, width, causal, positions: Int32Array, matrix: Uint8Array, rows, cols,
//           global: Int32Array, dilation, block, random, seed },
//   given: { x?: { data: Float32Array, rows, cols }, xKv?, wQ?, wK?, wV?, wO?, bQ?, ... } }
Status ReadRequest(const emscripten::val& request, Config* config, Input* input);

// The opposite direction, for a Config with no seeded weights (embedding "given", mask none or
// causal): { tokens, dModel, heads, dK, scale, bias, outputProjection, positionalEncoding,
// embedding, mask: "none"|"causal", given: { name: { rows, cols, data } } }, every data a
// Float32Array VIEW into `input`, valid while it lives: JS copies them.
emscripten::val WriteRequest(const Config& config, const Input& input);

}  // namespace attention::bindings
