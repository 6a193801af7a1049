// The native corpus trainer's files (cpp/tools/output_files.hpp, init_model.hpp): every output
// path is checked before anything is read or trained, an existing file is replaced only with
// --force and then whole (a write cut short or a process killed mid-write leaves the old file),
// no output may name another or an input, --init must be a model of the run's configuration with
// honest counts, and number flags are decimal numbers in their range.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "attention/train/model_io.hpp"
#include "output_files.hpp"
#include "train_corpus_tool.hpp"

namespace attention::train {
namespace {

namespace fs = std::filesystem;
using testing::Tool;
using testing::ToolRun;

std::string Bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void Write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

class TrainCorpusFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("train_corpus_files." + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::string text;
    for (int i = 0; i < 300; ++i) text += "abcde\n";
    Write(dir_ / "train.txt", text);
    Write(dir_ / "heldout.txt", text.substr(0, 200));
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string P(const std::string& name) const { return (dir_ / name).string(); }

  // A 2-step run of a tiny model; `outputs` are its --out, --report (and more) flags.
  ToolRun Train(const std::string& outputs, const std::string& more = "",
                const std::string& shell = "") const {
    return Tool("--train " + P("train.txt") + " --heldout " + P("heldout.txt") +
                    " --level character --steps 2 --batch-size 2 --context-length 8 --d-model 16" +
                    " --layers 1 --eval-every 1 --seed 3 --threads 1 " + outputs + " " + more,
                shell);
  }

  // The run was refused with `message` before anything was read: not a step, not a baseline.
  static void ExpectRefusedFirst(const ToolRun& run, const std::string& message) {
    EXPECT_NE(run.status, 0) << run.output;
    EXPECT_NE(run.output.find(message), std::string::npos) << run.output;
    EXPECT_EQ(run.output.find("vocabulary "), std::string::npos) << "read before refusing";
  }

  fs::path dir_;
};

TEST_F(TrainCorpusFiles, AnExistingFileIsKeptWithoutForceAndReplacedWholeWithIt) {
  Write(dir_ / "m.model", "an unrelated file");
  ExpectRefusedFirst(Train("--out " + P("m.model") + " --report " + P("r.json")),
                     P("m.model") + " exists; give --force to replace it, or another --out");
  EXPECT_EQ(Bytes(dir_ / "m.model"), "an unrelated file");
  Write(dir_ / "r.json", "{}");
  ExpectRefusedFirst(Train("--out " + P("new.model") + " --report " + P("r.json")),
                     "r.json exists; give --force to replace it, or another --report");
  // A link to a file counts as the file; with --force the file is replaced and the link kept.
  fs::create_symlink(dir_ / "m.model", dir_ / "link.model");
  ExpectRefusedFirst(Train("--out " + P("link.model") + " --report " + P("r2.json")),
                     "link.model exists; give --force");
  EXPECT_EQ(Bytes(dir_ / "m.model"), "an unrelated file");
  const ToolRun run = Train("--out " + P("link.model") + " --report " + P("r.json") + " --force");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.model"));
  EXPECT_EQ(Bytes(dir_ / "m.model").substr(0, 4), Bytes(dir_ / "link.model").substr(0, 4));
  EXPECT_NE(Bytes(dir_ / "m.model"), "an unrelated file");
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_NE(entry.path().extension(), ".tmp") << "a temporary file left: " << entry.path();
  }
}

TEST_F(TrainCorpusFiles, AnOutputThatCannotBeWrittenIsRefusedBeforeTraining) {
  fs::create_directories(dir_ / "folder");
  ExpectRefusedFirst(Train("--out " + P("folder") + " --report " + P("r.json") + " --force"),
                     "--out (" + P("folder") + ") must be a regular file, not a folder");
  ExpectRefusedFirst(Train("--out " + P("missing/m.model") + " --report " + P("r.json")),
                     "(no folder " + P("missing") + ")");
  fs::create_symlink(dir_ / "nowhere.model", dir_ / "dangling.model");
  ExpectRefusedFirst(Train("--out " + P("dangling.model") + " --report " + P("r.json")),
                     "--out (" + P("dangling.model") + ") is a symbolic link to a missing file (" +
                         P("nowhere.model") + ")");
  EXPECT_FALSE(fs::exists(dir_ / "nowhere.model"));
  ExpectRefusedFirst(
      Train("--out " + P("m.model") + " --report " + P("r.json") + " --checkpoint " + P("folder")),
      "--checkpoint (" + P("folder") + ") must be a regular file, not a folder");
}

TEST_F(TrainCorpusFiles, OutputsMustNotNameEachOtherOrAnInput) {
  const std::string train = Bytes(dir_ / "train.txt");
  ExpectRefusedFirst(
      Train("--out " + P("train.txt") + " --report " + P("r.json") + " --force"),
      "--out (" + P("train.txt") + ") names the --train file; an output must not replace an input");
  ExpectRefusedFirst(Train("--out " + P("m.model") + " --report " + P("m.model")),
                     "--out and --report name the same file (" + P("m.model") + ")");
  ExpectRefusedFirst(Train("--out " + P("m.model") + " --report " + P("./r.json") +
                           " --checkpoint " + P("r.json")),
                     "--report and --checkpoint name the same file");
  // Another name of the same file: a hard link, a path through a link to the folder.
  fs::create_hard_link(dir_ / "train.txt", dir_ / "hard.txt");
  ExpectRefusedFirst(Train("--out " + P("m.model") + " --report " + P("hard.txt") + " --force"),
                     "--report (" + P("hard.txt") + ") names the --train file");
  fs::create_directory_symlink(dir_, dir_ / "again");
  ExpectRefusedFirst(
      Train("--out " + P("again/heldout.txt") + " --report " + P("r.json") + " --force"),
      "names the --heldout file");
  ExpectRefusedFirst(Train("--out " + P("m.model") + " --report " + P("r.json") + " --checkpoint " +
                           P("again/m.model")),
                     "--out and --checkpoint name the same file");
  EXPECT_EQ(Bytes(dir_ / "train.txt"), train);
  ASSERT_EQ(Train("--out " + P("m.model") + " --report " + P("r.json")).status, 0);
  ExpectRefusedFirst(Train("--out " + P("m.model") + " --report " + P("r2.json") + " --force",
                           "--init " + P("m.model")),
                     "--out (" + P("m.model") + ") names the --init file");
}

// As a full disk would: the old file stays whole, the tool says why and exits non-zero.
TEST_F(TrainCorpusFiles, AWriteCutShortKeepsTheOldFile) {
  ASSERT_EQ(Train("--out " + P("m.model") + " --report " + P("r.json")).status, 0);
  const std::string old = Bytes(dir_ / "m.model");
  ASSERT_GT(old.size(), 4096u);
  // 4 blocks of 512 bytes (sh's unit): the model does not fit.
  const ToolRun run = Train("--out " + P("m.model") + " --report " + P("r.json") + " --force",
                            "--learning-rate 1e-2", "ulimit -f 4;");
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("--out: cannot write " + P("m.model") + ": File too large"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(Bytes(dir_ / "m.model"), old);
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_NE(entry.path().extension(), ".tmp") << "a temporary file left: " << entry.path();
  }
}

// A process killed at any moment of a save leaves the old file or the new one, never a part:
// a child rewrites the file in a loop, alternating two contents, and is killed at a random time.
TEST(TrainOutputFiles, AWriterKilledMidWriteLeavesTheOldFileOrTheNew) {
  const fs::path dir =
      fs::temp_directory_path() / ("train_output_files." + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string target = (dir / "m.model").string();
  std::vector<uint8_t> a(4 << 20, 'a'), b(3 << 20, 'b');
  ASSERT_TRUE(WriteFileWhole("out", target, a, true).ok());
  uint32_t state = 12345;
  int kills = 0;
  for (int round = 0; round < 12; ++round) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      for (int i = 0;; ++i) WriteFileWhole("out", target, i % 2 ? a : b, true);
    }
    state = state * 1664525u + 1013904223u;
    usleep(2000 + (state >> 8) % 60000);
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    kills += WIFSIGNALED(status) ? 1 : 0;
    const std::string bytes = Bytes(target);
    EXPECT_TRUE(bytes == std::string(a.begin(), a.end()) ||
                bytes == std::string(b.begin(), b.end()))
        << "round " << round << ": " << bytes.size() << " bytes";
    // The killed writer's temporary file is all it leaves; the next rounds' have other names.
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.path().extension() == ".tmp") fs::remove(entry.path());
    }
  }
  EXPECT_EQ(kills, 12);
  fs::remove_all(dir);
}

