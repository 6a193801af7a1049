// The native corpus trainer (cpp/tools/train_corpus.cpp), run as a user runs it: its flags are
// the engine's trainer fields spelled as the JS command spells them, unknown ones are refused,
// and a short run writes the model file and a JSON report of what it did.
#include "train_corpus_tool.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "attention/train/corpus_fields.hpp"
#include "attention/train/trainer_fields.hpp"

namespace {

namespace fs = std::filesystem;
using attention::testing::Tool;
using attention::testing::ToolRun;

TEST(TrainCorpusTool, RefusesAnUnknownFlagNamingTheFieldsSpellings) {
  const ToolRun run = Tool("--lr 3e-3");
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("unknown flag --lr; flags are:"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("--learning-rate"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("--batch-size"), std::string::npos) << run.output;
}

TEST(TrainCorpusTool, RefusesABadValueBeforeReadingAnything) {
  ToolRun run = Tool("--learning-rate 30 --train /nonexistent");
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("--learning-rate (30) must be a number greater than 0 and at most 10"),
            std::string::npos)
      << run.output;
  run = Tool("--layers 2 --layers 3");
  EXPECT_NE(run.output.find("--layers is given twice"), std::string::npos) << run.output;
  // A recorded true/false flag with another word was taken as false without a word.
  run = Tool("--lowercase yes");
  EXPECT_NE(run.output.find("--lowercase (yes) must be true or false"), std::string::npos)
      << run.output;
  run = Tool("--canon-weighted 1");
  EXPECT_NE(run.output.find("--canon-weighted (1) must be true or false"), std::string::npos)
      << run.output;
  run = Tool("--steps 1.5");
  EXPECT_NE(run.output.find("--steps (1.5) must be an integer"), std::string::npos) << run.output;
}

// The help line of `flag`: "  --flag   what it allows; default X".
std::string HelpLine(const std::string& help, const std::string& flag) {
  const size_t at = help.find("  --" + flag + " ");
  if (at == std::string::npos) return "";
  return help.substr(at, help.find('\n', at) - at);
}

bool EndsWith(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

std::string Shown(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// The two doors of a text model, this tool and createCorpusTrainer, take one set of defaults:
// the rows' (trainer_fields.cpp, corpus_fields.cpp), which JS reads from the engine. Threads
// (every core here) and minLearningRate (learning-rate / 10 here) are the tool's own, said so.
TEST(TrainCorpusTool, DefaultsAreTheRowsTheJsTrainerReads) {
  using namespace attention::train;
  const ToolRun run = Tool("--help");
  ASSERT_EQ(run.status, 0) << run.output;
  const TrainerConfig defaults;
  int checked = 0;
  for (const TrainerField& f : TrainerFields()) {
    const std::string name = f.name;
    if (f.section == FieldSection::kTask || name == "totalSteps") continue;
    const std::string line = HelpLine(run.output, FlagOf(f.name));
    ASSERT_FALSE(line.empty()) << FlagOf(f.name) << " not in\n" << run.output;
    if (name == "threads" || name == "minLearningRate") continue;
    const double value = f.get(defaults);
    const std::string shown = f.kind == FieldKind::kEnum   ? f.values[static_cast<size_t>(value)]
                              : f.kind == FieldKind::kBool ? (value != 0 ? "true" : "false")
                                                           : Shown(value);
    EXPECT_TRUE(EndsWith(line, "; default " + shown)) << line << " (the row's: " << shown << ")";
    ++checked;
  }
  for (const CorpusTextField& f : CorpusTextFields()) {
    if (f.flag.empty()) continue;
    const std::string line = HelpLine(run.output, f.flag);
    const std::string end = f.required ? "; required" : "; default " + Shown(f.fallback);
    EXPECT_TRUE(EndsWith(line, end)) << line << " (the row's: " << end << ")";
    ++checked;
  }
  EXPECT_GT(checked, 20);
}

TEST(TrainCorpusTool, TextOptionsAreCheckedByTheirRowsAtTheToolsBounds) {
  ToolRun run = Tool("--context-length 1");
  EXPECT_NE(run.output.find("--context-length (1) must be an integer from 2 to 2048"),
            std::string::npos)
      << run.output;
  run = Tool("--min-count 1000001");
  EXPECT_NE(run.output.find("--min-count (1000001) must be an integer from 1 to 1000000"),
            std::string::npos)
      << run.output;
  run = Tool("--vocab 4");
  EXPECT_NE(run.output.find("--vocab (4) must be an integer from 5 to 65536"), std::string::npos)
      << run.output;
}

TEST(TrainCorpusTool, AShortRunWritesTheModelAndAReportOfTokensSeen) {
  const fs::path dir =
      fs::temp_directory_path() / ("train_corpus_tool_test." + std::to_string(getpid()));
  fs::create_directories(dir);
  std::string text;
  for (int i = 0; i < 300; ++i) text += "abcde\n";
  std::ofstream(dir / "train.txt") << text;
  std::ofstream(dir / "heldout.txt") << text.substr(0, 200);
  const ToolRun run =
      Tool("--train " + (dir / "train.txt").string() + " --heldout " +
           (dir / "heldout.txt").string() + " --level character --out " +
           (dir / "m.model").string() + " --report " + (dir / "r.json").string() +
           " --steps 4 --batch-size 2 --context-length 8 --d-model 16 --heads 2 --layers 1" +
           " --eval-every 2 --save-every 4 --seed 3");
  ASSERT_EQ(run.status, 0) << run.output;
  ASSERT_TRUE(fs::exists(dir / "m.model"));
  std::ifstream in(dir / "r.json");
  const nlohmann::json report = nlohmann::json::parse(in);
  EXPECT_EQ(report["steps"], 4);
  EXPECT_EQ(report["batchSize"], 2);
  EXPECT_EQ(report["contextLength"], 8);
  EXPECT_EQ(report["tokensSeen"], 4 * 2 * 8);
  EXPECT_GT(report["tokensPerSecond"].get<double>(), 0.0);
  // Not given: the row's default, as createCorpusTrainer's.
  EXPECT_DOUBLE_EQ(report["learningRate"].get<double>(),
                   attention::train::TrainerConfig().optimizer.learning_rate);
  EXPECT_GT(report["heldOutLoss"].get<double>(), 0.0);
  EXPECT_NE(report["command"].get<std::string>().find("--batch-size 2"), std::string::npos);
  // The Kneser–Ney baselines, and the loss by position beside the 5-gram's. The
  // text repeats "abcde↵", so every raw count is about 300 and the count-of-counts n1 … n4 of
  // every order are 0: its discounts are 0 and, given one id or more, the next one has p = 1.
  // At a window's first positions the model of the order the history allows counts raw grams
  // too, so it also knows the text: 0 nats. (Scored with the 5-gram's own lower orders, the
  // continuation counts, all 1 here, D1 = 1 took every count and those targets were uniform,
  // ln V each.) Held-out: 199 targets in windows of 8, 25 at position 1.
  EXPECT_NEAR(report["kn3Loss"].get<double>(), 0.0, 1e-12);
  const nlohmann::json& rows = report["lossByPosition"];
  ASSERT_EQ(rows.size(), 3u);  // 1, 2–4, 5–8 of a context of 8
  EXPECT_EQ(rows[0]["positions"], "1");
  EXPECT_EQ(rows[1]["positions"], "2–4");
  EXPECT_EQ(rows[2]["positions"], "5–8");
  double transformer = 0.0, five_gram = 0.0;
  int64_t targets = 0;
  for (const auto& row : rows) {
    transformer += row["transformer"].get<double>() * row["targets"].get<double>();
    five_gram += row["kn5"].get<double>() * row["targets"].get<double>();
    targets += row["targets"].get<int64_t>();
  }
  EXPECT_EQ(targets, report["heldOutTokens"].get<int64_t>() - 1);
  EXPECT_NEAR(transformer / targets, report["heldOutLoss"].get<double>(), 1e-5);
  EXPECT_NEAR(five_gram / targets, report["kn5Loss"].get<double>(), 1e-12);
  EXPECT_EQ(rows[0]["targets"], 25);
  for (const auto& row : rows) EXPECT_NEAR(row["kn5"].get<double>(), 0.0, 1e-12);

  // A warm restart from that file (--init) counts its steps and tokens too, and records what
  // this run adds to the text: repeated spans and the document start.
  const ToolRun more =
      Tool("--train " + (dir / "train.txt").string() + " --heldout " +
           (dir / "heldout.txt").string() + " --level character --out " +
           (dir / "m2.model").string() + " --report " + (dir / "r2.json").string() +
           " --steps 2 --batch-size 2 --context-length 16 --d-model 16 --heads 2 --layers 1" +
           " --eval-every 2 --seed 4 --repeat-spans 0.5 --document-start newline --init " +
           (dir / "m.model").string());
  EXPECT_NE(more.status, 0) << "a context of 16 is another shape than the file's 8";
  EXPECT_NE(more.output.find("--init: the model's contextLength is 8; this run's is 16"),
            std::string::npos)
      << more.output;
  const ToolRun again =
      Tool("--train " + (dir / "train.txt").string() + " --heldout " +
           (dir / "heldout.txt").string() + " --level character --out " +
           (dir / "m2.model").string() + " --report " + (dir / "r2.json").string() +
           " --steps 2 --batch-size 2 --context-length 8 --d-model 16 --heads 2 --layers 1" +
           " --eval-every 2 --seed 4 --repeat-spans 0.5 --document-start newline --init " +
           (dir / "m.model").string());
  ASSERT_EQ(again.status, 0) << again.output;
  std::ifstream in2(dir / "r2.json");
  const nlohmann::json second = nlohmann::json::parse(in2);
  EXPECT_EQ(second["earlierSteps"], 4);
  EXPECT_EQ(second["earlierTokensSeen"], 4 * 2 * 8);
  EXPECT_EQ(second["repeatSpans"], 0.5);
  std::ifstream file(dir / "m2.model", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  for (const char* key : {"\"trainedSteps\":6", "\"tokensSeen\":96", "\"repeatSpans\":0.5",
                          "\"documentStart\":\"\\u000a\""}) {
    EXPECT_NE(bytes.find(key), std::string::npos) << key;
  }
  const ToolRun bad = Tool("--train " + (dir / "train.txt").string() + " --heldout " +
                           (dir / "heldout.txt").string() + " --level character --out " +
                           (dir / "m3.model").string() + " --report " + (dir / "r3.json").string() +
                           " --steps 1 --document-start X");
  EXPECT_NE(bad.output.find("--document-start (X) must be newline or a symbol"), std::string::npos)
      << bad.output;
  fs::remove_all(dir);
}

// A warm restart on a reweighted text (some lines repeated more often, as the canon polish does)
// counts another vocabulary order from it and is refused; --vocabulary-text counts the
// vocabulary from the text the --init model was counted from, and the restart goes on.
TEST(TrainCorpusTool, AWarmRestartOnAReweightedTextKeepsTheVocabularyOfItsOwnText) {
  const fs::path dir =
      fs::temp_directory_path() / ("train_corpus_vocabulary_text." + std::to_string(getpid()));
  fs::create_directories(dir);
  std::string text;
  for (int i = 0; i < 300; ++i) text += i % 3 == 0 ? "abcde\n" : "abcd\n";
  std::string reweighted = text;
  for (int i = 0; i < 400; ++i) reweighted += "eee\n";
  std::ofstream(dir / "train.txt") << text;
  std::ofstream(dir / "more-e.txt") << reweighted;
  std::ofstream(dir / "heldout.txt") << text.substr(0, 200);
  const std::string common = " --heldout " + (dir / "heldout.txt").string() +
                             " --level character --batch-size 2 --context-length 8 --d-model 16"
                             " --heads 2 --layers 1 --eval-every 2 --force";
  const ToolRun first = Tool("--train " + (dir / "train.txt").string() + common + " --out " +
                             (dir / "m.model").string() + " --report " + (dir / "r.json").string() +
                             " --steps 2 --seed 3");
  ASSERT_EQ(first.status, 0) << first.output;
  const std::string restart = " --out " + (dir / "m2.model").string() + " --report " +
                              (dir / "r2.json").string() + " --steps 2 --seed 4 --init " +
                              (dir / "m.model").string();
  const ToolRun refused = Tool("--train " + (dir / "more-e.txt").string() + common + restart);
  EXPECT_NE(refused.status, 0);
  EXPECT_NE(refused.output.find("--init: the model's vocabulary differs from this run's"),
            std::string::npos)
      << refused.output;
  const ToolRun kept = Tool("--train " + (dir / "more-e.txt").string() + " --vocabulary-text " +
                            (dir / "train.txt").string() + common + restart);
  ASSERT_EQ(kept.status, 0) << kept.output;
  std::ifstream in(dir / "r2.json");
  const nlohmann::json report = nlohmann::json::parse(in);
  EXPECT_EQ(report["earlierSteps"], 2);
  EXPECT_EQ(report["trainTokens"], static_cast<int64_t>(reweighted.size()));
  fs::remove_all(dir);
}

// A run over two sittings, its state kept in a checkpoint, ends with the model of
// the run that never stopped, byte for byte; its batch split into 2 shards.
TEST(TrainCorpusTool, ARunInTwoSittingsEndsWithTheModelOfOne) {
  const fs::path dir =
      fs::temp_directory_path() / ("train_corpus_tool_sittings." + std::to_string(getpid()));
  fs::create_directories(dir);
  std::string text;
  for (int i = 0; i < 200; ++i) text += "the cat sat on the mat " + std::to_string(i % 7) + "\n";
  std::ofstream(dir / "train.txt") << text;
  std::ofstream(dir / "heldout.txt") << text.substr(0, 300);
  const auto train = [&](const std::string& name, const std::string& more) {
    return Tool("--train " + (dir / "train.txt").string() + " --heldout " +
                (dir / "heldout.txt").string() + " --level word --out " +
                (dir / (name + ".model")).string() + " --report " +
                (dir / (name + ".json")).string() +
                " --steps 8 --batch-size 3 --context-length 8 --d-model 16 --heads 2 --layers 1" +
                " --warmup-steps 2 --eval-every 2 --save-every 2 --seed 4 --threads 2" + more);
  };
  const auto bytes = [](const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  ASSERT_EQ(train("one", "").status, 0);
  const std::string checkpoint = " --checkpoint " + (dir / "run.ckpt").string();
  ToolRun run = train("two", checkpoint + " --sitting-steps 5");
  ASSERT_EQ(run.status, 0) << run.output;
  std::ifstream first(dir / "two.json");
  EXPECT_EQ(nlohmann::json::parse(first)["steps"], 5);
  EXPECT_NE(bytes(dir / "two.model"), bytes(dir / "one.model"));
  // The first sitting's model and report exist: the next sitting replaces them with --force
  // (the checkpoint, the run's own state, is resumed in place without it).
  run = train("two", checkpoint);
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("two.model exists; give --force to replace it"), std::string::npos)
      << run.output;
  run = train("two", checkpoint + " --force");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("at step 5"), std::string::npos) << run.output;
  EXPECT_EQ(bytes(dir / "two.model"), bytes(dir / "one.model"));
  std::ifstream in(dir / "two.json");
  const nlohmann::json report = nlohmann::json::parse(in);
  EXPECT_EQ(report["steps"], 8);
  EXPECT_EQ(report["sittings"], 2);
  EXPECT_EQ(report["threads"], 2);
  EXPECT_EQ(report["tokensSeen"], 8 * 3 * 8);
  // Another run's settings: refused, naming the checkpoint.
  run = Tool("--train " + (dir / "train.txt").string() + " --heldout " +
             (dir / "heldout.txt").string() + " --level word --out " + (dir / "x.model").string() +
             " --report " + (dir / "x.json").string() +
             " --steps 9 --batch-size 3 --context-length 8 --d-model 16 --heads 2 --layers 1" +
             checkpoint);
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("written by another run"), std::string::npos) << run.output;
  fs::remove_all(dir);
}

}  // namespace
