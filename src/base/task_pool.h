// A few threads that run queued tasks in the background, in the order they
// were posted. exec/subprocess_win.cc hands CreateProcess to one when many
// commands start at once, so that the build loop does not wait out each
// start (milliseconds on Windows) before starting the next or reading
// output. The threads start on the first Post, with the asynchronous
// signals blocked (base/background_thread.h); a pool never posted to costs
// nothing.
#ifndef RONIN_BASE_TASK_POOL_H_
#define RONIN_BASE_TASK_POOL_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ronin {

class TaskPool {
 public:
  explicit TaskPool(size_t threads);
  // Runs what is queued, then stops the threads.
  ~TaskPool();
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  void Post(std::function<void()> task);
  // Waits until no task is queued or running.
  void Drain();
  // Tasks posted and not yet finished.
  size_t pending() const;

 private:
  void Serve();

  size_t thread_count_;
  std::vector<std::thread> threads_;
  mutable std::mutex mutex_;
  std::condition_variable work_;  // a task was posted, or the pool stops
  std::condition_variable idle_;  // the last pending task finished
  std::deque<std::function<void()>> queue_;
  size_t pending_ = 0;  // queued plus running
  bool stopping_ = false;
};

}  // namespace ronin

#endif  // RONIN_BASE_TASK_POOL_H_
