// The matrices a caller may supply (x … bO), one row each: the one table that validation
// (config.cpp), weight making (weights.cpp), Trace::Run, the request reader
// (bindings/request.cpp) and the test fixtures iterate, as llm.c keeps one table of its
// parameters. Adding a given matrix is adding a member to GivenMatrices and a row here.
#pragma once

#include <iterator>
#include <optional>
#include <string_view>

#include "attention/config.hpp"
#include "attention/matrix.hpp"
#include "attention/weights.hpp"

namespace attention {

struct GivenSlot {
  // "wQ": the option given.wQ of the JS API, the error field "given.wQ", the fixture key, and
  // the trace step that shows the matrix in use.
  const char* name;
  std::optional<Matrix> GivenMatrices::*given;  // where the caller's matrix is kept
  Matrix Weights::*weight;                      // the weight it replaces; nullptr for x, xKv
  Axis rows, cols;                              // its shape, e.g. dModel × heads·dK
  // init "scaled" divides a drawn weight by sqrt(length of this axis): the fan-in of the layer
  // it feeds (a bias shares its weight's). Unused for x, xKv.
  Axis fan_in;
};

// In GivenMatrices order, which is also the order the weights are drawn from the stream (a
// reordering would change every generated layer) and the order validation reports the first
// wrong matrix in.
inline constexpr GivenSlot kGivenSlots[] = {
    {"x", &GivenMatrices::x, nullptr, Axis::kQuery, Axis::kModel, Axis::kOne},
    {"xKv", &GivenMatrices::x_kv, nullptr, Axis::kKey, Axis::kModel, Axis::kOne},
    {"wQ", &GivenMatrices::w_q, &Weights::w_q, Axis::kModel, Axis::kProjection, Axis::kModel},
    {"wK", &GivenMatrices::w_k, &Weights::w_k, Axis::kModel, Axis::kProjection, Axis::kModel},
    {"wV", &GivenMatrices::w_v, &Weights::w_v, Axis::kModel, Axis::kProjection, Axis::kModel},
    {"wO", &GivenMatrices::w_o, &Weights::w_o, Axis::kProjection, Axis::kModel, Axis::kProjection},
    {"bQ", &GivenMatrices::b_q, &Weights::b_q, Axis::kOne, Axis::kProjection, Axis::kModel},
    {"bK", &GivenMatrices::b_k, &Weights::b_k, Axis::kOne, Axis::kProjection, Axis::kModel},
    {"bV", &GivenMatrices::b_v, &Weights::b_v, Axis::kOne, Axis::kProjection, Axis::kModel},
    {"bO", &GivenMatrices::b_o, &Weights::b_o, Axis::kOne, Axis::kModel, Axis::kProjection},
};

// A member of GivenMatrices or Weights without a row here fails to compile.
constexpr int CountWeightSlots() {
  int count = 0;
  for (const GivenSlot& slot : kGivenSlots) count += slot.weight != nullptr ? 1 : 0;
  return count;
}
static_assert(sizeof(GivenMatrices) == std::size(kGivenSlots) * sizeof(std::optional<Matrix>),
              "every member of GivenMatrices needs a row in kGivenSlots");
static_assert(sizeof(Weights) == CountWeightSlots() * sizeof(Matrix),
              "every member of Weights needs a row in kGivenSlots");

// nullptr when no given matrix has that name.
inline const GivenSlot* FindGivenSlot(std::string_view name) {
  for (const GivenSlot& slot : kGivenSlots) {
    if (name == slot.name) return &slot;
  }
  return nullptr;
}

// True when the caller supplied any weight or bias (not counting x, xKv).
inline bool AnyWeightGiven(const GivenMatrices& given) {
  for (const GivenSlot& slot : kGivenSlots) {
    if (slot.weight != nullptr && (given.*slot.given).has_value()) return true;
  }
  return false;
}

}  // namespace attention
