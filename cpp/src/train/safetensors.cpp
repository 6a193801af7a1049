#include "attention/train/safetensors.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "float_bits.hpp"
#include "format.hpp"
#include "json_value.hpp"

namespace attention::train {
namespace {

// Every dtype of the format, with its element size: a file may hold tensors of any of them
// (a mask of booleans), and the layout checks need their sizes even when they are not read.
struct Dtype {
  const char* name;
  uint64_t bytes;
};
constexpr Dtype kDtypes[] = {
    {"F64", 8}, {"F32", 4}, {"F16", 2},  {"BF16", 2},    {"I64", 8},
    {"I32", 4}, {"I16", 2}, {"I8", 1},   {"U64", 8},     {"U32", 4},
    {"U16", 2}, {"U8", 1},  {"BOOL", 1}, {"F8_E4M3", 1}, {"F8_E5M2", 1},
};

const Dtype* FindDtype(const std::string& name) {
  for (const Dtype& d : kDtypes) {
    if (name == d.name) return &d;
  }
  return nullptr;
}

std::string AllDtypes() {
  std::string out;
  for (const Dtype& d : kDtypes) out += (out.empty() ? "" : ", ") + std::string(d.name);
  return out;
}

Status Invalid(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kInvalidArgument, field, message);
}

// A JSON number that is a whole number from 0 to 2⁵³ (exact in a double).
bool WholeNumber(const JsonValue& value, uint64_t* out) {
  if (value.kind != JsonValue::Kind::kNumber || !(value.number >= 0) ||
      value.number > 9007199254740992.0 || std::floor(value.number) != value.number) {
    return false;
  }
  *out = static_cast<uint64_t>(value.number);
  return true;
}

uint64_t ReadU64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// One header entry name → {dtype, shape, data_offsets}, checked on its own.
Status ReadEntry(const std::string& name, const JsonValue& value, SafetensorsEntry* entry) {
  const std::string field = "safetensors.tensors." + name;
  if (value.kind != JsonValue::Kind::kObject) {
    return Invalid(field, field + " must be an object {dtype, shape, data_offsets}; it is " +
                              value.KindName());
  }
  for (const auto& [key, _] : value.members) {
    if (key != "dtype" && key != "shape" && key != "data_offsets") {
      return Invalid(field + "." + key, field + " has an unknown key \"" + key +
                                            "\"; the keys are dtype, shape, data_offsets");
    }
  }
  entry->name = name;
  const JsonValue* dtype = value.Get("dtype");
  if (dtype == nullptr || dtype->kind != JsonValue::Kind::kString) {
    return Invalid(field + ".dtype", field + ".dtype must be a string");
  }
  const Dtype* known = FindDtype(dtype->text);
  if (known == nullptr) {
    return Invalid(field + ".dtype", field + ".dtype (\"" + dtype->text +
                                         "\") is not a safetensors dtype: " + AllDtypes());
  }
  entry->dtype = dtype->text;
  const JsonValue* shape = value.Get("shape");
  if (shape == nullptr || shape->kind != JsonValue::Kind::kArray ||
      shape->items.size() > SafetensorsLimits::kMaxRank) {
    return Invalid(field + ".shape", Format("%s.shape must be an array of at most %u dimensions",
                                            field.c_str(), SafetensorsLimits::kMaxRank));
  }
  entry->elements = 1;
  for (const JsonValue& item : shape->items) {
    uint64_t dim = 0;
    if (!WholeNumber(item, &dim)) {
      return Invalid(field + ".shape", field + ".shape must hold whole numbers ≥ 0");
    }
    // Checked at every step, so the product never overflows.
    if (dim > SafetensorsLimits::kMaxElements ||
        (dim > 0 && entry->elements > SafetensorsLimits::kMaxElements / dim)) {
      return Status(ErrorCode::kLimitExceeded, field + ".shape",
                    Format("%s.shape holds more than %llu elements", field.c_str(),
                           static_cast<unsigned long long>(SafetensorsLimits::kMaxElements)));
    }
    entry->elements *= dim;
    entry->shape.push_back(static_cast<int64_t>(dim));
  }
  const JsonValue* offsets = value.Get("data_offsets");
  if (offsets == nullptr || offsets->kind != JsonValue::Kind::kArray ||
      offsets->items.size() != 2 || !WholeNumber(offsets->items[0], &entry->begin) ||
      !WholeNumber(offsets->items[1], &entry->end) || entry->begin > entry->end) {
    return Invalid(field + ".data_offsets",
                   field + ".data_offsets must be [begin, end], whole numbers, begin ≤ end");
  }
  if (entry->begin % known->bytes != 0) {
    return Invalid(field + ".data_offsets",
                   Format("%s.data_offsets begins at byte %llu, not a multiple of the %llu "
                          "bytes of one %s element (misaligned)",
                          field.c_str(), static_cast<unsigned long long>(entry->begin),
                          static_cast<unsigned long long>(known->bytes), known->name));
  }
  if (entry->end - entry->begin != entry->elements * known->bytes) {
    return Status(ErrorCode::kShapeMismatch, field + ".data_offsets",
                  Format("%s spans %llu bytes; its shape and dtype (%llu × %s) need %llu",
                         field.c_str(), static_cast<unsigned long long>(entry->end - entry->begin),
                         static_cast<unsigned long long>(entry->elements), known->name,
                         static_cast<unsigned long long>(entry->elements * known->bytes)));
  }
  return Status::Ok();
}

}  // namespace

