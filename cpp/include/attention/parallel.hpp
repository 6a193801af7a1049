// The engine's one threading layer: a fixed pool of worker threads that runs a
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
//
// The engine itself (every trainer and every trace) runs on one pool for the process, SharedPool():
// in the threaded WebAssembly build a pool's threads can never be joined (see ~ThreadPool), so a
// pool per trainer left a thread and its stack behind with every trainer, for good.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
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
  // that many − 1 workers, started here. The destructor stops them and joins them, except in
  // the threaded WebAssembly build: there a new thread starts only once the creating thread
  // returns to its event loop (its Web Worker must load first), so a join could wait forever;
  // the destructor lets them go instead, and each exits as soon as it runs.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Calls task(0) … task(count − 1), each exactly once, spread over the pool's threads, and
  // returns when all have returned. The caller takes iterations too, so a Run finishes even if
  // no worker has started yet. A Run while another is under way (from another thread, or from
  // inside a task) runs all its iterations on its caller: the pool is shared, and waiting for it
  // could wait for ourselves.
  void Run(int count, const std::function<void(int)>& task);

 private:
  // What the caller and the workers share; the workers hold it too, so that one let go by the
  // destructor (see above) still finds it when it starts.
  struct Shared {
    std::mutex mutex;
    std::condition_variable wake, done;
    const std::function<void(int)>* task = nullptr;
    int count = 0;
    int next = 0;       // the next iteration to hand out
    int finished = 0;   // iterations that have returned
    int64_t round = 0;  // increases with every Run, so that a worker wakes once per Run
    bool stopping = false;
  };
  static void Work(const std::shared_ptr<Shared>& shared);
  // Takes iterations from `next` until none is left.
  static void Drain(Shared& shared);

  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
  std::vector<std::thread> workers_;
  std::atomic<bool> busy_{false};  // a Run is handing out iterations
};

// The process's one pool of AvailableThreads() threads, made on first use and never destroyed:
// what every trainer's shards and every long trace run on. In the threaded WASM
// build those are the threads of the workers the module starts with (module.js asks for the
// cores less the caller), so no trainer ever needs a new worker.
ThreadPool& SharedPool();

}  // namespace attention
