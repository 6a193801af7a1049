#include "attention/train/corpus_fields.hpp"

#include <cstdio>
#include <cstdlib>

#include "attention/train/model_config.hpp"
#include "attention/train/vocabulary.hpp"

namespace attention::train {
namespace {

// An integer from min to max (the page: to page_max).
CorpusTextField Int(const char* name, double fallback, double min, double max, double page_max,
                    const char* help) {
  CorpusTextField f;
  f.name = name;
  f.flag = FlagOf(name);
  f.fallback = fallback;
  f.min = min;
  f.max = max;
  f.page_max = page_max;
  f.help = help;
  return f;
}

// A share greater than 0, at most max; the page's option only.
CorpusTextField Share(const char* name, double fallback, double max, const char* help) {
  CorpusTextField f = Int(name, fallback, 0, max, max, help);
  f.kind = FieldKind::kNumber;
  f.min_open = true;
  f.flag = "";
  return f;
}

// The same row under another flag (one older than the option's name, in the training scripts).
CorpusTextField Flag(CorpusTextField f, const char* flag) {
  f.flag = flag;
  return f;
}

std::vector<CorpusTextField> MakeFields() {
  CorpusTextField level;
  level.name = "level";
  level.flag = "level";
  level.kind = FieldKind::kEnum;
  level.required = true;
  for (const OptionName<VocabularyLevel>& row : kVocabularyLevels) level.values.push_back(row.name);
  level.help = "character: every code point a token; word: the engine's tokenizer";
  return {
      level,
      // Below 2 a model reads one token: a bigram table, and nothing for attention to show.
      // The page draws T × T per head, so it stops at 256.
      Int("contextLength", 64, 2, ModelLimits::kMaxContext, 256, "the model's context, T"),
      // The page's cap: the output layer is V × dModel and its logits B·T × V, in the WASM
      // memory the explorer shares.
      Flag(Int("vocabularySize", 8192, Vocabulary::kSpecialCount + 1, VocabularyLimits::kMaxSize,
               8192, "the most vocabulary ids, <pad> <unk> <bos> <eos> included"),
           "vocab"),
      Int("minCount", 1, 1, 1e6, 1e6,
          "a symbol's fewest occurrences to enter the vocabulary (rarer ones read as <unk>)"),
      Share("heldOut", 0.1, 0.5, "the share of the tokens held out at the text's end"),
  };
}

// The row as a trainer field's rule, so that its message reads as theirs.
TrainerField Rule(const CorpusTextField& f, CorpusDoor door) {
  TrainerField rule;
  rule.name = f.name;
  rule.kind = f.kind;
  rule.min = f.min;
  rule.max = door == CorpusDoor::kPage ? f.page_max : f.max;
  rule.min_open = f.min_open;
  rule.values = f.values;
  return rule;
}

}  // namespace

const std::vector<CorpusTextField>& CorpusTextFields() {
  static const std::vector<CorpusTextField> fields = MakeFields();
  return fields;
}

const CorpusTextField& CorpusTextFieldNamed(std::string_view name) {
  for (const CorpusTextField& f : CorpusTextFields()) {
    if (name == f.name) return f;
  }
  std::fprintf(stderr, "no corpus text field %.*s\n", static_cast<int>(name.size()), name.data());
  std::abort();
}

std::string CorpusAllowedValues(const CorpusTextField& field, CorpusDoor door) {
  return AllowedValues(Rule(field, door));
}

Status CheckCorpusTextField(const CorpusTextField& field, double value, CorpusDoor door) {
  return CheckField(Rule(field, door), value);
}

}  // namespace attention::train
