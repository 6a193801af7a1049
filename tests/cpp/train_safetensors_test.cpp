// The safetensors reader (attention/train/safetensors.hpp): what it reads, and every malformed
// file refused by name before anything is allocated.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attention/train/safetensors.hpp"
#include "safetensors_bytes.hpp"

namespace attention::train {
namespace {

using testing::F32Bytes;
using testing::RawTensor;
using testing::SafetensorsOf;

Status Open(const std::vector<uint8_t>& bytes, SafetensorsFile* file) {
  return SafetensorsFile::Open(bytes.data(), bytes.size(), file);
}

// A refusal with this code and field whose message says `says`.
void ExpectRefused(const Status& status, ErrorCode code, const std::string& field,
                   const std::string& says) {
  EXPECT_EQ(ErrorCodeName(status.code()), std::string(ErrorCodeName(code))) << status.message();
  EXPECT_EQ(status.field(), field) << status.message();
  EXPECT_NE(status.message().find(says), std::string::npos)
      << "\"" << status.message() << "\" does not say \"" << says << "\"";
}

Status OpenHeader(const std::string& header, size_t data_bytes) {
  SafetensorsFile file;
  const std::vector<uint8_t> bytes = SafetensorsOf(header, std::vector<uint8_t>(data_bytes, 0));
  return Open(bytes, &file);
}

TEST(TrainSafetensors, ReadsF32F16AndBf16ExactlyAndKeepsMetadata) {
  // 1.5, −2 and 65504 in float16: 0x3e00, 0xc000, 0x7bff; the same in bfloat16 (top halves of
  // the float32 bits): 0x3fc0, 0xc000, 0x477f (65280, bfloat16's nearest to 65504).
  const std::vector<uint8_t> f16 = {0x00, 0x3e, 0x00, 0xc0, 0xff, 0x7b};
  const std::vector<uint8_t> bf16 = {0xc0, 0x3f, 0x00, 0xc0, 0x7f, 0x47};
  const std::vector<uint8_t> bytes =
      SafetensorsOf({{"a", "F32", {2, 2}, F32Bytes({1, -2, 0.25f, 3e38f})},
                     {"b", "F16", {3}, f16},
                     {"c", "BF16", {1, 3}, bf16},
                     {"s", "F32", {}, F32Bytes({7})}});
  SafetensorsFile file;
  ASSERT_TRUE(Open(bytes, &file).ok());
  ASSERT_EQ(file.tensors().size(), 4u);
  EXPECT_EQ(file.metadata().at("format"), "pt");
  std::vector<float> values;
  ASSERT_TRUE(file.Read(*file.Find("a"), &values).ok());
  EXPECT_EQ(values, (std::vector<float>{1, -2, 0.25f, 3e38f}));
  ASSERT_TRUE(file.Read(*file.Find("b"), &values).ok());
  EXPECT_EQ(values, (std::vector<float>{1.5f, -2, 65504}));
  ASSERT_TRUE(file.Read(*file.Find("c"), &values).ok());
  EXPECT_EQ(values, (std::vector<float>{1.5f, -2, 65280}));
  EXPECT_EQ(file.Find("c")->shape, (std::vector<int64_t>{1, 3}));
  ASSERT_TRUE(file.Read(*file.Find("s"), &values).ok());  // a scalar: shape [], one element
  EXPECT_EQ(values, std::vector<float>{7});
}

// What a loader reads straight into a model's storage: a block of rows and columns, in place.
TEST(TrainSafetensors, ReadsABlockOfRowsAndColumnsInPlace) {
  const std::vector<uint8_t> bytes =
      SafetensorsOf({{"m", "F32", {3, 4}, F32Bytes({0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23})},
                     {"h", "F16", {2, 2}, {0x00, 0x3c, 0x00, 0x40, 0x00, 0x42, 0x00, 0x44}}});
  SafetensorsFile file;
  ASSERT_TRUE(Open(bytes, &file).ok());
  std::vector<float> block(4, -1);
  ASSERT_TRUE(file.ReadBlock(*file.Find("m"), 1, 2, 1, 2, block.data()).ok());
  EXPECT_EQ(block, (std::vector<float>{11, 12, 21, 22}));
  ASSERT_TRUE(file.ReadBlock(*file.Find("h"), 1, 1, 0, 2, block.data()).ok());
  EXPECT_EQ(block, (std::vector<float>{3, 4, 21, 22}));  // 1, 2 | 3, 4 in float16
  ExpectRefused(file.ReadBlock(*file.Find("m"), 2, 2, 0, 4, block.data()),
                ErrorCode::kInvalidArgument, "safetensors.tensors.m", "lie outside its 3 × 4");
  ExpectRefused(file.ReadBlock(*file.Find("m"), 0, 1, 3, 2, block.data()),
                ErrorCode::kInvalidArgument, "safetensors.tensors.m", "lie outside its 3 × 4");
}

TEST(TrainSafetensors, RefusesAHeaderLengthPastTheFile) {
  SafetensorsFile file;
  std::vector<uint8_t> bytes = SafetensorsOf("{}", {});
  bytes[0] = 200;  // 200 bytes of header, 2 present
  ExpectRefused(Open(bytes, &file), ErrorCode::kInvalidArgument, "safetensors.header",
                "its length (200 bytes) runs past the end of the file (2 bytes follow");
  ExpectRefused(Open(std::vector<uint8_t>(5, 0), &file), ErrorCode::kInvalidArgument,
                "safetensors.header", "shorter than the 8-byte length");
}

TEST(TrainSafetensors, RefusesAHeaderThatIsNotAJsonObject) {
  ExpectRefused(OpenHeader("{\"a\":", 0), ErrorCode::kInvalidArgument, "safetensors.header",
                "expected a value at byte 5");
  ExpectRefused(OpenHeader("[1, 2]", 0), ErrorCode::kInvalidArgument, "safetensors.header",
                "must be a JSON object; it is an array");
}

TEST(TrainSafetensors, RefusesADuplicateName) {
  const std::string entry = R"({"dtype":"F32","shape":[1],"data_offsets":[0,4]})";
  ExpectRefused(OpenHeader("{\"w\":" + entry + ",\"w\":" + entry + "}", 4),
                ErrorCode::kInvalidArgument, "safetensors.header", "the key \"w\" appears twice");
}

TEST(TrainSafetensors, RefusesADtypeTheFormatDoesNotHave) {
  ExpectRefused(OpenHeader(R"({"w":{"dtype":"F12","shape":[1],"data_offsets":[0,2]}})", 2),
                ErrorCode::kInvalidArgument, "safetensors.tensors.w.dtype",
                "(\"F12\") is not a safetensors dtype: F64, F32, F16, BF16, I64");
}

TEST(TrainSafetensors, OpensButDoesNotReadADtypeOtherThanTheThreeFloats) {
  SafetensorsFile file;
  const std::vector<uint8_t> bytes =
      SafetensorsOf({{"mask", "BOOL", {2, 2}, {1, 0, 1, 1}}, {"ids", "I32", {1}, {1, 0, 0, 0}}});
  ASSERT_TRUE(Open(bytes, &file).ok());
  std::vector<float> values;
  ExpectRefused(file.Read(*file.Find("ids"), &values), ErrorCode::kInvalidArgument,
                "safetensors.tensors.ids.dtype",
                "(\"I32\") is not one the engine reads: F32, F16, BF16");
}

TEST(TrainSafetensors, RefusesOffsetsOutOfRangeOverlappingOrLeavingAGap) {
  ExpectRefused(OpenHeader(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 4),
                ErrorCode::kInvalidArgument, "safetensors.tensors.w.data_offsets",
                "[0, 8] run past the 4 bytes of data");
  ExpectRefused(OpenHeader(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                           R"("b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                           8),
                ErrorCode::kInvalidArgument, "safetensors.tensors.b.data_offsets",
                "overlap those of \"a\"");
  ExpectRefused(OpenHeader(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                           R"("b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})",
                           12),
                ErrorCode::kInvalidArgument, "safetensors.tensors.b.data_offsets",
                "leaving bytes 4 to 8 unused");
  ExpectRefused(OpenHeader(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", 6),
                ErrorCode::kInvalidArgument, "safetensors.size",
                "the tensors end at byte 4 of the data; the file holds 6");
  ExpectRefused(OpenHeader(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,0]}})", 4),
                ErrorCode::kInvalidArgument, "safetensors.tensors.a.data_offsets", "begin ≤ end");
}

