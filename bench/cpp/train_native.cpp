// The native reference for training (g++ -O3 -march=native): the same TrainCase as the
// WebAssembly module (train_wasm.cpp), timed with the protocol of bench/timing.mjs.
//   train_native time "<spec>" [weights.f32]   prints {"parameters", "layout", "firstLoss",
//       "memory", "timing"}; writes the initial weights (layout order) and batch 0 to the file
//   train_native log "<spec>" <steps>          prints one StepLog JSON line per step, then
//       {"accuracy": held-out exact match} (toy-task data only)
// <spec>: "key=value …" (ParseTrainSpec in train_case.hpp), e.g. "layers=4 dModel=128".
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "timing.hpp"
#include "train_case.hpp"

namespace {

using attention::Status;
using attention::bench::TrainCase;

int Fail(const Status& status) {
  std::fprintf(stderr, "%s: %s\n", status.field().c_str(), status.message().c_str());
  return 1;
}

// The initial weights [parameters] then batch 0's tokens and targets [B × T] as float32.
void WriteWeights(const char* path, TrainCase& c) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(c.model().parameters()),
            static_cast<std::streamsize>(c.model().parameter_count() * sizeof(float)));
  for (const std::vector<int>* ids : {&c.batch(0).tokens, &c.batch(0).targets}) {
    for (int id : *ids) {
      const float f = static_cast<float>(id);
      out.write(reinterpret_cast<const char*>(&f), sizeof f);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace attention::bench;
  const std::string mode = argc > 2 ? argv[1] : "";
  TrainSpec spec;
  if (mode == "time" || mode == "log") {
    Status status = ParseTrainSpec(argv[2], &spec);
    if (!status.ok()) return Fail(status);
  }
  if (mode == "time" && argc <= 4) {
    TrainCase c(spec);
    if (!c.status().ok()) return Fail(c.status());
    double first_loss = 0.0;
    Status status = c.Evaluate(&first_loss);
    if (!status.ok()) return Fail(status);
    if (argc == 4) WriteWeights(argv[3], c);
    std::printf("{\"parameters\":%zu,\"tokensPerStep\":%d,\"firstLoss\":%.9g,\"memory\":%s,",
                c.model().parameter_count(), c.tokens_per_step(), first_loss,
                c.MemoryJson().c_str());
    std::printf("\"layout\":%s,\"timing\":", c.LayoutJson().c_str());
    std::fflush(stdout);
    PrintTimedSamples([&] { c.Step(); }, TimingProtocol{1.0, 10, 2.0});
    std::printf("}\n");
    return 0;
  }
  if (mode == "log" && argc == 4) {
    TrainCase c(spec);
    if (!c.status().ok()) return Fail(c.status());
    const int steps = std::atoi(argv[3]);
    for (int i = 0; i < steps; ++i) {
      Status status = c.Step();
      if (!status.ok()) return Fail(status);
      std::printf("%s\n", StepLogJson(c.Log()).c_str());
    }
    std::printf("{\"accuracy\":%.6f}\n", c.HeldOutAccuracy(1000));
    return 0;
  }
  std::fprintf(stderr,
               "usage: train_native time \"<spec>\" [weights.f32]\n"
               "       train_native log \"<spec>\" <steps>\n");
  return 2;
}
