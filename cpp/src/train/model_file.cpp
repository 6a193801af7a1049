#include "attention/train/model_file.hpp"

#include <sys/stat.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <string_view>

#include "attention/random.hpp"
#include "attention/tokenizer.hpp"
#include "float_bits.hpp"
#include "format.hpp"

namespace attention::train {
namespace {

// Layout (little-endian): magic[8] version:u32 size:u64 | config | vocabulary | tensors | fnv:u64
constexpr size_t kHeaderBytes = 8 + 4 + 8;
constexpr size_t kChecksumBytes = 8;

Status Invalid(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kInvalidArgument, field, message);
}

std::string ShapeText(const std::vector<int>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? " × " : "") + std::to_string(shape[i]);
  return text + "]";
}

size_t TypeBytes(TensorType type) { return type == TensorType::kFloat16 ? 2 : 4; }

class Writer {
 public:
  explicit Writer(std::vector<uint8_t>* out) : out_(out) {}
  void Bytes(const void* data, size_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    out_->insert(out_->end(), p, p + size);
  }
  void Uint(uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out_->push_back(static_cast<uint8_t>(value >> (8 * i)));
  }
  void String(const std::string& text, int length_bytes) {
    Uint(text.size(), length_bytes);
    Bytes(text.data(), text.size());
  }

 private:
  std::vector<uint8_t>* out_;
};

// Bounds-checked little-endian reads over [data, data + size).
class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  size_t position() const { return position_; }
  size_t remaining() const { return size_ - position_; }
  bool Uint(int bytes, uint64_t* value) {
    if (remaining() < static_cast<size_t>(bytes)) return false;
    *value = 0;
    for (int i = 0; i < bytes; ++i) *value |= uint64_t{data_[position_ + i]} << (8 * i);
    position_ += bytes;
    return true;
  }
  bool Span(size_t size, const uint8_t** start) {
    if (remaining() < size) return false;
    *start = data_ + position_;
    position_ += size;
    return true;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t position_ = 0;
};

Status Truncated(const std::string& field, const Reader& reader) {
  return Invalid(field, Format("%s runs past the end of the model data (at byte %zu)",
                               field.c_str(), reader.position()));
}

// A length-prefixed UTF-8 string of 1 … max_bytes bytes (0 allowed when allow_empty).
Status ReadString(Reader* reader, int length_bytes, uint32_t max_bytes, bool allow_empty,
                  const std::string& field, std::string* text) {
  uint64_t length = 0;
  const uint8_t* start = nullptr;
  if (!reader->Uint(length_bytes, &length)) return Truncated(field, *reader);
  if (length > max_bytes) {
    return Status(ErrorCode::kLimitExceeded, field,
                  Format("%s is %llu bytes long; at most %u are allowed", field.c_str(),
                         static_cast<unsigned long long>(length), max_bytes));
  }
  if (length == 0 && !allow_empty) return Invalid(field, field + " must not be empty");
  if (!reader->Span(length, &start)) return Truncated(field, *reader);
  text->assign(reinterpret_cast<const char*>(start), length);
  return CheckUtf8(*text, field);
}

