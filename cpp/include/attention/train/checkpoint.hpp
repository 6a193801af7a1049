// A training run between sittings: the float32 weights, AdamW's two moments and
// its update count, and what the run is, so that a run stopped by its wall-time cap goes on
// where it stopped, with the same schedule, as if it had never stopped. A model file keeps
// float16 weights and no optimizer: it is what a run delivers, a checkpoint how it continues.
//
// Bytes: "AECKPT02", a uint32 (little-endian) header length, the header (a flat JSON object:
// "run", "steps", "parameters", "seconds", "sittings"), then parameters, first and second moment
// as float32 little-endian, `parameters` values each, then the FNV-1a 64 checksum (uint64
// little-endian) of every byte before it. A checkpoint lives for hours beside a run and is
// rewritten often: a flipped bit or a file cut short must be refused, not trained on.
// ("AECKPT01", the format without the checksum, is refused by name.)
//
//   std::vector<uint8_t> bytes;
//   SaveCheckpoint(loop, {run, seconds, sittings}, &bytes);
//   LoadCheckpoint(bytes, run, &loop, &state);   // refuses another run's checkpoint
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention/status.hpp"
#include "attention/train/training_loop.hpp"

namespace attention::train {

struct CheckpointState {
  // What the run is, as its caller describes it (e.g. its settings and data, as JSON): a
  // checkpoint continues only the run it was written by.
  std::string run;
  double seconds = 0.0;  // training wall time of the sittings so far, 0 … kMaxSeconds
  int sittings = 0;      // sittings so far, 0 … kMaxSittings
  static constexpr double kMaxSeconds = 1e12;
  static constexpr int kMaxSittings = 1000000000;
};

Status SaveCheckpoint(const TrainingLoop& loop, const CheckpointState& state,
                      std::vector<uint8_t>* bytes);

// Restores `loop` (made with the run's settings) from `bytes`, and `state` from its header.
// Errors (field "checkpoint"): not a checkpoint (or the older format), damaged (its checksum
// does not match: cut short or changed; or a weight or moment NaN, ±∞, a negative second
// moment), another run's (its "run" differs from `run`), a different parameter count, "steps"
// not an integer from 0 to the loop's totalSteps (a run never goes past its schedule; resuming
// replays the stream of windows to it), "sittings" or "seconds" out of range. Nothing is
// restored unless all is well.
Status LoadCheckpoint(const std::vector<uint8_t>& bytes, const std::string& run, TrainingLoop* loop,
                      CheckpointState* state);

}  // namespace attention::train
