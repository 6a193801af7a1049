#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "attention/train/tasks.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

using attention::testing::TaskConfigOf;

const TaskKind kAllKinds[] = {TaskKind::kCopy, TaskKind::kReverse, TaskKind::kSort,
                              TaskKind::kInduction, TaskKind::kModularAddition};

// The n input symbols of a copy/reverse/sort example (before the separator).
std::vector<int> InputOf(const Example& e, int n) {
  return std::vector<int>(e.tokens.begin(), e.tokens.begin() + n);
}

// The answers, in order: the targets at masked positions.
std::vector<int> AnswersOf(const Example& e) {
  std::vector<int> answers;
  for (size_t i = 0; i < e.mask.size(); ++i) {
    if (e.mask[i]) answers.push_back(e.targets[i]);
  }
  return answers;
}

TEST(TrainTasks, SameSeedGivesTheSameExamplesAndOtherSeedsOrSplitsDoNot) {
  for (TaskKind kind : kAllKinds) {
    const TaskConfig config = TaskConfigOf(kind);
    TaskStream a(config, 7, Split::kTrain), b(config, 7, Split::kTrain);
    TaskStream c(config, 8, Split::kTrain), held(config, 7, Split::kHeldOut);
    const auto ea = a.Take(50), eb = b.Take(50), ec = c.Take(50), eh = held.Take(50);
    int same_seed_equal = 0, other_seed_equal = 0, other_split_equal = 0;
    for (int i = 0; i < 50; ++i) {
      same_seed_equal += ea[i].tokens == eb[i].tokens && ea[i].mask == eb[i].mask;
      other_seed_equal += ea[i].tokens == ec[i].tokens;
      other_split_equal += ea[i].tokens == eh[i].tokens;
    }
    EXPECT_EQ(same_seed_equal, 50) << TaskKindName(kind);
    // Modular addition has 9,409 inputs: a chance coincidence or two is possible.
    EXPECT_LE(other_seed_equal, 2) << TaskKindName(kind);
    EXPECT_LE(other_split_equal, 2) << TaskKindName(kind);
  }
}

TEST(TrainTasks, TargetsAreTheTokensShiftedByOne) {
  for (TaskKind kind : kAllKinds) {
    const TaskConfig config = TaskConfigOf(kind);
    const TaskLayout layout = LayoutOf(config);
    for (const Example& e : TaskStream(config, 1, Split::kTrain).Take(20)) {
      ASSERT_EQ(static_cast<int>(e.tokens.size()), layout.sequence_length);
      ASSERT_EQ(e.targets.size(), e.tokens.size());
      ASSERT_EQ(e.mask.size(), e.tokens.size());
      for (size_t i = 0; i + 1 < e.tokens.size(); ++i) EXPECT_EQ(e.targets[i], e.tokens[i + 1]);
      for (int t : e.tokens) EXPECT_TRUE(t >= 0 && t < layout.vocab_size);
      for (int t : e.targets) EXPECT_TRUE(t >= 0 && t < layout.vocab_size);
    }
  }
}

TEST(TrainTasks, CopyReverseAndSortAnswerAfterTheSeparator) {
  const int n = 8;
  for (TaskKind kind : {TaskKind::kCopy, TaskKind::kReverse, TaskKind::kSort}) {
    const TaskConfig config = TaskConfigOf(kind, n, 10);
    for (const Example& e : TaskStream(config, 3, Split::kTrain).Take(100)) {
      EXPECT_EQ(e.tokens[n], 10) << "the separator follows the input";
      for (int i = 0; i < 2 * n; ++i) EXPECT_EQ(e.mask[i], i >= n ? 1 : 0) << i;
      std::vector<int> expected = InputOf(e, n);
      if (kind == TaskKind::kReverse) std::reverse(expected.begin(), expected.end());
      if (kind == TaskKind::kSort) std::sort(expected.begin(), expected.end());
      EXPECT_EQ(AnswersOf(e), expected) << TaskKindName(kind);
    }
  }
}

