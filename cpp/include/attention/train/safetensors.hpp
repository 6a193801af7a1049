// A reader of the safetensors format (Hugging Face's weight files, `model.safetensors`):
//   8 bytes   N, the header's length, little-endian unsigned
//   N bytes   a JSON object: name → {"dtype": "F32", "shape": [rows, cols], "data_offsets":
//             [begin, end]} per tensor, and an optional "__metadata__": {string: string}
//   the rest  the tensors' bytes, row-major and little-endian, each at [begin, end) of this part
// Opening checks the header and the layout and reads no tensor; Read converts one tensor
// (F32, F16 or BF16) to float, so that what a caller skips (GPT-2's causal-mask buffers) is
// never converted. Every size is checked against the bytes present before anything is
// allocated; no file can make the reader allocate much more than its own size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "attention/status.hpp"
#include "attention/train/model_file.hpp"

namespace attention::train {

struct SafetensorsLimits {
  // The header of GPT-2 small is about 15 KB; the format's own reader stops at 100 MB.
  static constexpr uint64_t kMaxHeaderBytes = uint64_t{16} << 20;
  static constexpr uint32_t kMaxTensors = ModelFileLimits::kMaxTensors;
  static constexpr uint32_t kMaxRank = 8;
  static constexpr uint64_t kMaxElements = ModelFileLimits::kMaxElements;  // per tensor
};

struct SafetensorsEntry {
  std::string name;
  std::string dtype;            // as the header spells it: "F32", "F16", "BF16", "U8", …
  std::vector<int64_t> shape;   // rank 0 (a scalar) … kMaxRank
  uint64_t elements = 1;        // ∏ shape
  uint64_t begin = 0, end = 0;  // byte offsets within the data part
};

class SafetensorsFile {
 public:
  // Checks the header and the layout of `size` bytes at `data`, which must outlive this object
  // (nothing is copied). Errors name "safetensors.header" (the length, the JSON, a key, the
  // limits) or "safetensors.tensors.<name>.<key>" (dtype, shape, data_offsets): the length
  // running past the file, a dtype the format does not have, a duplicate name, offsets out of
  // range, overlapping, leaving a gap, or not a multiple of the element size, a span that is not
  // ∏ shape × the element size.
  static Status Open(const uint8_t* data, size_t size, SafetensorsFile* out);
  // Copies `count` bytes from byte `offset` of the file into `out`; never asked for bytes past
  // the file's `size`.
  using ByteSource = std::function<void(uint64_t offset, uint64_t count, uint8_t* out)>;
  // Open of a file of `size` bytes that is not in this memory (WebAssembly: a JS Uint8Array):
  // the header is fetched now, each tensor's bytes when they are read, a window of at most
  // kWindowBytes at a time, so that loading holds the model and not also the file. Reads are
  // then not thread-safe (the window is shared).
  static Status OpenStreamed(uint64_t size, ByteSource source, SafetensorsFile* out);
  static constexpr uint64_t kWindowBytes = uint64_t{4} << 20;

  const std::vector<SafetensorsEntry>& tensors() const { return tensors_; }
  const SafetensorsEntry* Find(std::string_view name) const;
  const std::map<std::string, std::string>& metadata() const { return metadata_; }

  // The values of one tensor as float, row-major [elements]. F32, F16 and BF16 are read
  // (widened exactly); another dtype is refused naming the tensor and these three. A NaN or ±∞
  // is refused (kNonFinite) naming the tensor and the element.
  Status Read(const SafetensorsEntry& entry, std::vector<float>* out) const;
  // Columns first_col … first_col + cols − 1 of rows first_row … first_row + rows − 1 of the
  // tensor seen as [elements / width × width] (width: its last dimension; a 1-D tensor or a
  // scalar is one row), widened to float into `to` [rows × cols], row by row: a loader reads
  // straight into a model's storage, without a copy of the whole tensor (GPT-2's token
  // embedding is 154 MB). The refusals of Read; a block outside the tensor names the tensor.
  Status ReadBlock(const SafetensorsEntry& entry, uint64_t first_row, uint64_t rows,
                   uint64_t first_col, uint64_t cols, float* to) const;

 private:
  static Status Open(uint64_t size, const uint8_t* data, ByteSource source, SafetensorsFile* out);
  // `count` bytes at `offset` within `entry`'s bytes: in the file, or fetched into the window.
  const uint8_t* Bytes(const SafetensorsEntry& entry, uint64_t offset, uint64_t count) const;

  std::vector<SafetensorsEntry> tensors_;  // in header order
  std::map<std::string, std::string> metadata_;
  const uint8_t* bytes_ = nullptr;  // the data part, when the file is in memory
  uint64_t bytes_size_ = 0;
  uint64_t data_offset_ = 0;  // where the data part begins in the file
  ByteSource source_;         // else where its bytes come from
  mutable std::vector<uint8_t> window_;
  mutable uint64_t window_begin_ = 0;  // within the data part
};

// The dtypes Read converts, for messages: "F32, F16, BF16".
const char* SafetensorsReadableDtypes();

}  // namespace attention::train
