#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "attention/random.hpp"
#include "attention/train/model_file.hpp"

namespace attention::train {
namespace {

// An independent FNV-1a 64 and little-endian readers, written from docs/model-format.md.
uint64_t Fnv(const std::vector<uint8_t>& bytes, size_t size) {
  uint64_t hash = 14695981039346656037ull;
  for (size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
  return hash;
}
uint64_t Le(const std::vector<uint8_t>& bytes, size_t at, int width) {
  uint64_t value = 0;
  for (int i = width - 1; i >= 0; --i) value = value << 8 | bytes[at + i];
  return value;
}
void PutLe(std::vector<uint8_t>* bytes, size_t at, uint64_t value, int width) {
  for (int i = 0; i < width; ++i) (*bytes)[at + i] = static_cast<uint8_t>(value >> (8 * i));
}
// Recomputes the checksum after an edit, as a forger would.
void Reseal(std::vector<uint8_t>* bytes) {
  PutLe(bytes, 12, bytes->size(), 8);
  PutLe(bytes, bytes->size() - 8, Fnv(*bytes, bytes->size() - 8), 8);
}

// float16 references by arithmetic in double rather than bit manipulation (and no compiler
// _Float16: clang 14, the sanitizer build's compiler, has none on x86).
// The value of the float16 with bits `h`: ±m·2⁻²⁴ (subnormal), ±(1024 + m)·2^(e−25), ±∞, NaN.
double HalfValue(uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const double v = e == 0    ? std::ldexp(m, -24)
                   : e == 31 ? (m ? NAN : INFINITY)
                             : std::ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}
// The float16 value nearest `x`, ties to even: a multiple of the float16 spacing at |x|'s
// binade (never below 2⁻²⁴), rounded by nearbyint; beyond 65,504 + half a spacing, ∞.
double NearestHalf(float x) {
  const double a = std::fabs(static_cast<double>(x));
  double v = INFINITY;
  if (a < 65520.0) {
    int k = 0;
    std::frexp(a, &k);  // a = f·2^k, f ∈ [0.5, 1)
    const double spacing = std::ldexp(1.0, std::max(k - 1, -14) - 10);
    v = std::nearbyint(a / spacing) * spacing;
  }
  return std::signbit(x) ? -v : v;
}

ModelFile Sample() {
  ModelFile file;
  file.config_json = R"({"layers":2,"dModel":4,"note":"ünïcödé ✓"})";
  file.vocabulary = {"<unk>", "a", "b", "火", "👩‍💻"};
  RandomState random(3);
  NamedTensor embedding{"embedding", {5, 4}, {}, TensorType::kFloat32};
  for (int i = 0; i < 20; ++i) embedding.data.push_back(static_cast<float>(random.Randn()));
  NamedTensor half{
      "blocks.0.wq", {2, 2, 1}, {0.5f, -1.25f, 3.0e-5f, 1000.1f}, TensorType::kFloat16};
  file.tensors = {embedding, half};
  return file;
}

std::vector<uint8_t> Write(const ModelFile& file) {
  std::vector<uint8_t> bytes;
  const Status status = WriteModelFile(file, &bytes);
  EXPECT_TRUE(status.ok()) << status.message();
  return bytes;
}

Status Read(const std::vector<uint8_t>& bytes) {
  ModelFile file;
  file.config_json = "untouched";
  const Status status = ReadModelFile(bytes, &file);
  if (!status.ok()) EXPECT_EQ(file.config_json, "untouched") << "written only on success";
  return status;
}

TEST(TrainModelFile, RoundTripsConfigVocabularyAndTensors) {
  const ModelFile sample = Sample();
  ModelFile back;
  const Status status = ReadModelFile(Write(sample), &back);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(back.config_json, sample.config_json);
  EXPECT_EQ(back.vocabulary, sample.vocabulary);
  ASSERT_EQ(back.tensors.size(), 2u);
  EXPECT_EQ(back.tensors[0].name, "embedding");
  EXPECT_EQ(back.tensors[0].shape, (std::vector<int>{5, 4}));
  EXPECT_EQ(back.tensors[0].stored_as, TensorType::kFloat32);
  EXPECT_EQ(back.tensors[0].data, sample.tensors[0].data) << "float32 is bit-exact";
  EXPECT_EQ(back.tensors[1].stored_as, TensorType::kFloat16);
  EXPECT_EQ(back.tensors[1].shape, (std::vector<int>{2, 2, 1}));
  for (int i = 0; i < 4; ++i) {
    const float x = sample.tensors[1].data[i];
    EXPECT_EQ(back.tensors[1].data[i], static_cast<float>(NearestHalf(x))) << x;
  }
  EXPECT_EQ(back.tensors[1].data[3], 1000.0f) << "float16 spacing at 1000 is 0.5";
  const nlohmann::json config = nlohmann::json::parse(back.config_json);
  EXPECT_EQ(config["layers"], 2);
}

TEST(TrainModelFile, LayoutIsTheDocumentedOne) {
  const ModelFile sample = Sample();
  const std::vector<uint8_t> bytes = Write(sample);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 8), "ATTNMODL");
  EXPECT_EQ(Le(bytes, 8, 4), 1u) << "version";
  EXPECT_EQ(Le(bytes, 12, 8), bytes.size()) << "total size";
  EXPECT_EQ(Le(bytes, bytes.size() - 8, 8), Fnv(bytes, bytes.size() - 8)) << "FNV-1a 64";
  size_t at = 20;
  const uint64_t config_bytes = Le(bytes, at, 4);
  EXPECT_EQ(std::string(bytes.begin() + at + 4, bytes.begin() + at + 4 + config_bytes),
            sample.config_json);
  at += 4 + config_bytes;
  ASSERT_EQ(Le(bytes, at, 4), 5u) << "symbols";
  at += 4;
  for (const std::string& symbol : sample.vocabulary) {
    ASSERT_EQ(Le(bytes, at, 4), symbol.size());
    EXPECT_EQ(std::string(bytes.begin() + at + 4, bytes.begin() + at + 4 + symbol.size()), symbol);
    at += 4 + symbol.size();
  }
  ASSERT_EQ(Le(bytes, at, 4), 2u) << "tensors";
  at += 4;
  ASSERT_EQ(Le(bytes, at, 2), 9u) << "name length";
  at += 2 + 9;
  EXPECT_EQ(bytes[at], 0) << "float32";
  EXPECT_EQ(bytes[at + 1], 2) << "rank";
  EXPECT_EQ(Le(bytes, at + 2, 4), 5u);
  EXPECT_EQ(Le(bytes, at + 6, 4), 4u);
  EXPECT_EQ(Le(bytes, at + 10, 8), 80u) << "data bytes";
  at += 18;
  float first;
  const uint32_t first_bits = static_cast<uint32_t>(Le(bytes, at, 4));
  std::memcpy(&first, &first_bits, 4);
  EXPECT_EQ(first, sample.tensors[0].data[0]);
  at += 80;
  ASSERT_EQ(Le(bytes, at, 2), 11u);
  at += 2 + 11;
  EXPECT_EQ(bytes[at], 1) << "float16";
  EXPECT_EQ(bytes[at + 1], 3) << "rank";
  EXPECT_EQ(Le(bytes, at + 14, 8), 8u) << "data bytes";
  at += 2 + 12 + 8;
  EXPECT_EQ(Le(bytes, at, 2), 0x3800u) << "0.5 in float16";
  EXPECT_EQ(at + 4 * 2 + 8, bytes.size()) << "then only the checksum";
}

TEST(TrainModelFile, Float16ConversionIsExactForEveryHalfAndRoundsFloatsToNearestEven) {
  for (uint32_t bits = 0; bits < 65536; ++bits) {
    const uint16_t h = static_cast<uint16_t>(bits);
    const double expected = HalfValue(h);
    const float got = HalfToFloat(h);
    if (std::isnan(expected)) {
      ASSERT_TRUE(std::isnan(got)) << bits;
      ASSERT_TRUE(std::isnan(HalfToFloat(FloatToHalf(got)))) << bits;
      continue;
    }
    ASSERT_EQ(got, expected) << bits;
    ASSERT_EQ(std::signbit(got), std::signbit(expected)) << bits;
    ASSERT_EQ(FloatToHalf(got), h) << "round trip of " << bits;
  }
  // Rounding: random bit patterns over the whole float range, half of them with exponents near
  // float16's range, and values at and around the ties, the overflow and the subnormals.
  RandomState random(11);
  std::vector<float> values = {65504.0f,
                               65519.99f,
                               65520.0f,
                               1e9f,
                               -1e9f,
                               5.960464e-8f,
                               2.9802322e-8f,
                               2.9802326e-8f,
                               1e-10f,
                               -0.0f,
                               1.00048828125f /* 1 + 2⁻¹¹: a tie, to 1 */,
                               1.00146484375f /* 1 + 3·2⁻¹¹: a tie, to 1 + 2⁻⁹ */,
                               std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::denorm_min()};
  for (int i = 0; i < 200000; ++i) {
    uint32_t bits = random.NextUint32();
    if (i % 2) bits = (bits & 0x87ffffffu) | 0x38000000u;
    if (i % 4 == 1) bits &= 0xffffe000u | (1u << 12);  // exact ties of the dropped 13 bits
    float value;
    std::memcpy(&value, &bits, 4);
    values.push_back(value);
  }
  for (float value : values) {
    if (std::isnan(value)) continue;
    const float rounded = HalfToFloat(FloatToHalf(value));
    const double expected = NearestHalf(value);
    ASSERT_EQ(rounded, expected) << value;
    ASSERT_EQ(std::signbit(rounded), std::signbit(expected)) << value;
  }
  EXPECT_EQ(FloatToHalf(1.00048828125f), 0x3c00);
  EXPECT_EQ(FloatToHalf(1.00146484375f), 0x3c02);
  EXPECT_TRUE(std::isnan(HalfToFloat(FloatToHalf(std::nanf("")))));
}

TEST(TrainModelFile, EveryTruncationIsRefusedNamingTheSize) {
  const std::vector<uint8_t> bytes = Write(Sample());
  for (size_t size = 0; size < bytes.size(); ++size) {
    const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + size);
    const Status status = Read(prefix);
    ASSERT_FALSE(status.ok()) << size;
    EXPECT_EQ(status.field(), "model.size") << size << ": " << status.message();
    EXPECT_NE(status.message().find("truncated"), std::string::npos) << status.message();
  }
  EXPECT_NE(Read({}).message().find("empty"), std::string::npos);
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  EXPECT_EQ(Read(longer).field(), "model.size");
  EXPECT_NE(Read(longer).message().find("after its end"), std::string::npos);
}

