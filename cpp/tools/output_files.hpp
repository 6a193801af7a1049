// The files the native tools write, under the JS command's rules (bin/model_files.mjs): every
// output path is checked before any work, and each file is written whole or not at all.
//
//   std::vector<OutputFile> out;
//   CheckOutputs({{"out", "m.model"}, {"report", "r.json"}}, {{"train", "t.txt"}}, force, &out);
//   … train …
//   WriteFileWhole(out[0].target, bytes, force);
//
// Checked before the first step: an existing file is refused without --force (the checkpoint,
// resumed in place, excepted); so are a folder or other non-file, a missing folder, a dangling
// symbolic link, two outputs naming the same file, and an output naming an input (compared by
// device and inode where the file exists, else by the resolved path), since a run would train
// for hours and then destroy its own input or one output with another.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention/status.hpp"

namespace attention::train {

struct PathFlag {
  std::string flag;  // without the dashes: "out"
  std::string path;  // as given; "" when the flag is not given (skipped)
};

struct OutputFile {
  std::string flag, path;
  // Where the bytes go: the path, or the file a symbolic link names (the link is kept).
  std::string target;
  bool exists = false;
};

// Checks `outputs` against each other and against `inputs`; `resumable` names the one output
// that may exist without `force` (the checkpoint, "" for none). Errors name the flag (field: the
// flag without dashes) and the path. `checked` gets the outputs given, in order.
Status CheckOutputs(const std::vector<PathFlag>& outputs, const std::vector<PathFlag>& inputs,
                    bool force, const std::string& resumable, std::vector<OutputFile>* checked);

// Writes `bytes` to a new file beside `target` (".<name>.<pid>.tmp"), flushes it to the disk,
// then moves it onto `target`: a write cut short (a full disk, `ulimit -f`) or a process killed
// at any moment leaves the old file whole, never a part of the new one. Without `replace` an
// existing file is never replaced, even one made since CheckOutputs. The error names `flag`.
Status WriteFileWhole(const std::string& flag, const std::string& target,
                      const std::vector<uint8_t>& bytes, bool replace);

}  // namespace attention::train
