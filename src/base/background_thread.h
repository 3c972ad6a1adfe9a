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
#ifndef RONIN_BASE_BACKGROUND_THREAD_H_
#define RONIN_BASE_BACKGROUND_THREAD_H_

#include <pthread.h>
#include <signal.h>

#include <thread>
#include <utility>

namespace ronin {

// The signals a helper thread blocks: all but the synchronous faults.
inline sigset_t BackgroundThreadSignals() {
  sigset_t set;
  sigfillset(&set);
  for (int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS}) sigdelset(&set, fault);
  return set;
}

// std::thread(args...), started with BackgroundThreadSignals() blocked.
template <typename... Args>
std::thread StartBackgroundThread(Args&&... args) {
  sigset_t blocked = BackgroundThreadSignals(), previous;
  pthread_sigmask(SIG_BLOCK, &blocked, &previous);
  std::thread thread(std::forward<Args>(args)...);
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return thread;
}

}  // namespace ronin

#endif  // RONIN_BASE_BACKGROUND_THREAD_H_
