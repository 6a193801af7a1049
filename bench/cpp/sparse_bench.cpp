// Sparse and local attention against full attention, natively: one trace (Trace::Run, one
// thread, hash embeddings, d_model 64, 4 heads) per pattern and length, and what the heads'
// n×m buffers would hold. Prints one line per case and a Markdown table (docs/benchmarks.md,
// "Sparse and local attention").
//   sparse_bench [runs]     (default 5 timed runs per case; the median CPU time is printed)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "attention/trace.hpp"
#include "timing.hpp"

namespace {

using attention::Config;
using attention::Input;
using attention::MaskType;
using attention::Trace;
using attention::bench::ThreadCpuMs;

struct Case {
  const char* name;
  MaskType type;
};

// The bytes a head's score buffers take at their peak. Dense (Trace::Run's softmax head): the
// scores and the weights, n×m floats each, and the trace's mask (n×m bytes and n×m floats for
// its step). Sparse: the pattern (a key index per pair, a row offset per query) and two rows of
// the longest row (sparse_attention.cpp).
double ScoreBytes(const Trace& trace, bool sparse, int n) {
  const double nm = static_cast<double>(n) * n;
  if (!sparse) return nm * (4 + 4) + nm * (1 + 4);
  const double pairs = static_cast<double>(trace.computed_scores());
  return pairs * 4 + (n + 1) * 8.0 + 2 * 4.0 * n;  // the longest row is at most n
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  // window w=0 (each query sees only itself) is the floor: embeddings, projections, W_O.
  const Case cases[] = {{"window w=0 (floor)", MaskType::kWindow},
                        {"full", MaskType::kNone},
                        {"window w=32", MaskType::kWindow},
                        {"longformer w=32, global {0}", MaskType::kLongformer},
                        {"bigbird w=32, global {0}, b=32, r=2", MaskType::kBigBird}};
  std::printf(
      "| n | pattern | scores computed | fraction | trace CPU ms (median of %d) | "
      "above the floor, ms | ns per computed score | score buffers MB |\n"
      "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
      runs);
  for (int n : {512, 1024, 2048}) {
    Input input;
    for (int i = 0; i < n; ++i) input.tokens.push_back("t" + std::to_string(i % 997));
    double floor_ms = 0.0, floor_pairs = 0.0;
    for (const Case& c : cases) {
      const bool is_floor = &c == &cases[0];
      Config config;
      config.d_model = 64;
      config.heads = 4;
      config.mask.type = c.type;
      config.mask.width = is_floor ? 0 : 32;
      config.mask.global_tokens = {0};
      config.mask.block = 32;
      config.mask.random = 2;
      config.mask.seed = 1;
      Trace trace;
      std::vector<double> ms;
      for (int r = 0; r <= runs; ++r) {  // run 0 warms up
        const double start = ThreadCpuMs();
        const attention::Status status = Trace::Run(config, input, &trace);
        if (!status.ok()) {
          std::fprintf(stderr, "%s\n", status.message().c_str());
          return 1;
        }
        if (r > 0) ms.push_back(ThreadCpuMs() - start);
      }
      std::sort(ms.begin(), ms.end());
      const double pairs = static_cast<double>(trace.computed_scores());
      const bool sparse = c.type != MaskType::kNone;
      const double median = ms[ms.size() / 2];
      if (is_floor) {
        floor_ms = median;
        floor_pairs = pairs;
      }
      const double above = median - floor_ms;
      std::printf("| %d | %s | %.0f | %.4f | %.2f | %.2f | %.1f | %.2f |\n", n, c.name, pairs,
                  pairs / (static_cast<double>(n) * n), median, above,
                  is_floor ? 0.0 : above * 1e6 / (pairs - floor_pairs),
                  ScoreBytes(trace, sparse, n) / 1e6);
      std::fflush(stdout);
    }
  }
  return 0;
}
