// The model file (docs/model-format.md): a header with a JSON configuration and a vocabulary,
// then named little-endian float32 or float16 tensors, then an FNV-1a 64 checksum. The format
// knows nothing of the model: the configuration is an opaque JSON string, the tensors are
// (name, shape, values), and the model checks the names and shapes it needs (ExpectTensor).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "attention/status.hpp"

namespace attention::train {

enum class TensorType : uint8_t { kFloat32 = 0, kFloat16 = 1 };

struct NamedTensor {
  std::string name;         // unique in the file, 1 … kMaxNameBytes bytes of UTF-8
  std::vector<int> shape;   // rank 1 … kMaxRank, every dimension ≥ 1
  std::vector<float> data;  // [∏ shape], row-major
  TensorType stored_as = TensorType::kFloat32;  // how the file stores it (read: how it was)
};

struct ModelFile {
  std::string config_json;              // UTF-8, opaque to the file layer
  std::vector<std::string> vocabulary;  // [V] symbols, each non-empty UTF-8, no duplicates
  std::vector<NamedTensor> tensors;

  const NamedTensor* Find(const std::string& name) const;
};

struct ModelFileLimits {
  static constexpr uint32_t kVersion = 1;
  static constexpr uint32_t kMaxConfigBytes = 1 << 20;
  static constexpr uint32_t kMaxVocabulary = 1 << 20;
  static constexpr uint32_t kMaxSymbolBytes = 1024;
  static constexpr uint32_t kMaxTensors = 4096;
  static constexpr uint32_t kMaxNameBytes = 256;
  static constexpr uint32_t kMaxRank = 4;
  static constexpr uint64_t kMaxElements = uint64_t{1} << 28;  // per tensor
};

// What one tensor takes in a file besides its values' count: its name's length and its rank.
struct TensorExtent {
  size_t name_bytes;  // 1 … kMaxNameBytes
  size_t rank;        // 1 … kMaxRank
  uint64_t elements;  // ∏ shape
};

// The size in bytes of the largest file WriteModelFile can write with `symbols` vocabulary
// symbols and these tensors: a configuration of kMaxConfigBytes, every symbol kMaxSymbolBytes
// long, every tensor stored as float32. Readers of files stop there instead of reading on.
uint64_t LargestModelFileBytes(uint64_t symbols, const std::vector<TensorExtent>& tensors);

// The 8 bytes every model file starts with.
inline constexpr char kModelFileMagic[8] = {'A', 'T', 'T', 'N', 'M', 'O', 'D', 'L'};

// Serializes `file`. Refuses (and leaves `bytes` empty) a tensor whose data size is not the
// product of its shape (kShapeMismatch), a NaN or ±∞ value or one that overflows float16
// (kNonFinite), invalid UTF-8 (kInvalidUtf8), duplicate or empty names and symbols
// (kInvalidArgument), anything over ModelFileLimits (kLimitExceeded). Fields are named like
// "tensors[2].shape" or "vocabulary[7]".
Status WriteModelFile(const ModelFile& file, std::vector<uint8_t>* bytes);

// Parses and checks a model file. Every error names its field under "model" ("model.magic",
// "model.version", "model.size" for truncated or overlong files, "model.checksum",
// "model.tensors[3].shape", "model.tensors[3].data" for NaN or ±∞, …) and says what is wrong.
// `file` is only written on success.
Status ReadModelFile(const uint8_t* data, size_t size, ModelFile* file);
inline Status ReadModelFile(const std::vector<uint8_t>& bytes, ModelFile* file) {
  return ReadModelFile(bytes.data(), bytes.size(), file);
}

// The tensor `name` with exactly `shape`: kInvalidArgument for field "model.tensors" when it is
// missing, kShapeMismatch for "model.tensors.<name>" naming both shapes when it differs.
Status ExpectTensor(const ModelFile& file, const std::string& name, const std::vector<int>& shape,
                    const NamedTensor** tensor);

// IEEE 754 binary16 ↔ binary32: round to nearest even, subnormals kept, overflow to ±∞, NaN
// stays NaN. Every float16 survives HalfToFloat then FloatToHalf bit for bit.
uint16_t FloatToHalf(float value);
float HalfToFloat(uint16_t half);

// Whole-file helpers for native tools (the CLI, tests); field "path" on failure. Reading refuses
// what is not a regular file (a FIFO would block, /dev/zero never ends) and a file longer than
// `max_bytes` (kLimitExceeded; for a model file, MaxModelFileBytes() in model_io.hpp).
Status ReadFileBytes(const std::string& path, std::vector<uint8_t>* bytes,
                     uint64_t max_bytes = std::numeric_limits<uint64_t>::max());
Status WriteFileBytes(const std::string& path, const std::vector<uint8_t>& bytes);

}  // namespace attention::train
