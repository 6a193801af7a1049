// PromptOf (tasks.hpp), what the playground reads to split a typed input into the prompt the
// model reads and the answer the task expects, checked for every row of Tasks() against each
// task's rule stated here again from its definition (tasks.hpp's header comment), not from the
// engine's code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "attention/train/tasks.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

// What a task's rule says of an input: how many symbols it has, the prompt, the answer length
// and the expected answer.
struct Stated {
  int low = 0, high = 0;
  std::vector<int> prompt;
  int answer_length = 0;
  std::vector<int> expected;
};

// Induction as its definition states it: after the last token t, the token that followed t's
// earlier occurrences, when there is one and they all agree; repeated up to T tokens.
std::vector<int> InductionContinuation(std::vector<int> s, int count) {
  std::vector<int> out;
  while (static_cast<int>(out.size()) < count) {
    std::set<int> followers;
    for (size_t j = 0; j + 1 < s.size(); ++j) {
      if (s[j] == s.back()) followers.insert(s[j + 1]);
    }
    if (followers.size() != 1) break;
    s.push_back(*followers.begin());
    out.push_back(*followers.begin());
  }
  return out;
}

// Each task's rule, by name: a row of Tasks() without one here fails the test.
bool StateRule(const std::string& name, const TaskConfig& c, const std::vector<int>& x,
               Stated* out) {
  const int separator = c.alphabet;  // the first token after the symbols
  if (name == "copy" || name == "reverse" || name == "sort") {
    out->low = out->high = c.length;
    out->prompt = x;
    out->prompt.push_back(separator);
    out->answer_length = c.length;
    out->expected = x;
    if (name == "reverse") std::reverse(out->expected.begin(), out->expected.end());
    if (name == "sort") std::sort(out->expected.begin(), out->expected.end());
    return true;
  }
  if (name == "modular") {
    out->low = out->high = 2;
    const int plus = c.modulus, equals = c.modulus + 1;
    out->prompt = {x[0], plus, x[1], equals};
    out->answer_length = 1;
    out->expected = {(x[0] + x[1]) % c.modulus};
    return true;
  }
  if (name == "induction") {
    const int T = 2 * c.length - 1;
    out->low = 1;  // any prompt up to the context, T tokens
    out->high = T;
    out->prompt = x;
    out->answer_length = std::max(0, T - static_cast<int>(x.size()));
    out->expected = InductionContinuation(x, out->answer_length);
    return true;
  }
  return false;
}

// A small seeded generator of test inputs (independent of the engine's RandomState).
struct Lcg {
  uint64_t state;
  int Below(int k) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((state >> 33) % static_cast<uint64_t>(k));
  }
};

using attention::testing::TaskConfigOf;

TEST(TrainTaskPrompt, EveryTaskSplitsItsInputsAsItsRuleSays) {
  Lcg random{7};
  for (const TaskSpec& spec : Tasks()) {
    // Small alphabets make induction inputs repeat symbols, so its rule's stopping is tested.
    for (const TaskConfig& config :
         {TaskConfigOf(spec.kind, 8, 10, 13), TaskConfigOf(spec.kind, 5, 3, 97),
          TaskConfigOf(spec.kind, 10, 64, 2)}) {
      int low = 0, high = 0;
      spec.prompt_counts(config, &low, &high);
      const int symbols = spec.modular ? config.modulus : config.alphabet;
      for (int trial = 0; trial < 200; ++trial) {
        const int count = low + random.Below(high - low + 1);
        std::vector<int> input;
        for (int i = 0; i < count; ++i) input.push_back(random.Below(symbols));
        Stated stated;
        ASSERT_TRUE(StateRule(spec.name, config, input, &stated))
            << "no rule stated for the task " << spec.name;
        TaskPrompt got;
        ASSERT_TRUE(PromptOf(config, input, &got).ok()) << spec.name;
        EXPECT_EQ(low, stated.low) << spec.name;
        EXPECT_EQ(high, stated.high) << spec.name;
        EXPECT_EQ(got.prompt, stated.prompt) << spec.name;
        EXPECT_EQ(got.answer_length, stated.answer_length) << spec.name;
        EXPECT_EQ(got.expected, stated.expected) << spec.name;
      }
    }
  }
}