const char* SafetensorsReadableDtypes() { return "F32, F16, BF16"; }

Status SafetensorsFile::Open(const uint8_t* data, size_t size, SafetensorsFile* out) {
  return Open(size, data, nullptr, out);
}

Status SafetensorsFile::OpenStreamed(uint64_t size, ByteSource source, SafetensorsFile* out) {
  return Open(size, nullptr, std::move(source), out);
}

Status SafetensorsFile::Open(uint64_t size, const uint8_t* data, ByteSource source,
                             SafetensorsFile* out) {
  const std::string field = "safetensors.header";
  uint8_t length[8];
  if (size >= 8 && data == nullptr) source(0, 8, length);
  if (size < 8) {
    return Invalid(field, Format("%s: the file (%zu bytes) is shorter than the 8-byte length of "
                                 "its header",
                                 field.c_str(), size));
  }
  const uint64_t header_bytes = ReadU64(data != nullptr ? data : length);
  if (header_bytes > size - 8) {
    return Invalid(field, Format("%s: its length (%llu bytes) runs past the end of the file "
                                 "(%llu bytes follow the length)",
                                 field.c_str(), static_cast<unsigned long long>(header_bytes),
                                 static_cast<unsigned long long>(size - 8)));
  }
  if (header_bytes > SafetensorsLimits::kMaxHeaderBytes) {
    return Status(ErrorCode::kLimitExceeded, field,
                  Format("%s: its length (%llu bytes) must be at most %llu", field.c_str(),
                         static_cast<unsigned long long>(header_bytes),
                         static_cast<unsigned long long>(SafetensorsLimits::kMaxHeaderBytes)));
  }
  // Streamed: only the header's bytes are fetched now (at most kMaxHeaderBytes).
  std::vector<uint8_t> fetched;
  if (data == nullptr) {
    fetched.resize(header_bytes);
    if (header_bytes > 0) source(8, header_bytes, fetched.data());
  }
  const char* text = data != nullptr ? reinterpret_cast<const char*>(data) + 8
                                     : reinterpret_cast<const char*>(fetched.data());
  JsonValue header;
  Status status = ParseJson(std::string_view(text, header_bytes), field, &header);
  if (!status.ok()) return status;
  if (header.kind != JsonValue::Kind::kObject) {
    return Invalid(field, field + " must be a JSON object; it is " + header.KindName());
  }
  SafetensorsFile file;
  file.bytes_ = data != nullptr ? data + 8 + header_bytes : nullptr;
  file.data_offset_ = 8 + header_bytes;
  file.source_ = std::move(source);
  file.bytes_size_ = size - 8 - header_bytes;
  for (const auto& [name, value] : header.members) {
    if (name == "__metadata__") {
      if (value.kind != JsonValue::Kind::kObject) {
        return Invalid("safetensors.__metadata__",
                       "safetensors.__metadata__ must be an object of strings");
      }
      for (const auto& [key, text] : value.members) {
        if (text.kind != JsonValue::Kind::kString) {
          return Invalid(
              "safetensors.__metadata__." + key,
              "safetensors.__metadata__." + key + " must be a string; it is " + text.KindName());
        }
        file.metadata_[key] = text.text;
      }
      continue;
    }
    if (name.empty()) return Invalid(field, field + ": a tensor has an empty name");
    // (ParseJson already refuses a name that appears twice, naming it.)
    if (file.tensors_.size() == SafetensorsLimits::kMaxTensors) {
      return Status(
          ErrorCode::kLimitExceeded, field,
          Format("%s holds more than %u tensors", field.c_str(), SafetensorsLimits::kMaxTensors));
    }
    SafetensorsEntry entry;
    if (!(status = ReadEntry(name, value, &entry)).ok()) return status;
    if (entry.end > file.bytes_size_) {
      return Invalid("safetensors.tensors." + name + ".data_offsets",
                     Format("safetensors.tensors.%s.data_offsets [%llu, %llu] run past the %llu "
                            "bytes of data after the header",
                            name.c_str(), static_cast<unsigned long long>(entry.begin),
                            static_cast<unsigned long long>(entry.end),
                            static_cast<unsigned long long>(file.bytes_size_)));
    }
    file.tensors_.push_back(std::move(entry));
  }
  // The tensors must tile the data part: in offset order, each begins where the last ended
  // (the format's own writer leaves no gap), and the last ends at the end of the file.
  std::vector<const SafetensorsEntry*> order;
  for (const SafetensorsEntry& e : file.tensors_) order.push_back(&e);
  std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
    return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
  });
  uint64_t at = 0;
  const SafetensorsEntry* previous = nullptr;
  for (const SafetensorsEntry* e : order) {
    const std::string where = "safetensors.tensors." + e->name + ".data_offsets";
    if (e->begin < at) {
      return Invalid(where, Format("%s [%llu, %llu] overlap those of \"%s\", which end at %llu",
                                   where.c_str(), static_cast<unsigned long long>(e->begin),
                                   static_cast<unsigned long long>(e->end), previous->name.c_str(),
                                   static_cast<unsigned long long>(at)));
    }
    if (e->begin > at) {
      return Invalid(where, Format("%s begin at %llu, leaving bytes %llu to %llu unused",
                                   where.c_str(), static_cast<unsigned long long>(e->begin),
                                   static_cast<unsigned long long>(at),
                                   static_cast<unsigned long long>(e->begin)));
    }
    at = e->end;
    previous = e;
  }
  if (at != file.bytes_size_) {
    return Invalid("safetensors.size",
                   Format("safetensors.size: the tensors end at byte %llu of the data; the file "
                          "holds %llu",
                          static_cast<unsigned long long>(at),
                          static_cast<unsigned long long>(file.bytes_size_)));
  }
  *out = std::move(file);
  return Status::Ok();
}

