// The given-matrix table (kGivenSlots) and the weight cache: every slot is validated, used and
// drawn in its place; a cache belongs to its owner and a hit gives the same bits as a draw.
#include "attention/given.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <string>

#include "attention/trace.hpp"
#include "fixtures.hpp"

namespace attention {
namespace {

using testing::StepOf;

// Cross-attention with every size distinct: n 3, m 5, dModel 6, P = heads·dK = 2·2 = 4.
Config SmallConfig() {
  Config config;
  config.d_model = 6;
  config.heads = 2;
  config.d_k = 2;
  config.bias = true;
  config.embedding = EmbeddingSource::kGiven;
  return config;
}

// The shapes engine.d.ts documents (RunOptions.given), written out independently of the table.
const std::map<std::string, std::pair<int, int>> kShapes = {
    {"x", {3, 6}},  {"xKv", {5, 6}}, {"wQ", {6, 4}}, {"wK", {6, 4}}, {"wV", {6, 4}},
    {"wO", {4, 6}}, {"bQ", {1, 4}},  {"bK", {1, 4}}, {"bV", {1, 4}}, {"bO", {1, 6}},
};

Matrix Distinct(int rows, int cols, float offset) {
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = offset + 0.01f * static_cast<float>(i);
  return m;
}

Input CrossInput() {
  Input input;
  input.tokens = {"a", "b", "c"};
  input.cross = true;
  input.kv_tokens = {"p", "q", "r", "s", "t"};
  input.given.x = Distinct(3, 6, 0.1f);
  input.given.x_kv = Distinct(5, 6, -0.2f);
  return input;
}

TEST(GivenSlots, TheTableNamesEveryDocumentedMatrixOnce) {
  ASSERT_EQ(std::size(kGivenSlots), kShapes.size());
  for (const auto& [name, shape] : kShapes) {
    const GivenSlot* slot = FindGivenSlot(name);
    ASSERT_NE(slot, nullptr) << name;
    EXPECT_EQ(slot->name, name);
    EXPECT_NE(FindStep(name), nullptr) << "no step shows given." << name;
  }
  EXPECT_EQ(FindGivenSlot("wq"), nullptr);
}

TEST(GivenSlots, EverySlotIsValidatedByShapeAndValue) {
  const Config config = SmallConfig();
  for (const GivenSlot& slot : kGivenSlots) {
    const std::string field = std::string("given.") + slot.name;
    const auto [rows, cols] = kShapes.at(slot.name);
    Input input = CrossInput();
    input.given.*slot.given = Matrix::Zero(rows + 1, cols);
    Trace trace;
    Status status = Trace::Run(config, input, &trace);
    EXPECT_EQ(status.code(), ErrorCode::kShapeMismatch) << field;
    EXPECT_EQ(status.field(), field);
    const std::string shape = std::to_string(rows) + " × " + std::to_string(cols);
    EXPECT_EQ(status.message().rfind(field + " must be " + shape + " (", 0), 0u)
        << status.message();

    Matrix bad = Matrix::Zero(rows, cols);
    bad(rows - 1, cols - 1) = std::numeric_limits<float>::quiet_NaN();
    input.given.*slot.given = bad;
    status = Trace::Run(config, input, &trace);
    EXPECT_EQ(status.code(), ErrorCode::kNonFinite) << field;
    EXPECT_EQ(status.message(), field + "[" + std::to_string(rows - 1) + "][" +
                                    std::to_string(cols - 1) +
                                    "] is NaN; every value must be a finite number");
  }
}

TEST(GivenSlots, EverySlotIsUsedAsGivenAndTheOthersStayDrawn) {
  Config config = SmallConfig();
  Trace drawn;
  ASSERT_TRUE(Trace::Run(config, CrossInput(), &drawn).ok());
  for (const GivenSlot& slot : kGivenSlots) {
    const auto [rows, cols] = kShapes.at(slot.name);
    Input input = CrossInput();
    const Matrix given = Distinct(rows, cols, 0.5f);
    input.given.*slot.given = given;
    Trace trace;
    const Status status = Trace::Run(config, input, &trace);
    ASSERT_TRUE(status.ok()) << slot.name << ": " << status.message();
    EXPECT_TRUE(StepOf(trace, slot.name) == given) << slot.name;
    // Giving one weight never shifts the stream the others are drawn from.
    for (const GivenSlot& other : kGivenSlots) {
      if (&other == &slot || other.weight == nullptr) continue;
      EXPECT_TRUE(StepOf(trace, other.name) == StepOf(drawn, other.name))
          << "giving " << slot.name << " changed " << other.name;
    }
  }
}

Input Sentence(std::vector<std::string> tokens) {
  Input input;
  input.tokens = std::move(tokens);
  return input;
}

TEST(WeightCache, TwoOwnersKeepTheirOwnLayerAndAHitGivesTheSameBits) {
  Config first, second;
  first.d_model = second.d_model = 16;
  second.seed = 7;
  const Input input = Sentence({"我", "爱", "吃", "火锅"});
  Trace fresh_first, fresh_second;  // no cache: drawn for the run
  ASSERT_TRUE(Trace::Run(first, input, &fresh_first).ok());
  ASSERT_TRUE(Trace::Run(second, input, &fresh_second).ok());

  WeightCache a, b, shared;
  for (int round = 0; round < 3; ++round) {
    Trace ta, tb;
    ASSERT_TRUE(Trace::Run(first, input, &ta, &a).ok());
    ASSERT_TRUE(Trace::Run(second, input, &tb, &b).ok());
    for (const GivenSlot& slot : kGivenSlots) {
      if (slot.weight == nullptr) continue;
      EXPECT_TRUE(StepOf(ta, slot.name) == StepOf(fresh_first, slot.name)) << slot.name;
      EXPECT_TRUE(StepOf(tb, slot.name) == StepOf(fresh_second, slot.name)) << slot.name;
    }
    EXPECT_TRUE(StepOf(ta, "output") == StepOf(fresh_first, "output"));
    EXPECT_TRUE(StepOf(tb, "output") == StepOf(fresh_second, "output"));
    // One cache for both configurations holds one layer: each run evicts the other's.
    ASSERT_TRUE(Trace::Run(first, input, &ta, &shared).ok());
    ASSERT_TRUE(Trace::Run(second, input, &tb, &shared).ok());
  }
  EXPECT_EQ(a.draws(), 1);
  EXPECT_EQ(b.draws(), 1);
  EXPECT_EQ(shared.draws(), 6);
}

TEST(WeightCache, GivenWeightsNeitherReadNorReplaceTheCachedLayer) {
  Config config;
  const Input plain = Sentence({"x", "y"});
  WeightCache cache;
  Trace before, with_given, after;
  ASSERT_TRUE(Trace::Run(config, plain, &before, &cache).ok());
  Input given = plain;
  given.given.w_v = Matrix::Ones(8, 8);
  ASSERT_TRUE(Trace::Run(config, given, &with_given, &cache).ok());
  EXPECT_TRUE(StepOf(with_given, "wV") == Matrix::Ones(8, 8));
  ASSERT_TRUE(Trace::Run(config, plain, &after, &cache).ok());
  EXPECT_EQ(cache.draws(), 1);
  EXPECT_TRUE(StepOf(after, "wV") == StepOf(before, "wV"));
}

}  // namespace
}  // namespace attention