Status ReadTensor(Reader* reader, size_t index, NamedTensor* tensor) {
  const std::string field = Format("model.tensors[%zu]", index);
  Status status =
      ReadString(reader, 2, ModelFileLimits::kMaxNameBytes, false, field + ".name", &tensor->name);
  if (!status.ok()) return status;
  const std::string named = field + " (\"" + tensor->name + "\")";
  uint64_t type = 0, rank = 0;
  if (!reader->Uint(1, &type) || !reader->Uint(1, &rank)) return Truncated(field, *reader);
  if (type > 1) {
    return Invalid(field + ".type", Format("%s has element type %u; allowed: 0 (float32), 1 "
                                           "(float16)",
                                           named.c_str(), static_cast<unsigned>(type)));
  }
  tensor->stored_as = static_cast<TensorType>(type);
  if (rank < 1 || rank > ModelFileLimits::kMaxRank) {
    return Status(ErrorCode::kShapeMismatch, field + ".shape",
                  Format("%s has rank %u; allowed: 1 to %u", named.c_str(),
                         static_cast<unsigned>(rank), ModelFileLimits::kMaxRank));
  }
  uint64_t elements = 1;
  tensor->shape.clear();
  for (uint64_t d = 0; d < rank; ++d) {
    uint64_t dim = 0;
    if (!reader->Uint(4, &dim)) return Truncated(field + ".shape", *reader);
    tensor->shape.push_back(static_cast<int>(std::min<uint64_t>(dim, INT32_MAX)));
    if (dim == 0 || dim > INT32_MAX) {
      return Status(
          ErrorCode::kShapeMismatch, field + ".shape",
          Format("%s has dimension %zu of size %llu; sizes are 1 to %d", named.c_str(),
                 static_cast<size_t>(d), static_cast<unsigned long long>(dim), INT32_MAX));
    }
    elements *= dim;  // ≤ 2^31 per factor, checked below before it can overflow
    if (elements > ModelFileLimits::kMaxElements) {
      return Status(ErrorCode::kLimitExceeded, field + ".shape",
                    Format("%s has more than %llu elements", named.c_str(),
                           static_cast<unsigned long long>(ModelFileLimits::kMaxElements)));
    }
  }
  // The data's byte count is stored too, so that a shape that disagrees with its data is named
  // here rather than misreading the next tensor.
  const size_t width = TypeBytes(tensor->stored_as);
  uint64_t data_bytes = 0;
  const uint8_t* bytes = nullptr;
  if (!reader->Uint(8, &data_bytes)) return Truncated(field + ".data", *reader);
  if (data_bytes != elements * width) {
    return Status(
        ErrorCode::kShapeMismatch, field + ".shape",
        Format("%s has shape %s, which needs %llu bytes of %s, but holds %llu bytes", named.c_str(),
               ShapeText(tensor->shape).c_str(), static_cast<unsigned long long>(elements * width),
               width == 2 ? "float16" : "float32", static_cast<unsigned long long>(data_bytes)));
  }
  if (!reader->Span(data_bytes, &bytes)) {
    return Invalid(field + ".data",
                   Format("%s needs %llu bytes of data; only %zu remain", named.c_str(),
                          static_cast<unsigned long long>(data_bytes), reader->remaining()));
  }
  tensor->data.resize(elements);
  for (size_t i = 0; i < elements; ++i) {
    const uint8_t* p = bytes + i * width;
    float value;
    if (width == 2) {
      value = HalfToFloat(static_cast<uint16_t>(p[0] | p[1] << 8));
    } else {
      value = BitsFloat(uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 |
                        uint32_t{p[3]} << 24);
    }
    if (!std::isfinite(value)) {
      return Status(ErrorCode::kNonFinite, field + ".data",
                    Format("%s holds %s at element %zu; every value must be finite", named.c_str(),
                           std::isnan(value) ? "NaN" : "an infinity", i));
    }
    tensor->data[i] = value;
  }
  return Status::Ok();
}

uint64_t Checksum(const uint8_t* data, size_t size) {
  return Fnv1a64(std::string_view(reinterpret_cast<const char*>(data), size));
}

}  // namespace

const NamedTensor* ModelFile::Find(const std::string& name) const {
  for (const NamedTensor& tensor : tensors) {
    if (tensor.name == name) return &tensor;
  }
  return nullptr;
}

uint64_t LargestModelFileBytes(uint64_t symbols, const std::vector<TensorExtent>& tensors) {
  // The layout of WriteModelFile: header | config (4 + C) | V (4) | V × (4 + s) | N (4) |
  // N × (name 2 + n, type 1, rank 1, shape 4 × r, byte count 8, data) | checksum.
  uint64_t total = kHeaderBytes + 4 + ModelFileLimits::kMaxConfigBytes + 4 +
                   symbols * (4 + ModelFileLimits::kMaxSymbolBytes) + 4 + kChecksumBytes;
  for (const TensorExtent& t : tensors) {
    total +=
        2 + t.name_bytes + 1 + 1 + 4 * t.rank + 8 + t.elements * TypeBytes(TensorType::kFloat32);
  }
  return total;
}

