#include "attention/train/tasks.hpp"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <utility>

#include "format.hpp"

namespace attention::train {
namespace {

constexpr uint64_t kHeldOutModulus = 8;  // one input in 8 is held out
constexpr double kMinSplitSpace = 64;    // smaller input spaces are not split

Status Invalid(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kInvalidArgument, field, message);
}

Status CheckRange(const char* field, int value, int low, int high) {
  if (value >= low && value <= high) return Status::Ok();
  return Invalid(field,
                 Format("%s (%d) must be an integer from %d to %d", field, value, low, high));
}

// A uniform integer in [0, k), without the modulo bias of NextUint32() % k.
int Uniform(RandomState* random, int k) {
  const uint32_t n = static_cast<uint32_t>(k);
  const uint32_t limit = UINT32_MAX - UINT32_MAX % n;
  uint32_t x;
  do x = random->NextUint32();
  while (x >= limit);
  return static_cast<int>(x % n);
}

// n symbols 0 … a−1.
std::vector<int> DrawSymbols(const TaskConfig& config, RandomState* random, int count) {
  std::vector<int> input;
  for (int i = 0; i < count; ++i) input.push_back(Uniform(random, config.alphabet));
  return input;
}

// The orders in which copy, reverse and sort answer: indices into the input.
std::vector<int> InOrder(const std::vector<int>& input) {
  std::vector<int> order(input.size());
  std::iota(order.begin(), order.end(), 0);
  return order;
}

std::vector<int> Reversed(const std::vector<int>& input) {
  std::vector<int> order = InOrder(input);
  std::reverse(order.begin(), order.end());
  return order;
}

std::vector<int> Sorted(const std::vector<int>& input) {
  std::vector<int> order = InOrder(input);
  std::stable_sort(order.begin(), order.end(), [&](int i, int j) { return input[i] < input[j]; });
  return order;
}

// copy, reverse, sort: x₁ … xₙ | x_order[0] … x_order[n−1], the separator being token a.
template <std::vector<int> (*Order)(const std::vector<int>&)>
void SeparatedSequence(const TaskConfig& config, const std::vector<int>& input, std::vector<int>* s,
                       std::vector<int>* answer_at, std::vector<int>* source_of) {
  *s = input;
  s->push_back(config.alphabet);
  for (int k : Order(input)) {
    answer_at->push_back(static_cast<int>(s->size()));
    source_of->push_back(k);
    s->push_back(input[k]);
  }
}

// What an input asks of copy, reverse, sort and modular: its sequence s cut at the first answer,
// and the answers. Their answers run from there to the end of s.
void SequencePrompt(const TaskConfig& config, const std::vector<int>& input, TaskPrompt* out) {
  std::vector<int> s, answer_at, source_of;
  SpecOf(config.kind).sequence(config, input, &s, &answer_at, &source_of);
  out->prompt.assign(s.begin(), s.begin() + answer_at.front());
  out->answer_length = static_cast<int>(answer_at.size());
  for (int at : answer_at) out->expected.push_back(s[at]);
}

// A task's row with its parts named: Task(kind, name, layout), then what an input is made of
// (Symbols or Numbers), the lengths of n, how inputs are counted, drawn and laid out, how a typed
// prompt reads, and how it is split and scored (by default: split, greedy).
class Task {
 public:
  Task(TaskKind kind, const char* name, const char* layout) {
    spec_.kind = kind;
    spec_.name = name;
    spec_.layout = layout;
    spec_.modular = false;
    spec_.min_length = 1;
    spec_.split = true;
    spec_.decoding = Decoding::kGreedy;
  }
  // n ≥ min_length symbols 0 … a−1, then `operators`.
  Task& Symbols(int min_length, std::vector<std::string> operators) {
    spec_.min_length = min_length;
    spec_.operators = std::move(operators);
    return *this;
  }
  // Two numbers 0 … p−1 of `modulus` with `operators`.
  Task& Numbers(std::vector<std::string> operators) {
    spec_.modular = true;
    spec_.operators = std::move(operators);
    return *this;
  }
  Task& Lengths(decltype(TaskSpec::sequence_length) sequence,
                decltype(TaskSpec::answer_length) answers) {
    spec_.sequence_length = sequence;
    spec_.answer_length = answers;
    return *this;
  }
  Task& Inputs(decltype(TaskSpec::input_counts) counts, decltype(TaskSpec::draw) draw,
               decltype(TaskSpec::sequence) sequence) {
    spec_.input_counts = counts;
    spec_.draw = draw;
    spec_.sequence = sequence;
    return *this;
  }
  Task& Prompts(decltype(TaskSpec::prompt_counts) counts, decltype(TaskSpec::prompt) prompt) {
    spec_.prompt_counts = counts;
    spec_.prompt = prompt;
    return *this;
  }
  Task& Unsplit() {
    spec_.split = false;
    return *this;
  }
  Task& Scored(Decoding decoding) {
    spec_.decoding = decoding;
    return *this;
  }
  operator TaskSpec() const { return spec_; }

