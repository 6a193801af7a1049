// --init of attention_train_corpus: a warm restart from a model file, which must be a model of
// this run's whole configuration and vocabulary (a 2-head model has as many parameters as a
// 4-head one of the same width: counting them is not enough), and whose counts carried over
// are honest integers the model file's JSON numbers hold exactly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention/status.hpp"
#include "attention/train/model.hpp"
#include "attention/train/model_io.hpp"

namespace attention::train {

// The largest trainedSteps and tokensSeen a model file records: 2^53, the largest integer below
// which every integer is a double (a JSON number), so that sums never round.
constexpr double kMaxRecordedCount = 9007199254740992.0;

struct EarlierTraining {
  int64_t steps = 0;    // the file's "trainedSteps"
  double tokens = 0.0;  // its "tokensSeen" (0 when it has none); an integer
};

// Checks `init` against this run: every key of the model configuration but initStd (only the
// starting weights, which the file replaces) in the tables' order (vocabSize, contextLength, then
// the model's rows of trainer_fields.cpp), not the file's alphabetical one, then the vocabulary
// symbol by symbol, naming the first that differs; then "trainedSteps" and "tokensSeen", each an
// integer from 0 to kMaxRecordedCount. Field "init".
Status CheckInitModel(const LoadedModel& init, const ModelConfig& run,
                      const std::vector<std::string>& vocabulary, EarlierTraining* earlier);

}  // namespace attention::train