Status WriteModelFile(const ModelFile& file, std::vector<uint8_t>* bytes) {
  bytes->clear();
  Status status = CheckUtf8(file.config_json, "config");
  if (!status.ok()) return status;
  if (file.config_json.size() > ModelFileLimits::kMaxConfigBytes ||
      file.vocabulary.size() > ModelFileLimits::kMaxVocabulary ||
      file.tensors.size() > ModelFileLimits::kMaxTensors) {
    return Status(ErrorCode::kLimitExceeded, "model",
                  Format("a model file holds at most %u bytes of config, %u symbols and %u "
                         "tensors",
                         ModelFileLimits::kMaxConfigBytes, ModelFileLimits::kMaxVocabulary,
                         ModelFileLimits::kMaxTensors));
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < file.vocabulary.size(); ++i) {
    const std::string field = Format("vocabulary[%zu]", i);
    const std::string& symbol = file.vocabulary[i];
    if (symbol.empty() || symbol.size() > ModelFileLimits::kMaxSymbolBytes) {
      return Invalid(field, Format("%s must be 1 to %u bytes long", field.c_str(),
                                   ModelFileLimits::kMaxSymbolBytes));
    }
    if (!(status = CheckUtf8(symbol, field)).ok()) return status;
    if (!seen.insert(symbol).second) {
      return Invalid(field, field + " (\"" + symbol + "\") appears twice");
    }
  }
  seen.clear();
  for (size_t t = 0; t < file.tensors.size(); ++t) {
    const NamedTensor& tensor = file.tensors[t];
    const std::string field = Format("tensors[%zu]", t);
    if (tensor.name.empty() || tensor.name.size() > ModelFileLimits::kMaxNameBytes) {
      return Invalid(field + ".name", Format("%s.name must be 1 to %u bytes long", field.c_str(),
                                             ModelFileLimits::kMaxNameBytes));
    }
    if (!(status = CheckUtf8(tensor.name, field + ".name")).ok()) return status;
    if (!seen.insert(tensor.name).second) {
      return Invalid(field + ".name", field + ".name (\"" + tensor.name + "\") appears twice");
    }
    uint64_t elements = 1;
    bool valid_shape = !tensor.shape.empty() && tensor.shape.size() <= ModelFileLimits::kMaxRank;
    for (int dim : tensor.shape) {
      valid_shape = valid_shape && dim >= 1;
      if (valid_shape) elements *= static_cast<uint64_t>(dim);
      valid_shape = valid_shape && elements <= ModelFileLimits::kMaxElements;
    }
    if (!valid_shape || elements != tensor.data.size()) {
      return Status(ErrorCode::kShapeMismatch, field + ".shape",
                    Format("%s (\"%s\") has shape %s and %zu values; a shape has 1 to %u "
                           "dimensions ≥ 1 whose product is the number of values",
                           field.c_str(), tensor.name.c_str(), ShapeText(tensor.shape).c_str(),
                           tensor.data.size(), ModelFileLimits::kMaxRank));
    }
    for (size_t i = 0; i < tensor.data.size(); ++i) {
      const float v = tensor.data[i];
      const bool half_overflow =
          tensor.stored_as == TensorType::kFloat16 && std::isinf(HalfToFloat(FloatToHalf(v)));
      if (!std::isfinite(v) || half_overflow) {
        return Status(ErrorCode::kNonFinite, field + ".data",
                      Format("%s (\"%s\") element %zu is %g%s; every value must be finite",
                             field.c_str(), tensor.name.c_str(), i, v,
                             half_overflow && std::isfinite(v) ? ", beyond float16's ±65504" : ""));
      }
    }
  }

  Writer out(bytes);
  out.Bytes(kModelFileMagic, sizeof kModelFileMagic);
  out.Uint(ModelFileLimits::kVersion, 4);
  out.Uint(0, 8);  // the total size, patched below
  out.String(file.config_json, 4);
  out.Uint(file.vocabulary.size(), 4);
  for (const std::string& symbol : file.vocabulary) out.String(symbol, 4);
  out.Uint(file.tensors.size(), 4);
  for (const NamedTensor& tensor : file.tensors) {
    out.String(tensor.name, 2);
    out.Uint(static_cast<uint8_t>(tensor.stored_as), 1);
    out.Uint(tensor.shape.size(), 1);
    for (int dim : tensor.shape) out.Uint(static_cast<uint32_t>(dim), 4);
    out.Uint(tensor.data.size() * TypeBytes(tensor.stored_as), 8);
    for (float v : tensor.data) {
      if (tensor.stored_as == TensorType::kFloat16) {
        out.Uint(FloatToHalf(v), 2);
      } else {
        out.Uint(FloatBits(v), 4);
      }
    }
  }
  const uint64_t total = bytes->size() + kChecksumBytes;
  for (int i = 0; i < 8; ++i) (*bytes)[12 + i] = static_cast<uint8_t>(total >> (8 * i));
  out.Uint(Checksum(bytes->data(), bytes->size()), 8);
  return Status::Ok();
}

