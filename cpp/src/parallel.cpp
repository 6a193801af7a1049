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
  for (int i = 1; i < total; ++i) workers_.emplace_back([this] { Work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::Run(int count, const std::function<void(int)>& task) {
  if (count <= 0) return;
  if (workers_.empty() || count == 1) {
    for (int i = 0; i < count; ++i) task(i);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    count_ = count;
    next_ = 0;
    finished_ = 0;
    ++round_;
  }
  wake_.notify_all();
  Drain();
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return finished_ == count_; });
  task_ = nullptr;
}

void ThreadPool::Drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (task_ != nullptr && next_ < count_) {
    const int i = next_++;
    const std::function<void(int)>& task = *task_;
    lock.unlock();
    task(i);
    lock.lock();
    if (++finished_ == count_) done_.notify_all();
  }
}

void ThreadPool::Work() {
  int64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || round_ != seen; });
      if (stopping_) return;
      seen = round_;
    }
    Drain();
  }
}

}  // namespace attention
