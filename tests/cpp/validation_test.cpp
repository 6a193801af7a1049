// Every bad configuration or input gets a message naming the field, the value and what is
// allowed; never an abort.
#include <gtest/gtest.h>

#include <limits>

#include "attention/trace.hpp"
#include "fixtures.hpp"

namespace attention {
namespace {

using testing::ExpectError;
using testing::TokensInput;

Status RunWith(const Config& config, const Input& input) {
  Trace trace;
  return Trace::Run(config, input, &trace);
}

TEST(Validation, HeadsMustDivideDModel) {
  Config c;
  c.d_model = 10;
  c.heads = 3;
  ExpectError(RunWith(c, TokensInput({"a"})), ErrorCode::kInvalidArgument, "heads",
              "heads (3) must divide dModel (10), or set dK explicitly");
  c.d_k = 4;  // an explicit dK lifts the divisibility rule
  EXPECT_TRUE(RunWith(c, TokensInput({"a"})).ok());
}

TEST(Validation, SizesAndTemperature) {
  Config c;
  c.d_model = 0;
  ExpectError(RunWith(c, TokensInput({"a"})), ErrorCode::kInvalidArgument, "dModel",
              "dModel (0) must be an integer from 1 to 1024");
  c.d_model = 2000;
  EXPECT_EQ(RunWith(c, TokensInput({"a"})).field(), "dModel");
  c = Config();
  c.heads = 9;
  ExpectError(RunWith(c, TokensInput({"a"})), ErrorCode::kInvalidArgument, "heads",
              "heads (9) must be an integer from 1 to dModel (8)");
  c = Config();
  c.d_k = -1;
  EXPECT_EQ(RunWith(c, TokensInput({"a"})).field(), "dK");
  c = Config();
  c.temperature = 0.0;
  ExpectError(RunWith(c, TokensInput({"a"})), ErrorCode::kInvalidArgument, "temperature",
              "temperature (0) must be a number from 0.01 to 100");
  c.temperature = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(RunWith(c, TokensInput({"a"})).field(), "temperature");
  c.temperature = 0.01;  // the bounds themselves are allowed
  EXPECT_TRUE(RunWith(c, TokensInput({"a"})).ok());
  c.temperature = 100.0;
  EXPECT_TRUE(RunWith(c, TokensInput({"a"})).ok());
}

TEST(Validation, Tokens) {
  Config c;
  ExpectError(RunWith(c, TokensInput({})), ErrorCode::kInvalidArgument, "tokens",
              "tokens must hold at least 1 token, got none");
  ExpectError(RunWith(c, TokensInput({"a", ""})), ErrorCode::kInvalidArgument, "tokens[1]",
              "tokens[1] must not be empty");
  const Status utf8 = RunWith(c, TokensInput({"ok", "bad\xff"}));
  EXPECT_EQ(utf8.code(), ErrorCode::kInvalidUtf8);
  EXPECT_EQ(utf8.field(), "tokens[1]");
  EXPECT_NE(utf8.message().find("byte offset 3"), std::string::npos) << utf8.message();
  const Status limit = RunWith(c, TokensInput(std::vector<std::string>(2049, "w")));
  ExpectError(limit, ErrorCode::kLimitExceeded, "tokens",
              "tokens (2049 tokens) must hold at most 2048 tokens");
  Input cross = TokensInput({"a"});
  cross.cross = true;
  EXPECT_EQ(RunWith(c, cross).field(), "kvTokens");
}

TEST(Validation, Masks) {
  Config c;
  c.mask.type = MaskType::kWindow;
  c.mask.width = -2;
  ExpectError(RunWith(c, TokensInput({"a"})), ErrorCode::kInvalidArgument, "mask.width",
              "mask.width (-2) must be an integer from 0 to 2048");
  c.mask = MaskSpec();
  c.mask.type = MaskType::kPadding;
  c.mask.positions = {0, 5};
  ExpectError(RunWith(c, TokensInput({"a", "b"})), ErrorCode::kInvalidArgument, "mask.positions[1]",
              "mask.positions[1] (5) must be a key position from 0 to 1");
  c.mask = MaskSpec();
  c.mask.type = MaskType::kCustom;
  c.mask.matrix = MaskMatrix::Ones(3, 2);
  ExpectError(RunWith(c, TokensInput({"a", "b"})), ErrorCode::kShapeMismatch, "mask.matrix",
              "mask.matrix must be 2 × 2 (queries × keys), got 3 × 2");
}

TEST(Validation, GivenMatrices) {
  Config c;
  c.d_model = 4;
  c.heads = 2;
  Input input = TokensInput({"a", "b"});
  input.given.w_q = Matrix::Zero(4, 3);
  ExpectError(RunWith(c, input), ErrorCode::kShapeMismatch, "given.wQ",
              "given.wQ must be 4 × 4 (dModel × heads·dK), got 4 × 3");
  input.given.w_q = Matrix::Zero(4, 4);
  (*input.given.w_q)(2, 1) = std::numeric_limits<float>::quiet_NaN();
  ExpectError(RunWith(c, input), ErrorCode::kNonFinite, "given.wQ",
              "given.wQ[2][1] is NaN; every value must be a finite number");
  (*input.given.w_q)(2, 1) = -std::numeric_limits<float>::infinity();
  EXPECT_NE(RunWith(c, input).message().find("is -Infinity"), std::string::npos);
  input.given = GivenMatrices();
  c.embedding = EmbeddingSource::kGiven;
  ExpectError(RunWith(c, input), ErrorCode::kInvalidArgument, "given.x",
              "given.x is required when embedding is \"given\"");
  input.given.x = Matrix::Zero(2, 4);
  EXPECT_TRUE(RunWith(c, input).ok());
}

}  // namespace
}  // namespace attention