Status ReadModelFile(const uint8_t* data, size_t size, ModelFile* file) {
  // 1. What kind of file: magic, version, then the size the writer recorded.
  if (size == 0) return Invalid("model.size", "the model file is truncated: it is empty");
  const size_t magic_seen = std::min(size, sizeof kModelFileMagic);
  if (std::memcmp(data, kModelFileMagic, magic_seen) != 0) {
    std::string start;
    for (size_t i = 0; i < magic_seen; ++i) start += Format(i ? " %02x" : "%02x", data[i]);
    return Invalid("model.magic",
                   "not a model file: it starts with bytes " + start + ", not \"ATTNMODL\"");
  }
  Reader header(data, size);
  uint64_t magic = 0, version = 0, declared = 0;
  header.Uint(8, &magic);
  if (size < kHeaderBytes + kChecksumBytes) {
    return Invalid("model.size", Format("the model file is truncated: %zu bytes, shorter than "
                                        "its %zu-byte header and checksum",
                                        size, kHeaderBytes + kChecksumBytes));
  }
  header.Uint(4, &version);
  if (version != ModelFileLimits::kVersion) {
    return Invalid("model.version",
                   Format("model file version %llu is not supported; this "
                          "engine reads version %u",
                          static_cast<unsigned long long>(version), ModelFileLimits::kVersion));
  }
  header.Uint(8, &declared);
  if (declared != size) {
    return Invalid("model.size",
                   declared > size
                       ? Format("the model file is truncated: %zu of its %llu bytes", size,
                                static_cast<unsigned long long>(declared))
                       : Format("the model file has %llu bytes after its end (%zu bytes, "
                                "%llu expected)",
                                static_cast<unsigned long long>(size - declared), size,
                                static_cast<unsigned long long>(declared)));
  }
  // 2. Integrity: any altered byte before the checksum changes it.
  Reader tail(data + size - kChecksumBytes, kChecksumBytes);
  uint64_t stored = 0;
  tail.Uint(8, &stored);
  const uint64_t computed = Checksum(data, size - kChecksumBytes);
  if (stored != computed) {
    return Invalid(
        "model.checksum",
        Format("the model file is damaged or altered: its checksum is %016llx, its "
               "contents give %016llx",
               static_cast<unsigned long long>(stored), static_cast<unsigned long long>(computed)));
  }
  // 3. The contents, each part bounds-checked (only a writer bug or a forged checksum gets here
  //    with bad structure).
  Reader reader(data, size - kChecksumBytes);
  const uint8_t* skip = nullptr;
  reader.Span(kHeaderBytes, &skip);
  ModelFile result;
  Status status = ReadString(&reader, 4, ModelFileLimits::kMaxConfigBytes, true, "model.config",
                             &result.config_json);
  if (!status.ok()) return status;
  uint64_t count = 0;
  if (!reader.Uint(4, &count)) return Truncated("model.vocabulary", reader);
  if (count > ModelFileLimits::kMaxVocabulary || count > reader.remaining() / 5) {
    return Status(ErrorCode::kLimitExceeded, "model.vocabulary",
                  Format("model.vocabulary claims %llu symbols, more than the file can hold",
                         static_cast<unsigned long long>(count)));
  }
  std::set<std::string> seen;
  result.vocabulary.resize(count);
  for (uint64_t i = 0; i < count; ++i) {
    const std::string field = Format("model.vocabulary[%llu]", static_cast<unsigned long long>(i));
    status = ReadString(&reader, 4, ModelFileLimits::kMaxSymbolBytes, false, field,
                        &result.vocabulary[i]);
    if (!status.ok()) return status;
    if (!seen.insert(result.vocabulary[i]).second) {
      return Invalid(field, field + " (\"" + result.vocabulary[i] + "\") appears twice");
    }
  }
  if (!reader.Uint(4, &count)) return Truncated("model.tensors", reader);
  if (count > ModelFileLimits::kMaxTensors || count > reader.remaining() / 16) {
    return Status(ErrorCode::kLimitExceeded, "model.tensors",
                  Format("model.tensors claims %llu tensors; at most %u fit",
                         static_cast<unsigned long long>(count), ModelFileLimits::kMaxTensors));
  }
  seen.clear();
  result.tensors.resize(count);
  for (uint64_t t = 0; t < count; ++t) {
    if (!(status = ReadTensor(&reader, t, &result.tensors[t])).ok()) return status;
    if (!seen.insert(result.tensors[t].name).second) {
      return Invalid(Format("model.tensors[%llu].name", static_cast<unsigned long long>(t)),
                     "the tensor name \"" + result.tensors[t].name + "\" appears twice");
    }
  }
  if (reader.remaining() != 0) {
    return Invalid("model.size",
                   Format("%zu unexpected bytes follow the last tensor", reader.remaining()));
  }
  *file = std::move(result);
  return Status::Ok();
}