TEST(TrainModelFile, EveryAlteredByteIsRefused) {
  const std::vector<uint8_t> bytes = Write(Sample());
  for (size_t at = 0; at < bytes.size(); ++at) {
    for (uint8_t flip : {0x01, 0x80}) {
      std::vector<uint8_t> altered = bytes;
      altered[at] ^= flip;
      const Status status = Read(altered);
      ASSERT_FALSE(status.ok()) << at;
      const char* field = at < 8    ? "model.magic"
                          : at < 12 ? "model.version"
                          : at < 20 ? "model.size"
                                    : "model.checksum";
      EXPECT_EQ(status.field(), field) << at << ": " << status.message();
    }
  }
  std::vector<uint8_t> altered = bytes;
  altered[40] ^= 4;
  EXPECT_NE(Read(altered).message().find("damaged or altered"), std::string::npos);
}

TEST(TrainModelFile, WrongMagicAndWrongVersionSayWhatTheyAre) {
  const std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0};
  const Status not_model = Read(png);
  EXPECT_EQ(not_model.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(not_model.field(), "model.magic");
  EXPECT_NE(not_model.message().find("89 50 4e 47"), std::string::npos) << not_model.message();

  std::vector<uint8_t> bytes = Write(Sample());
  PutLe(&bytes, 8, 2, 4);
  Reseal(&bytes);
  const Status version = Read(bytes);
  EXPECT_EQ(version.field(), "model.version");
  EXPECT_NE(version.message().find("version 2 is not supported"), std::string::npos);
  EXPECT_NE(version.message().find("reads version 1"), std::string::npos);
}