 private:
  TaskSpec spec_;
};

// n symbols, as many as the task's length: copy, reverse, sort, and their typed prompts.
void LengthSymbols(const TaskConfig& c, int* low, int* high) { *low = *high = c.length; }
std::vector<int> DrawLengthSymbols(const TaskConfig& c, RandomState* r) {
  return DrawSymbols(c, r, c.length);
}

// The row of a task that reads n symbols, a separator, then answers n symbols in some order.
TaskSpec SeparatedTask(TaskKind kind, const char* name, const char* layout,
                       decltype(TaskSpec::sequence) sequence) {
  return Task(kind, name, layout)
      .Symbols(1, {"|"})
      .Lengths([](int n) { return 2 * n; }, [](int n) { return n; })
      .Inputs(LengthSymbols, DrawLengthSymbols, sequence)
      .Prompts(LengthSymbols, SequencePrompt);
}

// Induction: filler of 2(n − m) symbols, then a segment of m and its repeat; m uniform in
// [max(2, ⌈n/2⌉), n] so that no fixed positional offset solves the task.
int InductionLow(int n) { return std::max(2, (n + 1) / 2); }

// An induction input of `count` symbols, all different when the alphabet holds that many. Drawn
// with repeats, a symbol of the segment also stands in the filler or twice in the segment,
// followed by something else, and its next token is a guess between the two: 57% of the
// playground's examples (length 10 of 64 symbols) held such a position, which capped held-out
// exact match near 70% (docs/training-api.md). Smaller alphabets still draw with repeats.
std::vector<int> DrawInductionInput(const TaskConfig& config, RandomState* random, int count) {
  if (config.alphabet < count) return DrawSymbols(config, random, count);
  std::vector<int> input;
  std::vector<bool> used(config.alphabet, false);
  while (static_cast<int>(input.size()) < count) {
    const int symbol = Uniform(random, config.alphabet);
    if (used[symbol]) continue;
    used[symbol] = true;
    input.push_back(symbol);
  }
  return input;
}

// The induction rule: the token after s[q] is the one that followed every earlier occurrence of
// s[q]; −1 when s[q] has none, or when they were followed by different tokens (a repeated symbol:
// small alphabets, or an input given by hand). Reads s[0 … q] only.
int InductionNext(const std::vector<int>& s, int q) {
  int next = -1;
  for (int j = 0; j < q; ++j) {
    if (s[j] != s[q]) continue;
    if (next >= 0 && s[j + 1] != next) return -1;
    next = s[j + 1];
  }
  return next;
}

// Induction reads a typed input as the prompt itself and continues it by the rule up to T
// tokens, as far as the rule decides.
void InductionPrompt(const TaskConfig& config, const std::vector<int>& input, TaskPrompt* out) {
  const int size = static_cast<int>(input.size());
  out->prompt = input;
  out->answer_length = std::max(0, SpecOf(config.kind).sequence_length(config.length) - size);
  std::vector<int> s = input;
  for (int k = 0; k < out->answer_length; ++k) {
    const int next = InductionNext(s, static_cast<int>(s.size()) - 1);
    if (next < 0) break;
    s.push_back(next);
    out->expected.push_back(next);
  }
}

// Induction's input: its filler and segment; its typed prompt: 1 … T tokens.
void InductionInputCounts(const TaskConfig& c, int* low, int* high) {
  *low = c.length;
  *high = 2 * c.length - InductionLow(c.length);
}
void InductionPromptCounts(const TaskConfig& c, int* low, int* high) {
  *low = 1;
  *high = 2 * c.length - 1;  // T
}

std::vector<int> DrawInduction(const TaskConfig& c, RandomState* r) {
  const int n = c.length;
  const int low = InductionLow(n);
  const int m = low + Uniform(r, n - low + 1);
  return DrawInductionInput(c, r, 2 * (n - m) + m);
}

// The answers are y₂ … y_m of the repeat: each followed an earlier occurrence of the current
// token, what an induction head predicts; those another earlier occurrence contradicts are left
// out (InductionNext).
void InductionSequence(const TaskConfig& c, const std::vector<int>& in, std::vector<int>* s,
                       std::vector<int>* at, std::vector<int>* from) {
  // input = filler (2(n − m)) ++ segment (m), so m = 2n − |input|.
  const int size = static_cast<int>(in.size());
  const int m = 2 * c.length - size;
  const int start = size - m;
  *s = in;
  s->insert(s->end(), in.begin() + start, in.end());
  // y_k (k < m) stands at start + k − 1 too: the rule always has an occurrence to read.
  for (int k = 1; k < m; ++k) {
    if (InductionNext(*s, size + k - 1) != (*s)[size + k]) continue;
    at->push_back(size + k);
    from->push_back(start + k);
  }
}

// Modular addition: two numbers a, b; the sequence a + b = c.
void TwoNumbers(const TaskConfig&, int* low, int* high) { *low = *high = 2; }
std::vector<int> DrawTwoNumbers(const TaskConfig& c, RandomState* r) {
  const int a = Uniform(r, c.modulus);
  return std::vector<int>{a, Uniform(r, c.modulus)};
}
void ModularSequence(const TaskConfig& c, const std::vector<int>& in, std::vector<int>* s,
                     std::vector<int>* at, std::vector<int>* from) {
  const int p = c.modulus;
  *s = {in[0], p, in[1], p + 1, (in[0] + in[1]) % p};
  at->push_back(4);
  from->push_back(-1);
}

// One row per TaskKind, in any order (SpecOf finds a kind's row; the "task" field names them
// by kind); this order is the one errors and the docs list them in.
std::vector<TaskSpec> MakeTasks() {
  return {
      SeparatedTask(TaskKind::kCopy, "copy", "x₁ … xₙ | x₁ … xₙ", SeparatedSequence<InOrder>),
      SeparatedTask(TaskKind::kReverse, "reverse", "x₁ … xₙ | xₙ … x₁",
                    SeparatedSequence<Reversed>),
      SeparatedTask(TaskKind::kSort, "sort", "x₁ … xₙ | sorted(x)", SeparatedSequence<Sorted>),
      // Scored teacher-forced: nothing to generate (InductionSequence's answers).
      Task(TaskKind::kInduction, "induction", "f₁ … f₂₍ₙ₋ₘ₎ y₁ … yₘ y₁ … yₘ")
          .Symbols(2, {})
          .Lengths([](int n) { return 2 * n - 1; }, [](int n) { return n - 1; })
          .Inputs(InductionInputCounts, DrawInduction, InductionSequence)
          .Prompts(InductionPromptCounts, InductionPrompt)
          .Unsplit()
          .Scored(Decoding::kTeacherForced),
      Task(TaskKind::kModularAddition, "modular", "a + b = (a + b) mod p")
          .Numbers({"+", "="})
          .Lengths([](int) { return 4; }, [](int) { return 1; })
          .Inputs(TwoNumbers, DrawTwoNumbers, ModularSequence)
          .Prompts(TwoNumbers, SequencePrompt),
  };
}

// The number of distinct inputs, saturating (only compared with kMinSplitSpace).
double InputSpace(const TaskConfig& config) {
  if (SpecOf(config.kind).modular) return static_cast<double>(config.modulus) * config.modulus;
  double space = 1;
  for (int i = 0; i < config.length && space < 1e18; ++i) space *= config.alphabet;
  return space;
}

}  // namespace

