// Seeded toy tasks that show attention doing a job, as language-modelling data.
//
// Every example is one token sequence s = input ++ answer (with a separator between them for
// copy, reverse and sort), fed to a causal model as
//     tokens  = s[0 .. L-2]   [T = L-1]
//     targets = s[1 .. L-1]   [T]   (the next token at each position)
//     mask    = 1 where targets[i] is an answer token, else 0   [T]
// so the loss counts only the answers. The layouts (n = length, a = alphabet, p = modulus):
//     copy       x₁ … xₙ | x₁ … xₙ            T = 2n      answers at positions n … 2n-1
//     reverse    x₁ … xₙ | xₙ … x₁            T = 2n
//     sort       x₁ … xₙ | sorted(x)          T = 2n
//     induction  f₁ … f_{2(n-m)} y₁ … y_m y₁ … y_m   T = 2n-1, m uniform in [max(2, ⌈n/2⌉), n]
//                (random filler, then a random segment and its repeat; the answers are
//                y₂ … y_m of the repeat, the tokens an induction head can predict: each one
//                followed an earlier occurrence of the current token. m varies so that no
//                fixed positional offset solves the task.)
//     modular    a + b = c, c = (a + b) mod p           T = 4        answer at position 3
// Symbols 0 … a-1 (or 0 … p-1) are tokens 0 … a-1; the separator and the operators follow.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "attention/random.hpp"
#include "attention/status.hpp"
#include "attention/train/model.hpp"

namespace attention::train {

enum class TaskKind { kCopy, kReverse, kSort, kInduction, kModularAddition };

// Every member is a trainer field: its default and bounds are its row in trainer_fields.cpp,
// which the constructor reads (sort, 8 symbols of 10, modulus 97).
struct TaskConfig {
  TaskConfig();
  TaskKind kind;
  int length;    // n: copy, reverse, sort, induction (1 … kMaxLength; induction ≥ 2)
  int alphabet;  // a: copy, reverse, sort, induction (2 … kMaxAlphabet)
  int modulus;   // p: modular addition (2 … kMaxModulus)
};

struct TaskLimits {
  static constexpr int kMaxLength = 256;
  static constexpr int kMaxAlphabet = 1024;
  static constexpr int kMaxModulus = 1024;
};

// What an input typed by a person asks of a model (PromptOf, the playground's answer): the tokens
// the model reads, how many it is to generate after them, and the answer the task expects.
struct TaskPrompt {
  std::vector<int> prompt;    // token ids
  int answer_length = 0;      // tokens to generate after the prompt
  std::vector<int> expected;  // [≤ answer_length] ids; induction: as far as the rule decides
};

enum class Decoding {
  kGreedy,         // generate the answer token by token from the input (true exact match)
  kTeacherForced,  // one pass over the whole sequence, each answer given the true ones before
};

// One row per task (Tasks(), MakeTasks in tasks.cpp, each row's parts named by the Task builder):
// everything the engine knows of a task and what the playground reads of it. A new task is one
// row and its functions there.
struct TaskSpec {
  TaskKind kind;
  const char* name;  // "copy", "reverse", "sort", "induction", "modular"
  // Its numbers are 0 … p−1 of `modulus`, two operands; else n symbols 0 … a−1 (`length`,
  // `alphabet`), n ≥ min_length.
  bool modular;
  int min_length;
  std::vector<std::string> operators;  // the symbols after the numbers: "|"; "+", "="
  const char* layout;  // the sequence, for people: "x₁ … xₙ | answer", "a + b = c", …
  // T and the answer positions per example, of n.
  int (*sequence_length)(int n);
  int (*answer_length)(int n);
  // How many symbols a typed input has: low … high (ValidateTaskInput).
  void (*input_counts)(const TaskConfig& config, int* low, int* high);
  // Draws one input from `random` (TaskStream).
  std::vector<int> (*draw)(const TaskConfig& config, RandomState* random);
  // The whole sequence s of an input; for each answer, its index in s and the index of an
  // earlier s-position holding the same token (−1: none), MakeExample's `source`.
  void (*sequence)(const TaskConfig& config, const std::vector<int>& input, std::vector<int>* s,
                   std::vector<int>* answer_at, std::vector<int>* source_of);
  // How many symbols a prompt typed by a person has: low … high (PromptOf).
  void (*prompt_counts)(const TaskConfig& config, int* low, int* high);
  // What such a prompt asks (PromptOf, the input checked): copy, reverse, sort and modular
  // read the input as `sequence` does and cut s at its first answer; induction reads the
  // input as the prompt itself, continued to T tokens by the induction rule.
  void (*prompt)(const TaskConfig& config, const std::vector<int>& input, TaskPrompt* out);
  bool split;         // training and held-out inputs are disjoint (TaskStream)
  Decoding decoding;  // how Evaluate scores it
};
const std::vector<TaskSpec>& Tasks();
const TaskSpec& SpecOf(TaskKind kind);  // `kind` must be a TaskKind

// "copy", "reverse", "sort", "induction", "modular"; ParseTaskKind gives kInvalidArgument for
// field "task" naming the allowed names.
const char* TaskKindName(TaskKind kind);
Status ParseTaskKind(const std::string& name, TaskKind* kind);

// Checks the fields the task uses; the error names the field ("length", "alphabet",
// "modulus") and its allowed range.
Status ValidateTaskConfig(const TaskConfig& config);

// What a model needs to know about a (valid) task.
struct TaskLayout {
  int vocab_size = 0;                // V
  int sequence_length = 0;           // T, the same for every example
  int answer_length = 0;             // masked positions per example (induction: at most n-1)
  std::vector<std::string> symbols;  // [V] display names: "0" … "9", then "|", "+", "="
};
TaskLayout LayoutOf(const TaskConfig& config);

struct Example {
  std::vector<int> tokens;          // [T]
  std::vector<int> targets;         // [T]
  std::vector<unsigned char> mask;  // [T] 1 at answer positions
  // [T] for each answer position, a position j ≤ i of `tokens` that holds the answer (copy,
  // reverse, induction: the one it is copied from; sort: the stable-sorted source; modular
  // addition and non-answers: -1). For induction, this is the key an induction head attends to.
  std::vector<int> source;
};

// The examples as one model batch (model.hpp), row-major [B × T], the mask as loss weights 0/1.
Batch MakeBatch(const std::vector<Example>& examples);

// Each split draws from its own seed stream RandomState({seed, split}). Training and held-out
// examples never share an input: an input is held out when the FNV-1a hash of its tokens is
// ≡ 0 mod 8, and each stream rejects the other split's inputs. Not for induction (its inputs are
// too many to meet twice) nor for spaces of fewer than 64 inputs (e.g. modulus < 8), where both
// splits draw from everything.
enum class Split : uint32_t { kTrain = 0, kHeldOut = 1 };

class TaskStream {
 public:
  // `config` must be valid (ValidateTaskConfig).
  TaskStream(const TaskConfig& config, uint32_t seed, Split split);

