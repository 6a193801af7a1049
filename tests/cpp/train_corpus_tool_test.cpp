// The native corpus trainer (cpp/tools/train_corpus.cpp), run as a user runs it: its flags are
// the engine's trainer fields spelled as the JS command spells them, unknown ones are refused,
// and a short run writes the model file and a JSON report of what it did.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

struct ToolRun {
  int status;
  std::string output;  // stdout and stderr
};

ToolRun Tool(const std::string& arguments) {
  // Per process: ctest runs these tests side by side.
  const fs::path log =
      fs::temp_directory_path() / ("train_corpus_tool_test." + std::to_string(getpid()) + ".log");
  const std::string command =
      std::string(ATTENTION_TRAIN_CORPUS) + " " + arguments + " >" + log.string() + " 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(log);
  return {status, text.str()};
}

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
  run = Tool("--steps 1.5");
  EXPECT_NE(run.output.find("--steps (1.5) must be an integer"), std::string::npos) << run.output;
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
  EXPECT_DOUBLE_EQ(report["learningRate"].get<double>(), 3e-3);
  EXPECT_GT(report["heldOutLoss"].get<double>(), 0.0);
  EXPECT_NE(report["command"].get<std::string>().find("--batch-size 2"), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
