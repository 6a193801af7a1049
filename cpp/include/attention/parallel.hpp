// The engine's one threading layer (issue 27 §2): a fixed pool of worker threads that runs a
// loop's iterations at once and waits for them all. It serves the native trainer, node and the
// threaded WebAssembly build alike; where there are no threads (the single-threaded WASM build)
// the same pool runs every iteration on the calling thread, in order.
//
// What a caller computes must not depend on which thread ran an iteration: each iteration writes
// only its own outputs, and the caller combines them in iteration order afterwards. Then the
// results are the same for any pool size, bit for bit.
//
//   ThreadPool pool(2);                            // the caller + 1 worker
//   pool.Run(shards, [&](int i) { Work(i); });      // returns when every Work(i) has returned
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace attention {

// The threads this build can run at once: the hardware's in a native or threaded build
// (at least 1), and 1 in a WebAssembly build without threads.
int AvailableThreads();

class ThreadPool {
 public:
  // A pool of min(threads, AvailableThreads()) threads, at least 1: the caller of Run and
  // that many − 1 workers, started here and joined by the destructor.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Calls task(0) … task(count − 1), each exactly once, spread over the pool's threads, and
  // returns when all have returned. Not reentrant: one Run at a time per pool.
  void Run(int count, const std::function<void(int)>& task);

 private:
  void Work();
  // Takes iterations from next_ until none is left; true if it ran the last one.
  void Drain();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int)>* task_ = nullptr;
  int count_ = 0;
  int next_ = 0;       // the next iteration to hand out
  int finished_ = 0;   // iterations that have returned
  int64_t round_ = 0;  // increases with every Run, so that a worker wakes once per Run
  bool stopping_ = false;
};

}  // namespace attention
