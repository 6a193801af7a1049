// The flags of attention_train_corpus (train_corpus.cpp): its own (--train, --steps, …), the
// text options of corpus_fields.hpp (--level, --context-length, --vocab, --min-count) and
// every trainer field of the engine's table (trainer_fields.hpp) but the task's and
// totalSteps, spelled as the JS command spells them (learningRate → --learning-rate).
#pragma once

#include <map>
#include <string>

#include "attention/train/trainer.hpp"

namespace attention::train {

// Prints "attention_train_corpus: <what>" to stderr and exits with status 1.
[[noreturn]] void Fail(const std::string& what);

struct Flags {
  std::map<std::string, std::string> values;  // flag (without --) → text, as given
  // The flag's text, else its default ("" for a trainer field or a flag without one).
  std::string Get(const std::string& flag) const;
  bool Has(const std::string& flag) const { return values.count(flag) > 0; }
};

// The trainer fields' defaults (trainer_fields.cpp), as createCorpusTrainer takes them, but
// threads = every core. The shipped models' recipe (docs/models.md) is given as flags by the
// scripts that train them (build-scripts/train-models.sh): a run's flags are its recipe.
TrainerConfig CorpusDefaults();

// The flag of a text option's row (corpus_fields.hpp: --level, --context-length, --vocab,
// --min-count), its default when not given, checked by the row at the tool's bounds; a failure
// names the flag and what it allows. An enum's value is its index.
double CorpusTextFlag(const Flags& flags, const char* name);

// Reads --name value pairs; --help prints every flag with its default and exits; an unknown or
// repeated flag fails, naming the allowed ones.
Flags ReadFlags(int argc, char** argv, const TrainerConfig& defaults);

// The trainer fields among the flags over `config`, each checked by its row.
void ApplyTrainerFlags(const Flags& flags, TrainerConfig* config);

// A number flag from low to high, else a failure naming the flag and the range.
double NumberFlag(const Flags& flags, const std::string& flag, double low, double high);
// An integer flag from low to high, else a failure naming the flag and the range.
int IntFlag(const Flags& flags, const std::string& flag, int low, int high);
// A true/false flag, else a failure naming the flag ("--lowercase (yes) must be true or false").
bool BoolFlag(const Flags& flags, const std::string& flag);

}  // namespace attention::train