  Example Next();
  std::vector<Example> Take(int count);
  const TaskLayout& layout() const { return layout_; }

 private:
  std::vector<int> DrawInput();
  bool InSplit(const std::vector<int>& input) const;

  TaskConfig config_;
  TaskLayout layout_;
  Split split_;
  RandomState random_;
};

// Builds the example for a given input (copy/reverse/sort: n symbols; modular: {a, b};
// induction: the whole first part, filler and segment, of odd or even length as drawn).
Example MakeExample(const TaskConfig& config, const std::vector<int>& input);

// Checks a task input for MakeExample, as a person types it (Trainer::Predict); errors name
// "input" (its length) or "input[i]" (a symbol) and say what is allowed:
//   copy, reverse, sort   exactly n symbols 0 … a-1 (no separator)
//   induction             n … 2n - max(2, ⌈n/2⌉) symbols 0 … a-1: filler, then a segment of
//                         m = 2n - |input| symbols that the model is to repeat
//   modular               two numbers a, b in 0 … p-1
Status ValidateTaskInput(const TaskConfig& config, const std::vector<int>& input);

// What a prompt typed by a person asks (TaskSpec::prompt), for the playground: it reads the task
// from here instead of writing its rules again. Errors as ValidateTaskInput's, the counts
// TaskSpec::prompt_counts's:
//   copy, reverse, sort   n symbols → prompt x₁ … xₙ |, the n answer symbols
//   modular               a, b → prompt a + b =, the one answer (a + b) mod p
//   induction             1 … T symbols → the prompt itself; T − |input| tokens to generate, of
//                         which the expected ones: after each token, the token that followed
//                         all its earlier occurrences, until a token has none or they disagree
Status PromptOf(const TaskConfig& config, const std::vector<int>& input, TaskPrompt* out);

// Greedy predictions of a causal model: for each sequence of `batch` (all of one length t),
// the arg-max next token at every position [B][t].
using Predictor =
    std::function<std::vector<std::vector<int>>(const std::vector<std::vector<int>>& batch)>;

struct Accuracy {
  int examples = 0;
  double exact_match = 0.0;  // share of examples with every answer token right
  double token = 0.0;        // share of answer tokens right
};

// Exact-match accuracy of `predictor` on `examples` (all from one task). Induction is always
// scored teacher-forced (its answers need no generation). `batch_size` bounds one call.
Accuracy Evaluate(const TaskConfig& config, const std::vector<Example>& examples,
                  const Predictor& predictor, Decoding decoding = Decoding::kGreedy,
                  int batch_size = 256);

}  // namespace attention::train
