// The thread pool (parallel.hpp): every iteration runs exactly once per Run, on any pool size,
// and Run returns only when all have.
#include "attention/parallel.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
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

TEST(ThreadPool, SharedPoolIsOneForTheProcessWithEveryThread) {
  ThreadPool& pool = SharedPool();
  EXPECT_EQ(&pool, &SharedPool());
  EXPECT_EQ(pool.size(), AvailableThreads());
}

// The shared pool serves every trainer and trace: two threads running on it at once each get
// every iteration exactly once, and neither waits for the other forever.
TEST(ThreadPool, RunsFromTwoThreadsAtOnceEachFinish) {
  ThreadPool& pool = SharedPool();
  constexpr int kRounds = 300;
  std::vector<std::vector<int>> calls(2, std::vector<int>(kRounds * 17, 0));
  const auto caller = [&](int who) {
    for (int round = 0; round < kRounds; ++round) {
      pool.Run(17, [&](int i) { calls[who][static_cast<size_t>(round * 17 + i)]++; });
    }
  };
  std::thread other(caller, 1);
  caller(0);
  other.join();
  for (int who = 0; who < 2; ++who) {
    for (int c : calls[who]) ASSERT_EQ(c, 1) << "caller " << who;
  }
}

// A task that runs a loop on the same pool (a trace inside a training shard, say) runs it on its
// own thread instead of waiting for the pool it is part of.
TEST(ThreadPool, ARunInsideATaskFinishes) {
  ThreadPool& pool = SharedPool();
  std::vector<std::atomic<int>> calls(4 * 5);
  for (auto& c : calls) c = 0;
  pool.Run(4, [&](int outer) {
    pool.Run(5, [&](int inner) { calls[static_cast<size_t>(outer * 5 + inner)]++; });
  });
  for (const auto& c : calls) EXPECT_EQ(c.load(), 1);
}

}  // namespace
}  // namespace attention