// Without replace (no --force) a file made since the check is never replaced.
TEST(TrainOutputFiles, WithoutReplaceAFileThatAppearedIsKept) {
  const fs::path dir =
      fs::temp_directory_path() / ("train_output_appeared." + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string target = (dir / "m.model").string();
  Write(target, "theirs");
  const Status status = WriteFileWhole("out", target, {'m', 'i', 'n', 'e'}, false);
  EXPECT_EQ(status.message(), target + " appeared during training; give --force to replace it");
  EXPECT_EQ(Bytes(target), "theirs");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

// The model file at `from`, saved to `to` with its `key` set to `value`.
void Rewrite(const fs::path& from, const fs::path& to, const std::string& key, double value) {
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(ReadFileBytes(from.string(), &bytes).ok());
  LoadedModel model;
  ASSERT_TRUE(LoadModel(bytes.data(), bytes.size(), &model).ok());
  const FlatJson own = ModelConfigJson(model.model->config());
  FlatJson extra;
  for (const auto& [name, v] : model.config.values()) {
    if (own.Has(name)) continue;
    if (v.kind == FlatJson::Value::Kind::kNumber) extra.SetNumber(name, v.number);
    if (v.kind == FlatJson::Value::Kind::kString) extra.SetString(name, v.text);
    if (v.kind == FlatJson::Value::Kind::kBool) extra.SetBool(name, v.boolean);
  }
  extra.SetNumber(key, value);
  ASSERT_TRUE(SaveModel(*model.model, model.vocabulary, extra, TensorType::kFloat16, &bytes).ok());
  Write(to, std::string(bytes.begin(), bytes.end()));
}

TEST_F(TrainCorpusFiles, InitMustBeAModelOfTheRunsConfigurationWithHonestCounts) {
  ASSERT_EQ(Train("--out " + P("two.model") + " --report " + P("r.json"), "--heads 2").status, 0);
  const auto init = [&](const std::string& model, const std::string& more = "") {
    return Train("--out " + P("next.model") + " --report " + P("next.json") + " --force",
                 "--init " + P(model) + " " + more);
  };
  // 4 heads of width 4 have the parameters of 2 heads of width 8: counting them is not enough.
  ToolRun run = init("two.model");
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("--init: the model's heads is 2; this run's is 4"), std::string::npos)
      << run.output;
  EXPECT_EQ(run.output.find("step "), std::string::npos);
  // Counts past 2^31 add up in 64 bits; negative, fractional or huge ones are refused.
  Rewrite(dir_ / "two.model", dir_ / "big.model", "trainedSteps", 2147483647);
  run = init("big.model", "--heads 2");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(Bytes(dir_ / "next.model").find("\"trainedSteps\":2147483649"), std::string::npos);
  for (const auto& [key, value, text] : std::vector<std::tuple<std::string, double, std::string>>{
           {"tokensSeen", -5, "-5"},
           {"tokensSeen", 1e308, "1e+308"},
           {"trainedSteps", 1.5, "1.5"},
           {"trainedSteps", 9007199254740994.0, "9007199254740994"}}) {
    Rewrite(dir_ / "two.model", dir_ / "bad.model", key, value);
    run = init("bad.model", "--heads 2");
    EXPECT_NE(run.status, 0);
    EXPECT_NE(run.output.find("--init: the model's " + key + " (" + text +
                              ") must be an integer from 0 to 9007199254740992"),
              std::string::npos)
        << run.output;
  }
}

TEST_F(TrainCorpusFiles, NumberFlagsAreDecimalNumbersInTheirRange) {
  const std::string files = "--out " + P("m.model") + " --report " + P("r.json");
  for (const char* text :
       {"0x1p-1", "' 0.5'", "'0.5 '", "1e-320", "inf", "nan", "0.5x", "1e", ".", "2"}) {
    // A corpus trainer field: read as a decimal, then checked by its row.
    ExpectRefusedFirst(Train(files, std::string("--repeat-spans ") + text),
                       "must be a number from 0 to 1");
  }
  ExpectRefusedFirst(Train(files, "--seconds 0x10"), "--seconds (0x10) must be a decimal number");
  ExpectRefusedFirst(Train(files, "--seconds 1e10"), "from 0 to 1000000000");
  ExpectRefusedFirst(Train(files, "--sitting-steps ' 5'"),
                     "--sitting-steps ( 5) must be an integer");
  ExpectRefusedFirst(Train(files, "--vocab 0x20"), "--vocab (0x20) must be an integer from 5");
  // A trainer field: its row's range.
  ExpectRefusedFirst(Train(files, "--weight-decay 1e-320"), "--weight-decay (1e-320) must be");
  ExpectRefusedFirst(Train(files, "--learning-rate 0x1p-9"), "--learning-rate (0x1p-9) must be");
  // What JSON writes is still read: signs, a leading point, an exponent.
  const ToolRun run = Train(files, "--repeat-spans .5e0 --seconds +1e3 --weight-decay 0.1E-1");
  EXPECT_EQ(run.status, 0) << run.output;
}

}  // namespace
}  // namespace attention::train
