// Small conversions to JS values shared by the handles.
#pragma once

#include <emscripten/val.h>

#include <string>
#include <vector>

namespace attention::bindings {

inline emscripten::val StringArray(const std::vector<std::string>& strings) {
  emscripten::val out = emscripten::val::array();
  for (size_t i = 0; i < strings.size(); ++i) out.set(i, strings[i]);
  return out;
}

}  // namespace attention::bindings
