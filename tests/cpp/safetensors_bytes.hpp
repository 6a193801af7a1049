// safetensors files built in a test, byte by byte: the well-formed ones a writer makes, and the
// hostile ones a reader must refuse (a header and a data part given as they are).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace attention::testing {

struct RawTensor {
  std::string name;
  std::string dtype;  // "F32", "F16", "BF16", or any other spelling a test wants
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;
};

inline std::vector<uint8_t> F32Bytes(const std::vector<float>& values) {
  std::vector<uint8_t> out(values.size() * 4);
  std::memcpy(out.data(), values.data(), out.size());  // little-endian machines only (x86, wasm)
  return out;
}

// 8 bytes of header length, the header as given, the data as given.
inline std::vector<uint8_t> SafetensorsOf(const std::string& header,
                                          const std::vector<uint8_t>& data) {
  std::vector<uint8_t> out(8);
  uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) out[i] = static_cast<uint8_t>(n >> (8 * i));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

// A well-formed file: the tensors one after another in the given order, with __metadata__.
inline std::vector<uint8_t> SafetensorsOf(const std::vector<RawTensor>& tensors) {
  std::string header = "{\"__metadata__\":{\"format\":\"pt\"}";
  std::vector<uint8_t> data;
  for (const RawTensor& t : tensors) {
    header += ",\"" + t.name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":[";
    for (size_t i = 0; i < t.shape.size(); ++i) {
      header += (i ? "," : "") + std::to_string(t.shape[i]);
    }
    header += "],\"data_offsets\":[" + std::to_string(data.size()) + "," +
              std::to_string(data.size() + t.bytes.size()) + "]}";
    data.insert(data.end(), t.bytes.begin(), t.bytes.end());
  }
  header += "}";
  header.append((8 - header.size() % 8) % 8, ' ');
  return SafetensorsOf(header, data);
}

}  // namespace attention::testing
