// Helper threads that never take the process's signals.
//
// ninja handles SIGINT, SIGTERM, SIGHUP and SIGCHLD on its main thread: the
// build loop keeps them blocked and unblocks them only inside ppoll
// (exec/subprocess.cc), so a signal always ends that wait. The kernel hands a
// process-directed signal to any thread that does not block it, though, and
// a thread inherits its creator's mask: a helper started before the build
// (the graph image writer, the cache's workers) would take a Ctrl-C while
// the main thread is between waits, run the handler there, and leave the
// main thread asleep in ppoll until the running commands ended by
// themselves; a console job's SIGCHLD would go unnoticed the same way.
// So every helper starts with the asynchronous signals blocked, set before
// it exists (no window). Faults (SIGSEGV and the like) stay unblocked: a
// blocked fault would kill the process without the sanitizers' report.
//
// Windows has no such signals (a console's Ctrl-C runs a handler on a
// thread of its own): there the blocking is a no-op. POSIX in
// background_thread_posix.cc, Windows in background_thread_win.cc.
#ifndef RONIN_BASE_BACKGROUND_THREAD_H_
#define RONIN_BASE_BACKGROUND_THREAD_H_

#include <memory>
#include <thread>
#include <utility>

namespace ronin {

// While it lives, the calling thread has all signals but the synchronous
// faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS)
// blocked; a thread started meanwhile inherits that. Destroyed, it restores
// the previous mask.
class AsyncSignalsBlocked {
 public:
  AsyncSignalsBlocked();
  ~AsyncSignalsBlocked();
  AsyncSignalsBlocked(const AsyncSignalsBlocked&) = delete;
  AsyncSignalsBlocked& operator=(const AsyncSignalsBlocked&) = delete;

 private:
  struct PreviousMask;
  std::unique_ptr<PreviousMask> previous_;
};

// std::thread(args...), started with the asynchronous signals blocked.
template <typename... Args>
std::thread StartBackgroundThread(Args&&... args) {
  AsyncSignalsBlocked blocked;
  return std::thread(std::forward<Args>(args)...);
}

}  // namespace ronin

#endif  // RONIN_BASE_BACKGROUND_THREAD_H_