// The byte offset of the first element of tensor `index` in Sample()'s file.
size_t DataOffset(const std::vector<uint8_t>& bytes, int index) {
  size_t at = 20;
  at += 4 + Le(bytes, at, 4);
  const uint64_t symbols = Le(bytes, at, 4);
  at += 4;
  for (uint64_t i = 0; i < symbols; ++i) at += 4 + Le(bytes, at, 4);
  at += 4;
  for (int t = 0;; ++t) {
    at += 2 + Le(bytes, at, 2);
    const int type = bytes[at], rank = bytes[at + 1];
    uint64_t elements = 1;
    for (int d = 0; d < rank; ++d) elements *= Le(bytes, at + 2 + 4 * d, 4);
    at += 2 + 4 * rank + 8;
    if (t == index) return at;
    at += elements * (type ? 2 : 4);
  }
}

TEST(TrainModelFile, NaNAndInfinityInAFileAreRefusedNamingTheTensor) {
  const std::vector<uint8_t> clean = Write(Sample());
  std::vector<uint8_t> nan32 = clean;
  PutLe(&nan32, DataOffset(clean, 0) + 4 * 7, 0x7fc00000u, 4);
  Reseal(&nan32);
  const Status status = Read(nan32);
  EXPECT_EQ(status.code(), ErrorCode::kNonFinite);
  EXPECT_EQ(status.field(), "model.tensors[0].data");
  EXPECT_NE(status.message().find("(\"embedding\") holds NaN at element 7"), std::string::npos)
      << status.message();

  std::vector<uint8_t> inf16 = clean;
  PutLe(&inf16, DataOffset(clean, 1) + 2 * 2, 0xfc00u, 2);
  Reseal(&inf16);
  const Status inf = Read(inf16);
  EXPECT_EQ(inf.code(), ErrorCode::kNonFinite);
  EXPECT_EQ(inf.field(), "model.tensors[1].data");
  EXPECT_NE(inf.message().find("blocks.0.wq"), std::string::npos);
  EXPECT_NE(inf.message().find("infinity"), std::string::npos);
}

