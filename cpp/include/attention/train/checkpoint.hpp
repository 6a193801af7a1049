// A training run between sittings: the float32 weights, AdamW's two moments and
// its update count, and what the run is, so that a run stopped by its wall-time cap goes on
// where it stopped, with the same schedule, as if it had never stopped. A model file keeps
// float16 weights and no optimizer: it is what a run delivers, a checkpoint how it continues.
//
// Bytes: "AECKPT01", a uint32 (little-endian) header length, the header (a flat JSON object:
// "run", "steps", "parameters", "seconds", "sittings"), then parameters, first and second moment
// as float32 little-endian, `parameters` values each.
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
  double seconds = 0.0;  // training wall time of the sittings so far
  int sittings = 0;      // sittings so far
};

Status SaveCheckpoint(const TrainingLoop& loop, const CheckpointState& state,
                      std::vector<uint8_t>* bytes);

// Restores `loop` (made with the run's settings) from `bytes`, and `state` from its header.
// Errors (field "checkpoint"): not a checkpoint, truncated or oversized, another run's (its
// "run" differs from `run`), or a different parameter count.
Status LoadCheckpoint(const std::vector<uint8_t>& bytes, const std::string& run, TrainingLoop* loop,
                      CheckpointState* state);

}  // namespace attention::train
