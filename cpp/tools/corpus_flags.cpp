#include "corpus_flags.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "attention/parallel.hpp"
#include "attention/train/corpus_fields.hpp"
#include "attention/train/corpus_trainer.hpp"
#include "attention/train/trainer_fields.hpp"
#include "decimal.hpp"

namespace attention::train {
namespace {

// The command's own flags: name, default ("": none), what it is.
struct ToolFlag {
  const char* name;
  const char* fallback;
  const char* help;
};
constexpr ToolFlag kToolFlags[] = {
    {"train", "", "the training text (UTF-8), required"},
    {"heldout", "", "the held-out text, required"},
    {"sample", "", "a second held-out text, scored in the report"},
    {"out", "",
     "the model file to write (float16), required; not an existing file without --force"},
    {"report", "", "the JSON report to write, required; not an existing file without --force"},
    {"force", "",
     "(no value) replace an existing --out and --report (written whole, then renamed)"},
    {"vocabulary-text", "",
     "count the vocabulary from this text instead of --train (a warm restart on a reweighted "
     "text keeps its --init model's vocabulary: pass the text that model was counted from)"},
    {"steps", "3000", "updates (the cosine schedule's length: totalSteps)"},
    {"seconds", "0", "end this sitting after N s of wall time, 0 … 1e9 (0: at --steps)"},
    {"sitting-steps", "0", "end this sitting after N more steps (0: at --steps)"},
    {"checkpoint", "", "the run's state between sittings: resumed if present, written with saves"},
    {"eval-every", "100", "progress on held-out text every N steps"},
    {"save-every", "400", "write the model and report every N steps"},
    {"init", "", "continue from this model file (same configuration and vocabulary)"},
    {"lowercase", "false", "the text was lower-cased (recorded in the model file)"},
    {"canon-weighted", "false", "famous texts were repeated in the training text (recorded)"},
    {"document-start", "",
     "the symbol every document of the text follows, read before typed text: newline, or a "
     "symbol of the vocabulary (recorded as documentStart)"},
    {"corpus", "", "where the text comes from (recorded)"},
    {"title", "", "the model's title (recorded)"},
    {"title-zh", "", "its Chinese title (recorded)"},
};

bool IsTrainerFlag(const TrainerField& f) {
  return f.section != FieldSection::kTask && std::string(f.name) != "totalSteps";
}

std::string Number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

void PrintHelp(const TrainerConfig& defaults) {
  std::printf(
      "usage: attention_train_corpus --train T.txt --heldout H.txt --level L --out M --report R\n");
  for (const ToolFlag& f : kToolFlags) {
    std::printf("  --%-22s %s%s%s\n", f.name, f.help, *f.fallback ? "; default " : "", f.fallback);
  }
  for (const CorpusTextField& f : CorpusTextFields()) {
    if (f.flag.empty()) continue;
    const std::string fallback = f.required ? "required" : "default " + Number(f.fallback);
    std::printf("  --%-22s %s; %s; %s\n", f.flag.c_str(), f.help,
                CorpusAllowedValues(f, CorpusDoor::kTool).c_str(), fallback.c_str());
  }
  for (const TrainerField& f : TrainerFields()) {
    if (!IsTrainerFlag(f)) continue;
    const double value = f.get(defaults);
    if (std::string(f.name) == "minLearningRate") {
      std::printf("  --%-22s %s; default learning-rate / 10\n", FlagOf(f.name).c_str(),
                  AllowedValues(f).c_str());
      continue;
    }
    const std::string shown = f.kind == FieldKind::kEnum   ? f.values[static_cast<size_t>(value)]
                              : f.kind == FieldKind::kBool ? (value != 0 ? "true" : "false")
                                                           : Number(value);
    std::printf("  --%-22s %s; default %s\n", FlagOf(f.name).c_str(), AllowedValues(f).c_str(),
                shown.c_str());
  }
}

}  // namespace

std::string Flags::Get(const std::string& flag) const {
  const auto it = values.find(flag);
  if (it != values.end()) return it->second;
  for (const ToolFlag& f : kToolFlags) {
    if (flag == f.name) return f.fallback;
  }
  for (const CorpusTextField& f : CorpusTextFields()) {
    if (flag == f.flag && !f.required) return Number(f.fallback);
  }
  return "";
}

namespace {

std::string Bound(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", value);
  return text;
}

}  // namespace

double NumberFlag(const Flags& flags, const std::string& flag, double low, double high) {
  const std::string text = flags.Get(flag);
  double value = 0.0;
  if (!ReadDecimal(text, &value) || value < low || value > high) {
    Fail("--" + flag + " (" + text + ") must be a decimal number from " + Bound(low) + " to " +
         Bound(high));
  }
  return value;
}

int IntFlag(const Flags& flags, const std::string& flag, int low, int high) {
  const std::string text = flags.Get(flag);
  double value = 0.0;
  if (!ReadDecimal(text, &value) || value != std::floor(value) || value < low || value > high) {
    Fail("--" + flag + " (" + text + ") must be an integer from " + std::to_string(low) + " to " +
         std::to_string(high));
  }
  return static_cast<int>(value);
}

bool BoolFlag(const Flags& flags, const std::string& flag) {
  const std::string text = flags.Get(flag);
  if (text != "true" && text != "false")
    Fail("--" + flag + " (" + text + ") must be true or false");
  return text == "true";
}

// Reads --name value pairs; an unknown or repeated flag is refused, naming the allowed ones.
Flags ReadFlags(int argc, char** argv, const TrainerConfig& defaults) {
  std::map<std::string, bool> known;
  for (const ToolFlag& f : kToolFlags) known[f.name] = true;
  for (const CorpusTextField& f : CorpusTextFields()) {
    if (!f.flag.empty()) known[f.flag] = true;
  }
  for (const TrainerField& f : TrainerFields()) {
    if (IsTrainerFlag(f)) known[FlagOf(f.name)] = true;
  }
  Flags flags;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      PrintHelp(defaults);
      std::exit(0);
    }
    const std::string flag = arg.rfind("--", 0) == 0 ? arg.substr(2) : "";
    if (flag.empty() || !known.count(flag)) {
      std::string names;
      for (const auto& [name, _] : known) names += " --" + name;
      Fail("unknown flag " + arg + "; flags are:" + names);
    }
    if (flags.Has(flag)) Fail(arg + " is given twice");
    if (flag == "force") {  // a switch, as the JS command's --force
      flags.values[flag] = "true";
      continue;
    }
    if (i + 1 >= argc) Fail(arg + " needs a value");
    flags.values[flag] = argv[++i];
  }
  return flags;
}