TEST(TrainTasks, ModularAdditionAnswersTheSumModP) {
  const TaskConfig config = TaskConfigOf(TaskKind::kModularAddition, 0, 0, 13);
  const TaskLayout layout = LayoutOf(config);
  EXPECT_EQ(layout.vocab_size, 15);
  EXPECT_EQ(layout.symbols[13], "+");
  EXPECT_EQ(layout.symbols[14], "=");
  for (const Example& e : TaskStream(config, 5, Split::kTrain).Take(100)) {
    ASSERT_EQ(e.tokens.size(), 4u);
    EXPECT_EQ(e.tokens[1], 13);
    EXPECT_EQ(e.tokens[3], 14);
    EXPECT_EQ(e.mask, (std::vector<unsigned char>{0, 0, 0, 1}));
    EXPECT_EQ(e.targets[3], (e.tokens[0] + e.tokens[2]) % 13);
  }
}

TEST(TrainTasks, InductionRepeatsASegmentOfVaryingLengthAndMasksItsPredictableTokens) {
  const int n = 10;
  const TaskConfig config = TaskConfigOf(TaskKind::kInduction, n, 20);
  std::set<int> segment_lengths;
  for (const Example& e : TaskStream(config, 11, Split::kTrain).Take(200)) {
    ASSERT_EQ(static_cast<int>(e.tokens.size()), 2 * n - 1);
    const int answers = static_cast<int>(AnswersOf(e).size());
    const int m = answers + 1;
    segment_lengths.insert(m);
    ASSERT_GE(m, 5);
    ASSERT_LE(m, n);
    // The whole sequence s = tokens ++ last target ends with the segment twice.
    std::vector<int> s = e.tokens;
    s.push_back(e.targets.back());
    EXPECT_TRUE(std::equal(s.end() - m, s.end(), s.end() - 2 * m));
    for (int i = 0; i < 2 * n - 1; ++i) {
      // The masked targets are s[2n-m+1 …], i.e. positions 2n-m … 2n-2.
      EXPECT_EQ(e.mask[i], i >= 2 * n - m ? 1 : 0) << i;
      if (e.mask[i]) EXPECT_EQ(e.source[i], i + 1 - m) << "the token after the first occurrence";
    }
  }
  EXPECT_EQ(segment_lengths.size(), 6u) << "m takes every value of 5 … 10";
}

// Whether the target at position i follows from the induction rule: every earlier occurrence of
// tokens[i] was followed by targets[i] (s = tokens ++ last target).
bool FollowsFromEarlierOccurrences(const Example& e, int i) {
  std::vector<int> s = e.tokens;
  s.push_back(e.targets.back());
  for (int j = 0; j < i; ++j) {
    if (s[j] == s[i] && s[j + 1] != s[i + 1]) return false;
  }
  return true;
}

// The playground's induction task (length 10, 64 symbols) drew symbols with
// repeats; 57% of its examples then asked for a token that two earlier occurrences of the current
// one contradict, and held-out whole answers stayed near 70% while the heads had formed.
TEST(TrainTasks, InductionAnswersAllFollowFromTheirEarlierOccurrences) {
  const TaskConfig config = TaskConfigOf(TaskKind::kInduction, 10, 64);
  for (Split split : {Split::kTrain, Split::kHeldOut}) {
    int undetermined = 0, examples = 0;
    for (const Example& e : TaskStream(config, 3, split).Take(2000)) {
      ++examples;
      bool all = true;
      for (size_t i = 0; i < e.mask.size(); ++i) {
        if (e.mask[i]) all = all && FollowsFromEarlierOccurrences(e, static_cast<int>(i));
      }
      undetermined += all ? 0 : 1;
      const std::set<int> distinct(e.tokens.begin(), e.tokens.end() - AnswersOf(e).size());
      EXPECT_EQ(distinct.size() + AnswersOf(e).size(), e.tokens.size())
          << "filler and segment differ";
    }
    EXPECT_EQ(undetermined, 0) << "of " << examples;
  }
}