TEST(TrainModelFile, ShapesThatDoNotMatchTheDataAreRefused) {
  const std::vector<uint8_t> clean = Write(Sample());
  const size_t dims = DataOffset(clean, 0) - 16;  // embedding's [5, 4], then 80 (bytes)
  struct Case {
    uint32_t first_dim;
    const char* field;
    const char* says;
  } cases[] = {
      {6, "model.tensors[0].shape", "shape [6 × 4], which needs 96 bytes of float32, but holds 80"},
      {4, "model.tensors[0].shape", "needs 64 bytes"},
      {0, "model.tensors[0].shape", "dimension 0 of size 0"},
      {0x7fffffff, "model.tensors[0].shape", "more than"},
  };
  for (const Case& c : cases) {
    std::vector<uint8_t> bytes = clean;
    PutLe(&bytes, dims, c.first_dim, 4);
    Reseal(&bytes);
    const Status status = Read(bytes);
    EXPECT_FALSE(status.ok()) << c.first_dim;
    EXPECT_EQ(status.field(), c.field) << c.first_dim << ": " << status.message();
    EXPECT_NE(status.message().find(c.says), std::string::npos) << status.message();
  }
  std::vector<uint8_t> rank0 = clean;
  rank0[dims - 1] = 0;
  Reseal(&rank0);
  EXPECT_EQ(Read(rank0).code(), ErrorCode::kShapeMismatch);
  EXPECT_NE(Read(rank0).message().find("rank 0"), std::string::npos);

  ModelFile file;
  ASSERT_TRUE(ReadModelFile(clean, &file).ok());
  const NamedTensor* tensor = nullptr;
  EXPECT_TRUE(ExpectTensor(file, "embedding", {5, 4}, &tensor).ok());
  EXPECT_EQ(tensor->data.size(), 20u);
  const Status wrong = ExpectTensor(file, "embedding", {5, 8}, &tensor);
  EXPECT_EQ(wrong.code(), ErrorCode::kShapeMismatch);
  EXPECT_EQ(wrong.field(), "model.tensors.embedding");
  EXPECT_NE(wrong.message().find("[5 × 4]; the configuration needs [5 × 8]"), std::string::npos)
      << wrong.message();
  const Status missing = ExpectTensor(file, "unembedding", {5, 4}, &tensor);
  EXPECT_EQ(missing.field(), "model.tensors");
  EXPECT_NE(missing.message().find("\"unembedding\""), std::string::npos);
}

