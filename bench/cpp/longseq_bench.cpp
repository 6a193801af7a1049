// Long sequences natively: Attend (attend.hpp, the layer's output without a trace) at n = 1,024,
// 2,048 and 4,096, d_model 512, 8 heads of 64, for full attention, a window of 128, Longformer,
// BigBird and linear attention (docs/benchmarks.md, "Long sequences"). One thread, hash
// embeddings. Per case: the median wall and thread-CPU time of the timed runs (the kinds and
// lengths interleaved, one run each per round, after a warm-up round), the buffers Attend counts,
// and the peak resident memory measured in a child process of its own (fork) above the floor,
// a window of width 0 (embeddings, projections, W_O: the same for every kind).
//   longseq_bench [runs] [json-out]   (default 5 rounds; json-out: one line per case, for
//                                      bench/longseq.mjs's WASM ÷ native column)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "attention/attend.hpp"
#include "timing.hpp"

namespace {

using attention::Attended;
using attention::AttentionKind;
using attention::Config;
using attention::Input;
using attention::MaskType;
using attention::bench::ThreadCpuMs;

double WallMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Case {
  const char* name;
  MaskType mask;
  AttentionKind attention;
  int width;
};

// The same five kinds as bench/longseq.mjs. The floor first: every kind's cost above it is its
// attention.
const Case kCases[] = {
    {"floor (window w=0)", MaskType::kWindow, AttentionKind::kSoftmax, 0},
    {"full", MaskType::kNone, AttentionKind::kSoftmax, 0},
    {"window w=128", MaskType::kWindow, AttentionKind::kSoftmax, 128},
    {"longformer w=128, global {0}", MaskType::kLongformer, AttentionKind::kSoftmax, 128},
    {"bigbird w=128, global {0}, b=64, r=2", MaskType::kBigBird, AttentionKind::kSoftmax, 128},
    {"linear", MaskType::kNone, AttentionKind::kLinear, 0},
};
constexpr int kSizes[] = {1024, 2048, 4096};

Config CaseConfig(const Case& c) {
  Config config;
  config.d_model = 512;
  config.heads = 8;
  config.attention = c.attention;
  config.mask.type = c.mask;
  config.mask.width = c.width;
  config.mask.global_tokens = {0};
  config.mask.block = 64;
  config.mask.random = 2;
  config.mask.seed = 1;
  return config;
}

Input Tokens(int n) {
  Input input;
  for (int i = 0; i < n; ++i) input.tokens.push_back("t" + std::to_string(i % 997));
  return input;
}

bool Run(const Case& c, const Input& input, Attended* out) {
  const attention::Status status = attention::Attend(CaseConfig(c), input, out);
  if (!status.ok()) std::fprintf(stderr, "%s: %s\n", c.name, status.message().c_str());
  return status.ok();
}

// The peak resident bytes of a child process that runs the case once (fork: nothing the parent
// freed is reused, and no earlier case raises the high-water mark).
double PeakBytes(const Case& c, int n) {
  const pid_t pid = fork();
  if (pid == 0) {
    Attended out;
    _exit(Run(c, Tokens(n), &out) ? 0 : 1);
  }
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) != pid || status != 0) return -1.0;
  return static_cast<double>(usage.ru_maxrss) * 1024.0;  // kB on Linux
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  FILE* json = argc > 2 ? std::fopen(argv[2], "w") : nullptr;
  constexpr int kKinds = sizeof kCases / sizeof kCases[0];
  constexpr int kLengths = sizeof kSizes / sizeof kSizes[0];
  double peak[kLengths][kKinds];
  for (int s = 0; s < kLengths; ++s) {
    for (int k = 0; k < kKinds; ++k) peak[s][k] = PeakBytes(kCases[k], kSizes[s]);
  }
  std::vector<double> wall[kLengths][kKinds], cpu[kLengths][kKinds];
  double bytes[kLengths][kKinds];
  double scores[kLengths][kKinds];
  for (int r = 0; r <= runs; ++r) {  // round 0 warms up
    for (int s = 0; s < kLengths; ++s) {
      const Input input = Tokens(kSizes[s]);
      for (int k = 0; k < kKinds; ++k) {
        Attended out;
        const double w0 = WallMs();
        const double c0 = ThreadCpuMs();
        if (!Run(kCases[k], input, &out)) return 1;
        const double c1 = ThreadCpuMs();
        const double w1 = WallMs();
        if (r == 0) continue;
        wall[s][k].push_back(w1 - w0);
        cpu[s][k].push_back(c1 - c0);
        bytes[s][k] = static_cast<double>(out.score_bytes);
        scores[s][k] = static_cast<double>(out.computed_scores);
      }
    }
  }
  std::printf(
      "| n | kind | scores a head | wall ms | CPU ms | CPU above floor | full ÷ kind (CPU above "
      "floor) | counted MB | measured peak above floor MB | counted ÷ full's |\n"
      "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (int s = 0; s < kLengths; ++s) {
    const double floor_cpu = Median(cpu[s][0]);
    const double full_above = Median(cpu[s][1]) - floor_cpu;
    for (int k = 0; k < kKinds; ++k) {
      const double w = Median(wall[s][k]);
      const double c = Median(cpu[s][k]);
      const double above = c - floor_cpu;
      std::printf("| %d | %s | %.0f | %.1f | %.1f | %.1f | %s | %.2f | %.1f | %.4f |\n", kSizes[s],
                  kCases[k].name, scores[s][k], w, c, above,
                  k == 0 ? "—" : std::to_string(full_above / above).substr(0, 5).c_str(),
                  bytes[s][k] / 1e6, (peak[s][k] - peak[s][0]) / 1e6, bytes[s][k] / bytes[s][1]);
      if (json != nullptr) {
        std::fprintf(json,
                     "{\"n\":%d,\"kind\":\"%s\",\"wallMs\":%.3f,\"cpuMs\":%.3f,\"scoreBytes\":%.0f,"
                     "\"peakBytes\":%.0f}\n",
                     kSizes[s], kCases[k].name, w, c, bytes[s][k], peak[s][k]);
      }
    }
  }
  if (json != nullptr) std::fclose(json);
  return 0;
}
