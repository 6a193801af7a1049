// The thread pool (parallel.hpp): every iteration runs exactly once per Run, on any pool size,
// and Run returns only when all have.
#include "attention/parallel.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

namespace attention {
namespace {

TEST(ThreadPool, RunsEveryIterationOnceAndWaitsForAll) {
  for (int threads : {1, 2, 3, 8}) {
    ThreadPool pool(threads);
    EXPECT_GE(pool.size(), 1);
    EXPECT_LE(pool.size(), AvailableThreads());
    for (int round = 0; round < 200; ++round) {
      const int count = round % 37;
      std::vector<std::atomic<int>> calls(static_cast<size_t>(count));
      for (auto& c : calls) c = 0;
      pool.Run(count, [&](int i) { calls[static_cast<size_t>(i)]++; });
      for (int i = 0; i < count; ++i) {
        ASSERT_EQ(calls[static_cast<size_t>(i)].load(), 1)
            << "pool of " << threads << ", round " << round << ", iteration " << i;
      }
    }
  }
}

TEST(ThreadPool, UsesMoreThanOneThreadWhereThereAreCores) {
  if (AvailableThreads() < 2) GTEST_SKIP() << "one core";
  ThreadPool pool(2);
  ASSERT_EQ(pool.size(), 2);
  // Two iterations that each wait for the other: they finish only if they run at once.
  std::atomic<int> arrived{0};
  pool.Run(2, [&](int) {
    arrived++;
    while (arrived.load() < 2) {
    }
  });
  EXPECT_EQ(arrived.load(), 2);
}

}  // namespace
}  // namespace attention
