// The native reference (g++ -O3 -march=native): the same engine and the same workload as the
// WebAssembly module, timed with the same protocol as bench/run.mjs (see bench/timing.mjs).
//   native_bench forward <n> <d> <heads> <in.f32> <out.f32>   in: X, W_Q, W_K, W_V, W_O
//   native_bench gemm <m> <k> <n> <in.f32> <out.f32>          in: A [m × k], B [k × n]
// Prints {"samples":[ms per run, ...],"batch":runs per sample} and writes the result to out.f32.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "timing.hpp"
#include "workload.hpp"

namespace {

std::vector<float> ReadFloats(const char* path, size_t count) {
  std::vector<float> data(count);
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(count * 4));
  if (!in) {
    std::fprintf(stderr, "cannot read %zu floats from %s\n", count, path);
    std::exit(1);
  }
  return data;
}

void WriteFloats(const char* path, const attention::Matrix& m) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(m.data()), static_cast<std::streamsize>(m.size() * 4));
}

}  // namespace

int main(int argc, char** argv) {
  using namespace attention::bench;
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "forward" && argc == 7) {
    const int n = std::atoi(argv[2]), d = std::atoi(argv[3]), heads = std::atoi(argv[4]);
    const size_t nd = static_cast<size_t>(n) * d, dd = static_cast<size_t>(d) * d;
    const std::vector<float> in = ReadFloats(argv[5], nd + 4 * dd);
    Forward forward(n, d, heads);
    const char* names[] = {"x", "wQ", "wK", "wV", "wO"};
    const float* p = in.data();
    for (const char* name : names) {
      forward.SetMatrix(name, p);
      p += name[0] == 'x' ? nd : dd;
    }
    const attention::Status status = forward.Run();
    if (!status.ok()) {
      std::fprintf(stderr, "%s\n", status.message().c_str());
      return 1;
    }
    attention::Matrix output;
    forward.trace().Copy("output", 0, &output);
    WriteFloats(argv[6], output);
    PrintTimedSamples(
        [&] {
          forward.Run();
          forward.trace().Copy("output", 0, &output);
        },
        {});
    return 0;
  }
  if (mode == "gemm" && argc == 7) {
    const int m = std::atoi(argv[2]), k = std::atoi(argv[3]), n = std::atoi(argv[4]);
    const size_t mk = static_cast<size_t>(m) * k, kn = static_cast<size_t>(k) * n;
    const std::vector<float> in = ReadFloats(argv[5], mk + kn);
    GemmCase gemm(m, k, n);
    std::copy(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(mk), gemm.a());
    std::copy(in.begin() + static_cast<std::ptrdiff_t>(mk), in.end(), gemm.b());
    gemm.Run();
    WriteFloats(argv[6], gemm.c());
    PrintTimedSamples([&] { gemm.Run(); }, {});
    return 0;
  }
  std::fprintf(stderr,
               "usage: native_bench forward <n> <d> <heads> <in.f32> <out.f32>\n"
               "       native_bench gemm <m> <k> <n> <in.f32> <out.f32>\n");
  return 2;
}