const std::vector<TaskSpec>& Tasks() {
  // Made on first use: the trainer fields' task row reads these names, and a TaskConfig's
  // constructor reads the trainer fields, whenever either is first needed.
  static const std::vector<TaskSpec> tasks = MakeTasks();
  return tasks;
}

const TaskSpec& SpecOf(TaskKind kind) {
  for (const TaskSpec& spec : Tasks()) {
    if (spec.kind == kind) return spec;
  }
  return Tasks().front();  // not a TaskKind: ValidateTaskConfig refuses it first
}

const char* TaskKindName(TaskKind kind) { return SpecOf(kind).name; }

Status ParseTaskKind(const std::string& name, TaskKind* kind) {
  std::string names;
  for (const TaskSpec& spec : Tasks()) {
    if (name == spec.name) {
      *kind = spec.kind;
      return Status::Ok();
    }
    names += (names.empty() ? "" : ", ") + std::string(spec.name);
  }
  return Invalid("task", "task (\"" + name + "\") must be one of " + names);
}

Status ValidateTaskConfig(const TaskConfig& config) {
  const int kind = static_cast<int>(config.kind);
  if (kind < 0 || kind >= static_cast<int>(Tasks().size())) {
    return Invalid("task", Format("task (%d) is not a task", kind));
  }
  const TaskSpec& spec = SpecOf(config.kind);
  if (spec.modular) return CheckRange("modulus", config.modulus, 2, TaskLimits::kMaxModulus);
  Status status = CheckRange("length", config.length, spec.min_length, TaskLimits::kMaxLength);
  if (!status.ok()) return status;
  return CheckRange("alphabet", config.alphabet, 2, TaskLimits::kMaxAlphabet);
}