TEST(TrainTaskPrompt, InductionStopsWhereEarlierOccurrencesDisagree) {
  const TaskConfig config = TaskConfigOf(TaskKind::kInduction, 10, 64, 97);  // T = 19
  TaskPrompt got;
  ASSERT_TRUE(PromptOf(config, {5, 12, 40, 7, 5}, &got).ok());
  EXPECT_EQ(got.answer_length, 14);
  // After the second 5 comes 12 (its one earlier occurrence), then 40, then 7, then 5 again …
  ASSERT_GE(got.expected.size(), 3u);
  EXPECT_EQ(std::vector<int>(got.expected.begin(), got.expected.begin() + 3),
            (std::vector<int>{12, 40, 7}));
  // 5 was followed by 12 and by 9: what follows the third 5 is not determined.
  ASSERT_TRUE(PromptOf(config, {5, 12, 3, 5, 9, 5}, &got).ok());
  EXPECT_TRUE(got.expected.empty());
  // A token seen once has nothing to follow.
  ASSERT_TRUE(PromptOf(config, {5, 12}, &got).ok());
  EXPECT_TRUE(got.expected.empty());
}

// The prompt and the answer are the examples the engine trains on: copy, reverse, sort and
// modular give back the whole sequence; induction's prompt (filler, segment, its first symbol)
// continues with the example's answers, as many as fit in T.
TEST(TrainTaskPrompt, PromptAndAnswerAreTheTrainingExample) {
  for (const TaskSpec& spec : Tasks()) {
    const TaskConfig config = TaskConfigOf(spec.kind, 8, 32, 13);
    for (const Example& e : TaskStream(config, 5, Split::kHeldOut).Take(50)) {
      std::vector<int> s = e.tokens;
      s.push_back(e.targets.back());
      const int first =
          static_cast<int>(std::find(e.mask.begin(), e.mask.end(), 1) - e.mask.begin());
      std::vector<int> answers;
      for (size_t i = 0; i < e.mask.size(); ++i) {
        if (e.mask[i]) answers.push_back(e.targets[i]);
      }
      std::vector<int> input(s.begin(), s.begin() + first + 1);  // up to the first answer
      if (!spec.modular && spec.kind != TaskKind::kInduction) input.pop_back();  // the "|"
      if (spec.modular) input = {s[0], s[2]};
      TaskPrompt got;
      ASSERT_TRUE(PromptOf(config, input, &got).ok()) << spec.name;
      EXPECT_EQ(got.prompt, std::vector<int>(s.begin(), s.begin() + first + 1)) << spec.name;
      ASSERT_LE(got.expected.size(), answers.size()) << spec.name;
      EXPECT_TRUE(std::equal(got.expected.begin(), got.expected.end(), answers.begin()))
          << spec.name;
      if (spec.kind != TaskKind::kInduction) {
        EXPECT_EQ(got.expected, answers) << spec.name;
      }
    }
  }
}

TEST(TrainTaskPrompt, InputsOfAnotherCountOrSymbolNameTheirField) {
  struct Case {
    TaskConfig config;
    std::vector<int> input;
    const char* field;
  } cases[] = {
      {TaskConfigOf(TaskKind::kSort, 4, 5, 97), {1, 2, 3}, "input"},
      {TaskConfigOf(TaskKind::kCopy, 4, 5, 97), {1, 2, 3, 5}, "input[3]"},
      {TaskConfigOf(TaskKind::kModularAddition, 4, 5, 13), {1, 2, 3}, "input"},
      {TaskConfigOf(TaskKind::kModularAddition, 4, 5, 13), {13, 2}, "input[0]"},
      {TaskConfigOf(TaskKind::kInduction, 4, 5, 97), {}, "input"},
      {TaskConfigOf(TaskKind::kInduction, 4, 5, 97), {1, 2, 3, 4, 1, 2, 3, 4}, "input"},  // > T = 7
      {TaskConfigOf(TaskKind::kInduction, 4, 5, 97), {1, -1}, "input[1]"},
  };
  for (const Case& c : cases) {
    TaskPrompt got;
    const Status status = PromptOf(c.config, c.input, &got);
    EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument) << c.field;
    EXPECT_EQ(status.field(), c.field) << status.message();
  }
}

}  // namespace
}  // namespace attention::train