TEST(TrainSafetensors, RefusesMisalignedOffsets) {
  ExpectRefused(OpenHeader(R"({"h":{"dtype":"F16","shape":[1],"data_offsets":[0,2]},)"
                           R"("w":{"dtype":"F32","shape":[1],"data_offsets":[2,6]}})",
                           6),
                ErrorCode::kInvalidArgument, "safetensors.tensors.w.data_offsets",
                "begins at byte 2, not a multiple of the 4 bytes of one F32 element (misaligned)");
}

TEST(TrainSafetensors, RefusesASpanThatIsNotTheShapeTimesTheElementSize) {
  ExpectRefused(OpenHeader(R"({"w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,20]}})", 20),
                ErrorCode::kShapeMismatch, "safetensors.tensors.w.data_offsets",
                "spans 20 bytes; its shape and dtype (6 × F32) need 24");
}

TEST(TrainSafetensors, RefusesAShapeBeyondTheLimitsBeforeAllocating) {
  // 2¹⁶ × 2¹⁶ = 2³² elements, past kMaxElements (2²⁸); the file holds 4 bytes.
  ExpectRefused(
      OpenHeader(R"({"w":{"dtype":"F32","shape":[65536,65536],"data_offsets":[0,4]}})", 4),
      ErrorCode::kLimitExceeded, "safetensors.tensors.w.shape", "more than 268435456 elements");
  ExpectRefused(OpenHeader(R"({"w":{"dtype":"F32","shape":[1.5],"data_offsets":[0,4]}})", 4),
                ErrorCode::kInvalidArgument, "safetensors.tensors.w.shape", "whole numbers");
}