Status ExpectTensor(const ModelFile& file, const std::string& name, const std::vector<int>& shape,
                    const NamedTensor** tensor) {
  *tensor = file.Find(name);
  if (*tensor == nullptr) {
    return Invalid("model.tensors", "the model file has no tensor \"" + name + "\"");
  }
  if ((*tensor)->shape != shape) {
    const std::string field = "model.tensors." + name;
    return Status(ErrorCode::kShapeMismatch, field,
                  field + " has shape " + ShapeText((*tensor)->shape) + "; the configuration " +
                      "needs " + ShapeText(shape));
  }
  return Status::Ok();
}

Status ReadFileBytes(const std::string& path, std::vector<uint8_t>* bytes, uint64_t max_bytes) {
  // stat before opening: opening a FIFO waits for a writer; /dev/zero never ends.
  struct stat info;
  if (::stat(path.c_str(), &info) != 0) {
    return Invalid("path", "cannot open \"" + path + "\" for reading");
  }
  if (!S_ISREG(info.st_mode)) {
    return Invalid("path", "\"" + path + "\" must be a regular file, not " +
                               (S_ISDIR(info.st_mode) ? "a folder" : "a device, FIFO or socket"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Invalid("path", "cannot open \"" + path + "\" for reading");
  bytes->clear();
  std::vector<char> chunk(1 << 16);
  // Read in chunks, never past max_bytes + 1: a file that grows while it is read stays bounded.
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
    const size_t got = static_cast<size_t>(in.gcount());
    if (bytes->size() + got > max_bytes) {
      bytes->clear();
      return Status(ErrorCode::kLimitExceeded, "path",
                    Format("\"%s\" is longer than %llu bytes", path.c_str(),
                           static_cast<unsigned long long>(max_bytes)));
    }
    bytes->insert(bytes->end(), chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(got));
  }
  if (in.bad()) return Invalid("path", "cannot read \"" + path + "\"");
  return Status::Ok();
}

Status WriteFileBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Invalid("path", "cannot open \"" + path + "\" for writing");
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) return Invalid("path", "cannot write \"" + path + "\"");
  return Status::Ok();
}

}  // namespace attention::train
