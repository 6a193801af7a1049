// Small conversions to JS values shared by the handles.
#pragma once

#include <emscripten/val.h>

#include <string>
#include <vector>

#include "attention/trace.hpp"

namespace attention::bindings {

// The JS spelling of a trace axis (the rowsAxis/colsAxis of a step's metadata).
inline const char* AxisName(Axis axis) {
  switch (axis) {
    case Axis::kQuery:
      return "query";
    case Axis::kKey:
      return "key";
    case Axis::kModel:
      return "model";
    case Axis::kProjection:
      return "projection";
    case Axis::kHeadDim:
      return "headDim";
    case Axis::kOne:
      return "one";
  }
  return "";
}

inline emscripten::val StringArray(const std::vector<std::string>& strings) {
  emscripten::val out = emscripten::val::array();
  for (size_t i = 0; i < strings.size(); ++i) out.set(i, strings[i]);
  return out;
}

}  // namespace attention::bindings
