// GPT-2 small natively (bench/gpt2-small.mjs runs it beside the WASM engine): the engine as the
// shipped library computes it, on a checkpoint folder (config.json + model.safetensors, e.g. from
// bench/make_gpt2_small.py). Prints one JSON line:
//   {"loadSeconds": s, "loadCpuSeconds": s, "peakRssMB": MB after loading, "rows": [{"tokens": n,
//    "forward": {samples…}, "trace": {samples…}}, …], "peakRssMBEnd": MB}
// "forward" is what the page's layerInput runs (the embedding and every block, ForwardThrough
// the last layer: no logits over the vocabulary); "trace" is TraceModel (the whole forward pass
// with the logits, then every layer's attention with every head and step), what a trace is;
// "logits" the forward pass with the logits of every position alone.
//   gpt2_native <folder> <tokens>…
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "attention/train/gpt2_checkpoint.hpp"
#include "attention/train/model_file.hpp"
#include "attention/train/model_trace.hpp"
#include "timing.hpp"

namespace {

using attention::Status;
namespace train = attention::train;

void Check(const Status& status, const char* what) {
  if (!status.ok()) {
    std::fprintf(stderr, "%s: %s\n", what, status.message().c_str());
    std::exit(1);
  }
}

double PeakRssMB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: kilobytes
}

// The same ids as bench/gpt2-small.mjs: spread over the vocabulary, reproducible.
std::vector<int> Tokens(int n, int vocab) {
  std::vector<int> ids(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) ids[static_cast<size_t>(i)] = (i * 7919 + 13) % vocab;
  return ids;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: gpt2_native <folder> <tokens>…\n");
    return 2;
  }
  const std::string folder = argv[1];
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu = std::clock();
  std::vector<uint8_t> config, weights;
  Check(train::ReadFileBytes(folder + "/config.json", &config, 1 << 20), "config.json");
  Check(train::ReadFileBytes(folder + "/model.safetensors", &weights, uint64_t{1} << 31),
        "model.safetensors");
  std::unique_ptr<train::Model<float>> model;
  Check(train::LoadGpt2Checkpoint(std::string(config.begin(), config.end()), weights.data(),
                                  weights.size(), &model),
        "checkpoint");
  std::vector<uint8_t>().swap(weights);
  const double load =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double load_cpu = static_cast<double>(std::clock() - cpu) / CLOCKS_PER_SEC;
  std::printf(
      "{\"loadSeconds\":%.3f,\"loadCpuSeconds\":%.3f,\"peakRssMB\":%.1f,\"hasGradients\":%s,"
      "\"rows\":[",
      load, load_cpu, PeakRssMB(), model->has_gradients() ? "true" : "false");
  const attention::bench::TimingProtocol protocol{0.3, 5, 1.0};
  for (int a = 2; a < argc; ++a) {
    const int n = std::atoi(argv[a]);
    train::Batch batch;
    batch.size = 1;
    batch.length = n;
    batch.tokens = Tokens(n, model->config().vocab_size);
    std::printf("%s{\"tokens\":%d,\"forward\":", a > 2 ? "," : "", n);
    std::fflush(stdout);
    attention::bench::PrintTimedSamples(
        [&] {
          Check(model->ForwardThrough(batch, model->config().layers - 1,
                                      train::Outputs::kLastPosition),
                "forward");
        },
        protocol);
    // The whole forward pass with the logits and probabilities of every position, as a trace
    // runs it first: what a trace costs beyond "forward" that is not the layers' attention.
    std::printf(",\"logits\":");
    std::fflush(stdout);
    attention::bench::PrintTimedSamples([&] { Check(model->Forward(batch), "logits"); }, protocol);
    std::printf(",\"trace\":");
    std::fflush(stdout);
    attention::bench::PrintTimedSamples(
        [&] {
          train::ModelTrace trace;
          Check(train::TraceModel(model.get(), batch.tokens, {}, &trace), "trace");
        },
        protocol);
    std::printf("}");
  }
  std::printf("],\"peakRssMBEnd\":%.1f}\n", PeakRssMB());
  return 0;
}