// A repeated symbol (an alphabet smaller than the input, or an input given by hand): the answers
// it contradicts are neither trained nor scored; the others still are.
TEST(TrainTasks, InductionLeavesOutTheAnswersARepeatedSymbolContradicts) {
  const TaskConfig config = TaskConfigOf(TaskKind::kInduction, 4, 10);
  // s = 1 2 1 3 1 2 1 3: after the second "1" comes 2 or 3 (left out), after "2" always 1.
  const Example e = MakeExample(config, {1, 2, 1, 3});
  EXPECT_EQ(e.mask, (std::vector<uint8_t>{0, 0, 0, 0, 0, 1, 0}));
  EXPECT_EQ(e.source[5], 2);
  // Two symbols, length 6: inputs always repeat; every answer kept is determined.
  const TaskConfig tiny = TaskConfigOf(TaskKind::kInduction, 6, 2);
  int kept = 0;
  for (const Example& t : TaskStream(tiny, 5, Split::kTrain).Take(300)) {
    for (size_t i = 0; i < t.mask.size(); ++i) {
      if (!t.mask[i]) continue;
      ++kept;
      EXPECT_TRUE(FollowsFromEarlierOccurrences(t, static_cast<int>(i))) << i;
    }
  }
  EXPECT_GT(kept, 0);
}

TEST(TrainTasks, SourcePositionsHoldTheAnswerToken) {
  for (TaskKind kind :
       {TaskKind::kCopy, TaskKind::kReverse, TaskKind::kSort, TaskKind::kInduction}) {
    for (const Example& e : TaskStream(TaskConfigOf(kind), 2, Split::kTrain).Take(50)) {
      for (size_t i = 0; i < e.mask.size(); ++i) {
        if (!e.mask[i]) {
          EXPECT_EQ(e.source[i], -1);
          continue;
        }
        ASSERT_GE(e.source[i], 0);
        ASSERT_LE(e.source[i], static_cast<int>(i));
        EXPECT_EQ(e.tokens[e.source[i]], e.targets[i]) << TaskKindName(kind) << " " << i;
      }
    }
  }
}

TEST(TrainTasks, HeldOutInputsNeverAppearInTraining) {
  // 5⁴ = 625 inputs: without the split, these draws would share nearly all of them.
  const TaskConfig config = TaskConfigOf(TaskKind::kSort, 4, 5);
  std::set<std::vector<int>> train, held;
  for (const Example& e : TaskStream(config, 1, Split::kTrain).Take(8000)) {
    train.insert(InputOf(e, 4));
  }
  for (const Example& e : TaskStream(config, 1, Split::kHeldOut).Take(3000)) {
    held.insert(InputOf(e, 4));
  }
  EXPECT_GT(held.size(), 40u);
  EXPECT_GT(train.size(), 400u);
  for (const auto& input : held) EXPECT_EQ(train.count(input), 0u);
  EXPECT_EQ(train.size() + held.size(), 625u) << "together they cover the space";
}

TEST(TrainTasks, BatchesFlattenExamplesRowByRow) {
  const auto examples = TaskStream(TaskConfigOf(TaskKind::kCopy, 3), 4, Split::kTrain).Take(5);
  const Batch batch = MakeBatch(examples);
  ASSERT_EQ(batch.size, 5);
  ASSERT_EQ(batch.length, 6);
  ASSERT_EQ(batch.tokens.size(), 30u);
  for (int b = 0; b < 5; ++b) {
    for (int t = 0; t < 6; ++t) {
      EXPECT_EQ(batch.tokens[b * 6 + t], examples[b].tokens[t]);
      EXPECT_EQ(batch.targets[b * 6 + t], examples[b].targets[t]);
      EXPECT_EQ(batch.loss_weights[b * 6 + t], examples[b].mask[t]);
    }
  }
}

