// The native programs' timing protocol, mirroring bench/timing.mjs: warm up for `warmup`
// seconds, then samples of `batch` runs each (batch chosen so that a sample lasts about 20 ms)
// until there are at least `min_samples` samples and `min_seconds` have passed.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <vector>

namespace attention::bench {

struct TimingProtocol {
  double warmup = 0.5;
  int min_samples = 7;
  double min_seconds = 1.0;
};

// This thread's CPU time in milliseconds: on a shared machine, the work and not the wait.
inline double ThreadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

// Prints {"batch":runs per sample,"samples":[ms per run, …],"cpu":[CPU ms per run, …]} on one
// line: wall clock, and this thread's CPU time (on a shared machine: the work, not the wait).
inline void PrintTimedSamples(const std::function<void()>& run, const TimingProtocol& protocol) {
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::time_point since) {
    return std::chrono::duration<double>(Clock::now() - since).count();
  };
  const Clock::time_point warm = Clock::now();
  int runs = 0;
  while (seconds(warm) < protocol.warmup || runs < 2) {
    run();
    ++runs;
  }
  const double per_run = seconds(warm) / runs;
  const int batch = std::max(1, static_cast<int>(0.02 / per_run));
  std::vector<double> samples, cpu;
  const Clock::time_point start = Clock::now();
  while (static_cast<int>(samples.size()) < protocol.min_samples ||
         seconds(start) < protocol.min_seconds) {
    const Clock::time_point t = Clock::now();
    const double c = ThreadCpuMs();
    for (int i = 0; i < batch; ++i) run();
    cpu.push_back((ThreadCpuMs() - c) / batch);
    samples.push_back(seconds(t) * 1e3 / batch);
  }
  std::printf("{\"batch\":%d,\"samples\":[", batch);
  for (size_t i = 0; i < samples.size(); ++i) std::printf(i ? ",%.6f" : "%.6f", samples[i]);
  std::printf("],\"cpu\":[");
  for (size_t i = 0; i < cpu.size(); ++i) std::printf(i ? ",%.6f" : "%.6f", cpu[i]);
  std::printf("]}\n");
}

}  // namespace attention::bench
