#include "base/task_pool.h"

#include "base/background_thread.h"

namespace ronin {

TaskPool::TaskPool(size_t threads) : thread_count_(threads ? threads : 1) {}

TaskPool::~TaskPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void TaskPool::Post(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(task));
    ++pending_;
  }
  if (threads_.empty()) {
    for (size_t i = 0; i < thread_count_; ++i)
      threads_.push_back(StartBackgroundThread(&TaskPool::Serve, this));
  }
  work_.notify_one();
}

void TaskPool::Drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [this] { return pending_ == 0; });
}

size_t TaskPool::pending() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pending_;
}

void TaskPool::Serve() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    // What is queued runs even when stopping: a task may own resources
    // that only it releases (a command's pipe end).
    work_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;
    std::function<void()> task = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    task();
    lock.lock();
    if (--pending_ == 0) idle_.notify_all();
  }
}

}  // namespace ronin