// A predictor that knows the task: it reads the input from each prefix and answers by rule.
Predictor Oracle(const TaskConfig& config, int* calls) {
  return [config, calls](const std::vector<std::vector<int>>& batch) {
    ++*calls;
    std::vector<std::vector<int>> out;
    for (const auto& prefix : batch) {
      const int n = config.kind == TaskKind::kModularAddition ? 0 : config.length;
      std::vector<int> input;
      if (config.kind == TaskKind::kModularAddition) {
        input = {prefix[0], prefix[2]};
      } else {
        input.assign(prefix.begin(), prefix.begin() + n);
      }
      std::vector<int> targets = MakeExample(config, input).targets;
      targets.resize(prefix.size());
      out.push_back(targets);
    }
    return out;
  };
}

TEST(TrainTasks, AnOracleScoresOneGreedyAndTeacherForced) {
  for (TaskKind kind :
       {TaskKind::kCopy, TaskKind::kReverse, TaskKind::kSort, TaskKind::kModularAddition}) {
    const TaskConfig config = TaskConfigOf(kind);
    const auto held = TaskStream(config, 9, Split::kHeldOut).Take(300);
    for (Decoding decoding : {Decoding::kGreedy, Decoding::kTeacherForced}) {
      int calls = 0;
      const Accuracy a = Evaluate(config, held, Oracle(config, &calls), decoding, 128);
      EXPECT_EQ(a.examples, 300);
      EXPECT_EQ(a.exact_match, 1.0) << TaskKindName(kind);
      EXPECT_EQ(a.token, 1.0) << TaskKindName(kind);
      // 3 batches; greedy calls once per answer token.
      const int answers = LayoutOf(config).answer_length;
      EXPECT_EQ(calls, decoding == Decoding::kGreedy ? 3 * answers : 3);
    }
  }
}

TEST(TrainTasks, GreedyDecodingFeedsBackThePredictionsNotTheTruth) {
  // Wrong on the first answer token; after that right exactly when the token before is the true
  // previous answer. Teacher-forced it gets the other 3 of 4 right; greedy its error compounds.
  const TaskConfig config = TaskConfigOf(TaskKind::kCopy, 4, 10);
  const auto held = TaskStream(config, 2, Split::kHeldOut).Take(100);
  const Predictor compounding = [](const std::vector<std::vector<int>>& batch) {
    std::vector<std::vector<int>> out;
    for (const auto& tokens : batch) {
      std::vector<int> row(tokens.size(), -1);
      if (row.size() > 4) row[4] = (tokens[0] + 1) % 10;
      for (size_t i = 5; i < tokens.size(); ++i) {
        if (tokens[i] == tokens[i - 5]) row[i] = tokens[i - 4];
      }
      out.push_back(row);
    }
    return out;
  };
  const Accuracy greedy = Evaluate(config, held, compounding, Decoding::kGreedy);
  const Accuracy forced = Evaluate(config, held, compounding, Decoding::kTeacherForced);
  EXPECT_EQ(forced.exact_match, 0.0);
  EXPECT_DOUBLE_EQ(forced.token, 0.75);
  EXPECT_EQ(greedy.exact_match, 0.0);
  EXPECT_EQ(greedy.token, 0.0);
}

TEST(TrainTasks, OneWrongAnswerTokenMakesTheExampleWrong) {
  const TaskConfig config = TaskConfigOf(TaskKind::kSort, 8, 10);
  const auto held = TaskStream(config, 3, Split::kHeldOut).Take(200);
  int calls = 0;
  const Predictor oracle = Oracle(config, &calls);
  const Predictor last_wrong = [&](const std::vector<std::vector<int>>& batch) {
    auto out = oracle(batch);
    for (auto& row : out) {
      if (row.size() == 16) row[15] = (row[15] + 1) % 10;
    }
    return out;
  };
  const Accuracy a = Evaluate(config, held, last_wrong, Decoding::kGreedy);
  EXPECT_EQ(a.exact_match, 0.0);
  EXPECT_DOUBLE_EQ(a.token, 7.0 / 8.0);
}