TEST(TrainModelFile, TheWriterRefusesWhatTheReaderWouldRefuse) {
  struct Case {
    void (*edit)(ModelFile*);
    ErrorCode code;
    const char* field;
  } cases[] = {
      {[](ModelFile* f) { f->tensors[0].data.pop_back(); }, ErrorCode::kShapeMismatch,
       "tensors[0].shape"},
      {[](ModelFile* f) { f->tensors[0].shape = {}; }, ErrorCode::kShapeMismatch,
       "tensors[0].shape"},
      {[](ModelFile* f) {
         f->tensors[0].shape = {5, 4, 1, 1, 1};
       },
       ErrorCode::kShapeMismatch, "tensors[0].shape"},
      {[](ModelFile* f) { f->tensors[0].data[3] = std::nanf(""); }, ErrorCode::kNonFinite,
       "tensors[0].data"},
      {[](ModelFile* f) { f->tensors[1].data[0] = 70000.0f; }, ErrorCode::kNonFinite,
       "tensors[1].data"},
      {[](ModelFile* f) { f->tensors[1].name = "embedding"; }, ErrorCode::kInvalidArgument,
       "tensors[1].name"},
      {[](ModelFile* f) { f->tensors[1].name = ""; }, ErrorCode::kInvalidArgument,
       "tensors[1].name"},
      {[](ModelFile* f) { f->vocabulary[2] = "a"; }, ErrorCode::kInvalidArgument, "vocabulary[2]"},
      {[](ModelFile* f) { f->vocabulary[1] = "\xff"; }, ErrorCode::kInvalidUtf8, "vocabulary[1]"},
      {[](ModelFile* f) { f->config_json = "{\"a\":\"\xc3\"}"; }, ErrorCode::kInvalidUtf8,
       "config"},
  };
  for (const Case& c : cases) {
    ModelFile file = Sample();
    c.edit(&file);
    std::vector<uint8_t> bytes = {1, 2, 3};
    const Status status = WriteModelFile(file, &bytes);
    EXPECT_EQ(status.code(), c.code) << c.field << ": " << status.message();
    EXPECT_EQ(status.field(), c.field) << status.message();
    EXPECT_TRUE(bytes.empty());
  }
  ModelFile file = Sample();
  file.tensors[1].data[0] = 70000.0f;
  std::vector<uint8_t> bytes;
  EXPECT_NE(WriteModelFile(file, &bytes).message().find("float16's ±65504"), std::string::npos);
}

// The fuzz seeds of tests/fuzz/corpus/model_file were written by make_corpus.py, a second
// writer of the documented layout in Python.
std::vector<uint8_t> Seed(const char* name) {
  std::vector<uint8_t> bytes;
  const Status status = ReadFileBytes(
      std::string(ATTENTION_FIXTURE_DIR) + "/../fuzz/corpus/model_file/" + name, &bytes);
  EXPECT_TRUE(status.ok()) << status.message();
  return bytes;
}

