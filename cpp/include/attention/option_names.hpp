// A JS option that names one of an enum's values ("causal", "linear", "scaled", …): one table of
// { value, name } rows per enum (config.hpp), read by the request reader, the error messages and
// the catalog the JS reads (engine MASK_TYPES, …), so a name is written once.
#pragma once

#include <cstddef>
#include <string>

namespace attention {

template <typename E>
struct OptionName {
  E value;
  const char* name;
};

// The name of `value` in `table` (every value has one row).
template <typename E, std::size_t N>
const char* NameOf(const OptionName<E> (&table)[N], E value) {
  for (const OptionName<E>& row : table) {
    if (row.value == value) return row.name;
  }
  return table[0].name;
}

// The value named `name` into `out`; false if no row has that name.
template <typename E, std::size_t N>
bool ValueOf(const OptionName<E> (&table)[N], const std::string& name, E* out) {
  for (const OptionName<E>& row : table) {
    if (name == row.name) {
      *out = row.value;
      return true;
    }
  }
  return false;
}

// "none, causal, window, …": every name in the table's order, for error messages.
template <typename E, std::size_t N>
std::string NameList(const OptionName<E> (&table)[N]) {
  std::string out;
  for (const OptionName<E>& row : table) {
    if (!out.empty()) out += ", ";
    out += row.name;
  }
  return out;
}

}  // namespace attention
