#include "attention/parallel.hpp"

#include <algorithm>

namespace attention {

int AvailableThreads() {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  return 1;
#else
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
#endif
}

ThreadPool::ThreadPool(int threads) {
  const int total = std::max(1, std::min(threads, AvailableThreads()));
  workers_.reserve(static_cast<size_t>(total - 1));
  for (int i = 1; i < total; ++i) workers_.emplace_back([shared = shared_] { Work(shared); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    shared_->stopping = true;
  }
  shared_->wake.notify_all();
  for (std::thread& worker : workers_) {
#ifdef __EMSCRIPTEN_PTHREADS__
    worker.detach();
#else
    worker.join();
#endif
  }
}

ThreadPool& SharedPool() {
  // Leaked on purpose: a static pool's destructor would run at exit while another static's
  // destructor might still use it (natively; the WASM module never runs destructors at exit).
  static ThreadPool* const pool = new ThreadPool(AvailableThreads());
  return *pool;
}

void ThreadPool::Run(int count, const std::function<void(int)>& task) {
  if (count <= 0) return;
  bool idle = false;
  if (workers_.empty() || count == 1 || !busy_.compare_exchange_strong(idle, true)) {
    for (int i = 0; i < count; ++i) task(i);
    return;
  }
  Shared& s = *shared_;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.task = &task;
    s.count = count;
    s.next = 0;
    s.finished = 0;
    ++s.round;
  }
  s.wake.notify_all();
  Drain(s);
  std::unique_lock<std::mutex> lock(s.mutex);
  s.done.wait(lock, [&s] { return s.finished == s.count; });
  s.task = nullptr;
  busy_.store(false);
}

void ThreadPool::Drain(Shared& s) {
  std::unique_lock<std::mutex> lock(s.mutex);
  while (s.task != nullptr && s.next < s.count) {
    const int i = s.next++;
    const std::function<void(int)>& task = *s.task;
    lock.unlock();
    task(i);
    lock.lock();
    if (++s.finished == s.count) s.done.notify_all();
  }
}

void ThreadPool::Work(const std::shared_ptr<Shared>& shared) {
  Shared& s = *shared;
  int64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(s.mutex);
      s.wake.wait(lock, [&] { return s.stopping || s.round != seen; });
      if (s.stopping) return;
      seen = s.round;
    }
    Drain(s);
  }
}

}  // namespace attention
