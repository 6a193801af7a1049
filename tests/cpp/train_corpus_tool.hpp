// Runs the native corpus trainer (cpp/tools/train_corpus.cpp) as a user does, for the suites
// that test it as a command (train_corpus_tool_test.cpp, train_corpus_files_test.cpp).
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace attention::testing {

struct ToolRun {
  int status;          // std::system's: 0 when the tool exited 0
  std::string output;  // stdout and stderr
};

// `shell` runs before the tool in the same shell (e.g. "ulimit -f 4;"), so it bounds the tool.
inline ToolRun Tool(const std::string& arguments, const std::string& shell = "") {
  namespace fs = std::filesystem;
  // Per process: ctest runs these tests side by side.
  const fs::path log =
      fs::temp_directory_path() / ("train_corpus_tool_test." + std::to_string(getpid()) + ".log");
  // The log is opened before `shell`'s limits apply to the tool's writes.
  const std::string command = "exec >" + log.string() + " 2>&1; " + shell + " exec " +
                              std::string(ATTENTION_TRAIN_CORPUS) + " " + arguments;
  const int status = std::system(command.c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(log);
  return {status, text.str()};
}

}  // namespace attention::testing