TaskLayout LayoutOf(const TaskConfig& config) {
  const TaskSpec& spec = SpecOf(config.kind);
  TaskLayout layout;
  const int symbols = spec.modular ? config.modulus : config.alphabet;
  for (int i = 0; i < symbols; ++i) layout.symbols.push_back(std::to_string(i));
  layout.symbols.insert(layout.symbols.end(), spec.operators.begin(), spec.operators.end());
  layout.sequence_length = spec.sequence_length(config.length);
  layout.answer_length = spec.answer_length(config.length);
  layout.vocab_size = static_cast<int>(layout.symbols.size());
  return layout;
}

namespace {

// Checks that `input` has low … high symbols of the task (ValidateTaskInput, PromptOf).
Status CheckInput(const TaskConfig& config, const std::vector<int>& input, int low, int high) {
  const TaskSpec& spec = SpecOf(config.kind);
  const int symbols = spec.modular ? config.modulus : config.alphabet;
  const std::string allowed = Format("symbols from 0 to %d", symbols - 1);
  const int size = static_cast<int>(input.size());
  if (size < low || size > high) {
    const std::string count =
        low == high ? Format("exactly %d", low) : Format("%d to %d", low, high);
    return Invalid("input", Format("input has %d symbols; %s takes %s %s", size, spec.name,
                                   count.c_str(), allowed.c_str()));
  }
  for (int i = 0; i < size; ++i) {
    if (input[i] < 0 || input[i] >= symbols) {
      const std::string field = Format("input[%d]", i);
      const std::string shown = input[i] >= 0 && input[i] < LayoutOf(config).vocab_size
                                    ? "\"" + LayoutOf(config).symbols[input[i]] + "\""
                                    : std::to_string(input[i]);
      return Invalid(field, Format("%s (%s) must be one of the %s", field.c_str(), shown.c_str(),
                                   allowed.c_str()));
    }
  }
  return Status::Ok();
}

}  // namespace

Status ValidateTaskInput(const TaskConfig& config, const std::vector<int>& input) {
  int low = 0, high = 0;
  SpecOf(config.kind).input_counts(config, &low, &high);
  return CheckInput(config, input, low, high);
}

Status PromptOf(const TaskConfig& config, const std::vector<int>& input, TaskPrompt* out) {
  const TaskSpec& spec = SpecOf(config.kind);
  int low = 0, high = 0;
  spec.prompt_counts(config, &low, &high);
  Status status = CheckInput(config, input, low, high);
  if (!status.ok()) return status;
  *out = TaskPrompt();
  spec.prompt(config, input, out);
  return Status::Ok();
}

Example MakeExample(const TaskConfig& config, const std::vector<int>& input) {
  // s: the whole sequence; answer_at[k]: the s-index of the k-th answer, source_of[k]: an
  // s-index before the answers holding the same token.
  std::vector<int> s, answer_at, source_of;
  SpecOf(config.kind).sequence(config, input, &s, &answer_at, &source_of);
  Example example;
  const int length = static_cast<int>(s.size()) - 1;
  example.tokens.assign(s.begin(), s.end() - 1);
  example.targets.assign(s.begin() + 1, s.end());
  example.mask.assign(length, 0);
  example.source.assign(length, -1);
  for (size_t k = 0; k < answer_at.size(); ++k) {
    const int position = answer_at[k] - 1;  // the position whose target is the answer
    example.mask[position] = 1;
    example.source[position] = source_of[k];
  }
  return example;
}

Batch MakeBatch(const std::vector<Example>& examples) {
  Batch batch;
  batch.size = static_cast<int>(examples.size());
  batch.length = examples.empty() ? 0 : static_cast<int>(examples[0].tokens.size());
  for (const Example& e : examples) {
    batch.tokens.insert(batch.tokens.end(), e.tokens.begin(), e.tokens.end());
    batch.targets.insert(batch.targets.end(), e.targets.begin(), e.targets.end());
    batch.loss_weights.insert(batch.loss_weights.end(), e.mask.begin(), e.mask.end());
  }
  return batch;
}