TEST(TrainTasks, ARandomPredictorScoresChance) {
  for (TaskKind kind : kAllKinds) {
    const TaskConfig config = TaskConfigOf(kind);
    const int vocab = LayoutOf(config).vocab_size;
    RandomState random(42);
    const Predictor guess = [&](const std::vector<std::vector<int>>& batch) {
      std::vector<std::vector<int>> out;
      for (const auto& prefix : batch) {
        std::vector<int> row;
        for (size_t i = 0; i < prefix.size(); ++i) row.push_back(random.NextUint32() % vocab);
        out.push_back(row);
      }
      return out;
    };
    const auto held = TaskStream(config, 6, Split::kHeldOut).Take(1000);
    const Accuracy a = Evaluate(config, held, guess);
    // Exact match by chance: (1/V)^answers per example, averaged. Modular addition has one answer
    // token; an induction example keeps only its determined answers, sometimes a single one.
    const double chance = 1.0 / vocab;
    double exact_chance = 0;
    int scored = 0;
    for (const Example& e : held) {
      if (AnswersOf(e).empty()) continue;  // counted in neither part of exact match
      exact_chance += std::pow(chance, AnswersOf(e).size());
      ++scored;
    }
    exact_chance /= scored;
    EXPECT_NEAR(a.token, chance, 0.03) << TaskKindName(kind);
    EXPECT_LE(a.exact_match, exact_chance + (exact_chance > 0.01 ? 0.03 : 0.002))
        << TaskKindName(kind);
  }
}

TEST(TrainTasks, InductionIsScoredTeacherForced) {
  const TaskConfig config = TaskConfigOf(TaskKind::kInduction, 8, 16);
  const auto held = TaskStream(config, 4, Split::kHeldOut).Take(100);
  std::map<std::vector<int>, std::vector<int>> truth;
  for (const Example& e : held) truth[e.tokens] = e.targets;
  int calls = 0;
  const Predictor lookup = [&](const std::vector<std::vector<int>>& batch) {
    ++calls;
    std::vector<std::vector<int>> out;
    for (const auto& tokens : batch) out.push_back(truth.at(tokens));
    return out;
  };
  const Accuracy a = Evaluate(config, held, lookup, Decoding::kGreedy);
  EXPECT_EQ(a.exact_match, 1.0);
  EXPECT_EQ(calls, 1);
}

TEST(TrainTasks, InvalidConfigsNameTheirField) {
  struct Case {
    TaskConfig config;
    const char* field;
  } cases[] = {
      {TaskConfigOf(TaskKind::kSort, 0), "length"},
      {TaskConfigOf(TaskKind::kCopy, TaskLimits::kMaxLength + 1), "length"},
      {TaskConfigOf(TaskKind::kInduction, 1), "length"},
      {TaskConfigOf(TaskKind::kReverse, 4, 1), "alphabet"},
      {TaskConfigOf(TaskKind::kModularAddition, 0, 0, 1), "modulus"},
      {TaskConfigOf(static_cast<TaskKind>(9)), "task"},
  };
  for (const Case& c : cases) {
    const Status status = ValidateTaskConfig(c.config);
    EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
    EXPECT_EQ(status.field(), c.field);
    EXPECT_NE(status.message().find(c.field), std::string::npos) << status.message();
  }
  for (TaskKind kind : kAllKinds) EXPECT_TRUE(ValidateTaskConfig(TaskConfigOf(kind)).ok());
  TaskKind kind;
  EXPECT_TRUE(ParseTaskKind("induction", &kind).ok());
  EXPECT_EQ(kind, TaskKind::kInduction);
  const Status bad = ParseTaskKind("shuffle", &kind);
  EXPECT_EQ(bad.field(), "task");
  EXPECT_NE(bad.message().find("copy, reverse, sort, induction, modular"), std::string::npos);
}

}  // namespace
}  // namespace attention::train