// The trainer fields of the flags over `config`, each checked by its row.
void ApplyTrainerFlags(const Flags& flags, TrainerConfig* config) {
  for (const TrainerField& f : TrainerFields()) {
    const std::string flag = FlagOf(f.name);
    if (!IsTrainerFlag(f) || !flags.Has(flag)) continue;
    const std::string text = flags.Get(flag);
    double value = -1;
    if (f.kind == FieldKind::kBool) {
      value = text == "true" ? 1 : text == "false" ? 0 : -1;
    } else if (f.kind == FieldKind::kEnum) {
      const auto it = std::find(f.values.begin(), f.values.end(), text);
      value = it == f.values.end() ? -1 : static_cast<double>(it - f.values.begin());
    } else if (!ReadDecimal(text, &value)) {
      value = std::numeric_limits<double>::quiet_NaN();  // refused by its row below
    }
    if (!CheckField(f, value).ok()) {
      Fail("--" + flag + " (" + text + ") must be " + AllowedValues(f));
    }
    f.set(config, value);
  }
}

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "attention_train_corpus: %s\n", what.c_str());
  std::exit(1);
}

TrainerConfig CorpusDefaults() {
  TrainerConfig fields;  // the rows' defaults, as createCorpusTrainer's
  fields.threads = std::min(AvailableThreads(), TrainerConfig::kMaxThreads);
  return fields;
}

double CorpusTextFlag(const Flags& flags, const char* name) {
  const CorpusTextField& f = CorpusTextFieldNamed(name);
  const std::string text = flags.Get(f.flag);
  double value = std::numeric_limits<double>::quiet_NaN();  // refused by the row below
  if (f.kind == FieldKind::kEnum) {
    const auto it = std::find(f.values.begin(), f.values.end(), text);
    if (it != f.values.end()) value = static_cast<double>(it - f.values.begin());
  } else if (!ReadDecimal(text, &value)) {
    value = std::numeric_limits<double>::quiet_NaN();
  }
  if (!CheckCorpusTextField(f, value, CorpusDoor::kTool).ok()) {
    Fail("--" + f.flag + " (" + text + ") must be " + CorpusAllowedValues(f, CorpusDoor::kTool));
  }
  return value;
}

}  // namespace attention::train