const SafetensorsEntry* SafetensorsFile::Find(std::string_view name) const {
  for (const SafetensorsEntry& e : tensors_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

Status SafetensorsFile::Read(const SafetensorsEntry& entry, std::vector<float>* out) const {
  const uint64_t width = entry.shape.empty() ? 1 : static_cast<uint64_t>(entry.shape.back());
  std::vector<float> values(entry.elements);
  Status status =
      ReadBlock(entry, 0, width == 0 ? 0 : entry.elements / width, 0, width, values.data());
  if (!status.ok()) return status;
  *out = std::move(values);
  return Status::Ok();
}

Status SafetensorsFile::ReadBlock(const SafetensorsEntry& entry, uint64_t first_row, uint64_t rows,
                                  uint64_t first_col, uint64_t cols, float* to) const {
  const std::string field = "safetensors.tensors." + entry.name;
  if (entry.dtype != "F32" && entry.dtype != "F16" && entry.dtype != "BF16") {
    return Invalid(field + ".dtype",
                   field + ".dtype (\"" + entry.dtype +
                       "\") is not one the engine reads: " + SafetensorsReadableDtypes());
  }
  const uint64_t width = entry.shape.empty() ? 1 : static_cast<uint64_t>(entry.shape.back());
  const uint64_t height = width == 0 ? 0 : entry.elements / width;
  if (first_row > height || rows > height - first_row || first_col > width ||
      cols > width - first_col) {
    return Invalid(
        field,
        Format("%s: rows %llu + %llu, columns %llu + %llu lie outside its %llu "
               "× %llu",
               field.c_str(), static_cast<unsigned long long>(first_row),
               static_cast<unsigned long long>(rows), static_cast<unsigned long long>(first_col),
               static_cast<unsigned long long>(cols), static_cast<unsigned long long>(height),
               static_cast<unsigned long long>(width)));
  }
  const uint64_t element = entry.dtype == "F32" ? 4 : 2;
  for (uint64_t r = 0; r < rows; ++r) {
    const uint64_t at = (first_row + r) * width + first_col;
    float* out = to + r * cols;
    const uint8_t* row = Bytes(entry, element * at, element * cols);
    if (entry.dtype == "F32") {
      const uint8_t* p = row;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      std::memcpy(out, p, 4 * cols);  // the file's order is the machine's (x86, WebAssembly)
#else
      for (uint64_t i = 0; i < cols; ++i, p += 4) {
        out[i] = BitsFloat(uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 |
                           uint32_t{p[3]} << 24);
      }
#endif
    } else if (entry.dtype == "F16") {
      const uint8_t* p = row;
      for (uint64_t i = 0; i < cols; ++i, p += 2) {
        out[i] = HalfToFloat(static_cast<uint16_t>(p[0] | p[1] << 8));
      }
    } else {
      // bfloat16 is the top half of a float32: widening is a shift.
      const uint8_t* p = row;
      for (uint64_t i = 0; i < cols; ++i, p += 2) {
        out[i] = BitsFloat(uint32_t{p[0]} << 16 | uint32_t{p[1]} << 24);
      }
    }
    for (uint64_t i = 0; i < cols; ++i) {
      if (!std::isfinite(out[i])) {
        return Status(ErrorCode::kNonFinite, field,
                      Format("%s holds %s at element %llu", field.c_str(),
                             std::isnan(out[i]) ? "NaN" : "an infinity",
                             static_cast<unsigned long long>(at + i)));
      }
    }
  }
  return Status::Ok();
}

const uint8_t* SafetensorsFile::Bytes(const SafetensorsEntry& entry, uint64_t offset,
                                      uint64_t count) const {
  const uint64_t begin = entry.begin + offset;  // within the data part
  if (bytes_ != nullptr) return bytes_ + begin;
  if (begin < window_begin_ || begin + count > window_begin_ + window_.size()) {
    // A window of the tensor from here, of kWindowBytes or the rest of the tensor: a caller
    // reading row by row (or a third of each row) fetches once per window, not per row.
    const uint64_t end = std::max(begin + count, std::min(entry.end, begin + kWindowBytes));
    window_.resize(end - begin);
    window_begin_ = begin;
    if (end > begin) source_(data_offset_ + begin, end - begin, window_.data());
  }
  return window_.data() + (begin - window_begin_);
}

}  // namespace attention::train