TaskStream::TaskStream(const TaskConfig& config, uint32_t seed, Split split)
    : config_(config),
      layout_(LayoutOf(config)),
      split_(split),
      random_(std::vector<uint32_t>{seed, static_cast<uint32_t>(split)}) {}

std::vector<int> TaskStream::DrawInput() { return SpecOf(config_.kind).draw(config_, &random_); }

bool TaskStream::InSplit(const std::vector<int>& input) const {
  if (!SpecOf(config_.kind).split || InputSpace(config_) < kMinSplitSpace) return true;
  std::string bytes;
  for (int token : input) bytes += std::to_string(token) + ",";
  const bool held_out = Fnv1a64(bytes) % kHeldOutModulus == 0;
  return held_out == (split_ == Split::kHeldOut);
}

Example TaskStream::Next() {
  std::vector<int> input = DrawInput();
  // An input space of ≥ 64 holds inputs of both splits with near certainty; the bound on the
  // attempts only guards against a pathological hash pattern.
  for (int attempt = 0; attempt < 100000 && !InSplit(input); ++attempt) input = DrawInput();
  return MakeExample(config_, input);
}

std::vector<Example> TaskStream::Take(int count) {
  std::vector<Example> examples;
  examples.reserve(std::max(count, 0));
  for (int i = 0; i < count; ++i) examples.push_back(Next());
  return examples;
}

namespace {

// Scores the predictions `predicted` [≤ T] of one example against its answers; a position the
// predictor did not answer counts as wrong. Returns true when every answer is right.
bool Score(const Example& e, const std::vector<int>& predicted, int* right, int* total) {
  bool all_right = true;
  for (size_t i = 0; i < e.mask.size(); ++i) {
    if (!e.mask[i]) continue;
    ++*total;
    const bool correct = i < predicted.size() && predicted[i] == e.targets[i];
    *right += correct ? 1 : 0;
    all_right = all_right && correct;
  }
  return all_right;
}

}  // namespace

Accuracy Evaluate(const TaskConfig& config, const std::vector<Example>& examples,
                  const Predictor& predictor, Decoding decoding, int batch_size) {
  Accuracy accuracy;
  accuracy.examples = static_cast<int>(examples.size());
  if (examples.empty()) return accuracy;
  if (SpecOf(config.kind).decoding == Decoding::kTeacherForced) decoding = Decoding::kTeacherForced;
  batch_size = std::max(1, batch_size);
  int right = 0;
  int total = 0;
  int exact = 0;
  int scored = 0;  // examples with at least one answer scored
  for (size_t begin = 0; begin < examples.size(); begin += batch_size) {
    const size_t end = std::min(examples.size(), begin + batch_size);
    std::vector<std::vector<int>> batch;
    for (size_t b = begin; b < end; ++b) batch.push_back(examples[b].tokens);
    // predicted[b][i]: the model's next token at position i.
    std::vector<std::vector<int>> predicted(batch.size());
    if (decoding == Decoding::kTeacherForced) {
      predicted = predictor(batch);
    } else {
      // Every non-induction task answers at the same positions: from `first` to the end.
      const Example& e0 = examples[begin];
      const int first =
          static_cast<int>(std::find(e0.mask.begin(), e0.mask.end(), 1) - e0.mask.begin());
      const int length = static_cast<int>(e0.tokens.size());
      for (auto& tokens : batch) tokens.resize(first + 1);
      for (int position = first; position < length; ++position) {
        const std::vector<std::vector<int>> next = predictor(batch);
        for (size_t b = 0; b < batch.size(); ++b) {
          const int token = b < next.size() && !next[b].empty() ? next[b].back() : -1;
          predicted[b].resize(position + 1, -1);
          predicted[b][position] = token;
          if (position + 1 < length) batch[b].push_back(token);
        }
      }
    }
    predicted.resize(batch.size());
    for (size_t b = begin; b < end; ++b) {
      // An example without a scored answer (induction, every answer left out) counts in
      // neither part of exact match: it would be "right" with nothing asked.
      const int before = total;
      const bool all_right = Score(examples[b], predicted[b - begin], &right, &total);
      if (total == before) continue;
      ++scored;
      exact += all_right ? 1 : 0;
    }
  }
  accuracy.exact_match = scored > 0 ? static_cast<double>(exact) / scored : 0.0;
  accuracy.token = total > 0 ? static_cast<double>(right) / total : 0.0;
  return accuracy;
}

}  // namespace attention::train