TEST(TrainModelFile, ReadsFilesOfAnIndependentWriter) {
  ModelFile file;
  const Status status = ReadModelFile(Seed("valid"), &file);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(file.config_json, R"({"layers":1})");
  EXPECT_EQ(file.vocabulary, (std::vector<std::string>{"<pad>", "<unk>", "火", "👩‍💻"}));
  ASSERT_EQ(file.tensors.size(), 2u);
  EXPECT_EQ(file.tensors[0].data, (std::vector<float>{0.5f, -1.0f, 2.0f, 1e-3f, -65504.0f, 3.0f}));
  EXPECT_EQ(file.tensors[1].shape, (std::vector<int>{2, 1, 2}));
  // float16 0x3c00 = 1, 0xbc00 = −1, 0x0001 = 2⁻²⁴ (the smallest subnormal), 0x7bff = 65504.
  EXPECT_EQ(file.tensors[1].data, (std::vector<float>{1.0f, -1.0f, 5.9604645e-8f, 65504.0f}));
  EXPECT_EQ(Write(file), Seed("valid")) << "both writers give the same bytes";

  const std::pair<const char*, const char*> bad[] = {
      {"empty", "model.size"},
      {"truncated", "model.size"},
      {"altered", "model.checksum"},
      {"wrong_magic", "model.magic"},
      {"wrong_version", "model.version"},
      {"nan", "model.tensors[0].data"},
      {"zero_dimension", "model.tensors[0].shape"},
      {"shape_disagrees", "model.tensors[0].shape"},
      {"duplicate_name", "model.tensors[1].name"},
  };
  for (const auto& [name, field] : bad) EXPECT_EQ(Read(Seed(name)).field(), field) << name;
  EXPECT_TRUE(Read(Seed("no_tensors")).ok());
}

TEST(TrainModelFile, FilesRoundTripThroughDisk) {
  const std::string path = ::testing::TempDir() + "train_model_file_test.model";
  const std::vector<uint8_t> bytes = Write(Sample());
  ASSERT_TRUE(WriteFileBytes(path, bytes).ok());
  std::vector<uint8_t> back;
  ASSERT_TRUE(ReadFileBytes(path, &back).ok());
  EXPECT_EQ(back, bytes);
  std::remove(path.c_str());
  const Status missing = ReadFileBytes(path + ".missing", &back);
  EXPECT_EQ(missing.field(), "path");
  EXPECT_NE(missing.message().find(".missing"), std::string::npos);
}

TEST(TrainModelFile, ReadingAFileRefusesDevicesFifosFoldersAndFilesOverTheLimit) {
  std::vector<uint8_t> bytes;
  // Before: /dev/zero filled memory and a FIFO blocked forever.
  const std::string fifo = ::testing::TempDir() + "train_model_file_test.fifo";
  std::remove(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {std::string("/dev/zero"), fifo, ::testing::TempDir()}) {
    const Status status = ReadFileBytes(path, &bytes);
    EXPECT_EQ(status.field(), "path") << path;
    EXPECT_NE(status.message().find("must be a regular file"), std::string::npos)
        << status.message();
  }
  std::remove(fifo.c_str());
  const std::string path = ::testing::TempDir() + "train_model_file_test.limit";
  const std::vector<uint8_t> written = Write(Sample());
  ASSERT_TRUE(WriteFileBytes(path, written).ok());
  EXPECT_TRUE(ReadFileBytes(path, &bytes, written.size()).ok());
  EXPECT_EQ(bytes, written);
  const Status over = ReadFileBytes(path, &bytes, written.size() - 1);
  EXPECT_EQ(over.code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(over.message().find("longer than"), std::string::npos) << over.message();
  EXPECT_TRUE(bytes.empty());
  std::remove(path.c_str());
}

}  // namespace
}  // namespace attention::train