TEST(TrainSafetensors, RefusesNanAndInfinityNamingTheElement) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  SafetensorsFile file;
  const std::vector<uint8_t> bytes = SafetensorsOf(
      {{"a", "F32", {3}, F32Bytes({0, 1, nan})}, {"b", "F16", {2}, {0x00, 0x3c, 0x00, 0xfc}}});
  ASSERT_TRUE(Open(bytes, &file).ok());
  std::vector<float> values;
  ExpectRefused(file.Read(*file.Find("a"), &values), ErrorCode::kNonFinite, "safetensors.tensors.a",
                "holds NaN at element 2");
  ExpectRefused(file.Read(*file.Find("b"), &values), ErrorCode::kNonFinite, "safetensors.tensors.b",
                "holds an infinity at element 1");
}

// A file that is not in memory (the WebAssembly binding's JS bytes), fetched as it is read:
// the same tensors and the same refusals, never a byte past the file, and a tensor read row by
// row fetched a window at a time, not a row at a time.
TEST(TrainSafetensors, AStreamedFileReadsAsTheSameFileInMemory) {
  std::vector<float> big(3000 * 4);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<float>(i) * 0.5f;
  const std::vector<uint8_t> bytes =
      SafetensorsOf({{"big", "F32", {3000, 4}, F32Bytes(big)},
                     {"h", "F16", {2, 2}, {0x00, 0x3c, 0x00, 0x40, 0x00, 0x42, 0x00, 0x44}}});
  int fetches = 0;
  auto source = [&](uint64_t offset, uint64_t count, uint8_t* out) {
    ++fetches;
    ASSERT_LE(offset + count, bytes.size());
    std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(offset), count, out);
  };
  SafetensorsFile file;
  ASSERT_TRUE(SafetensorsFile::OpenStreamed(bytes.size(), source, &file).ok());
  EXPECT_EQ(fetches, 2) << "the header's length and the header";
  std::vector<float> values;
  ASSERT_TRUE(file.Read(*file.Find("h"), &values).ok());
  EXPECT_EQ(values, (std::vector<float>{1, 2, 3, 4}));
  fetches = 0;
  std::vector<float> column(3000);
  for (uint64_t r = 0; r < 3000; ++r) {
    ASSERT_TRUE(file.ReadBlock(*file.Find("big"), r, 1, 2, 1, &column[r]).ok());
  }
  EXPECT_EQ(fetches, 1) << "48,000 bytes fit one window";
  for (size_t r = 0; r < 3000; ++r) ASSERT_EQ(column[r], big[r * 4 + 2]) << r;
  // The refusals of Open, from the streamed bytes.
  std::vector<uint8_t> past = bytes;
  past[0] = 200;
  past[1] = 200;
  auto past_source = [&](uint64_t offset, uint64_t count, uint8_t* out) {
    ASSERT_LE(offset + count, past.size());
    std::copy_n(past.begin() + static_cast<std::ptrdiff_t>(offset), count, out);
  };
  ExpectRefused(SafetensorsFile::OpenStreamed(past.size(), past_source, &file),
                ErrorCode::kInvalidArgument, "safetensors.header", "runs past the end of the file");
  ExpectRefused(SafetensorsFile::OpenStreamed(5, past_source, &file), ErrorCode::kInvalidArgument,
                "safetensors.header", "shorter than the 8-byte length");
}

}  // namespace
}  // namespace attention::train
