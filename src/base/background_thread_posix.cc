// background_thread.h on POSIX: pthread_sigmask around the thread's start.
#include "base/background_thread.h"

#include <pthread.h>
#include <signal.h>

namespace ronin {

struct AsyncSignalsBlocked::PreviousMask {
  sigset_t mask;
};

AsyncSignalsBlocked::AsyncSignalsBlocked() : previous_(new PreviousMask) {
  sigset_t blocked;
  sigfillset(&blocked);
  for (int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS}) sigdelset(&blocked, fault);
  pthread_sigmask(SIG_BLOCK, &blocked, &previous_->mask);
}

AsyncSignalsBlocked::~AsyncSignalsBlocked() { pthread_sigmask(SIG_SETMASK, &previous_->mask, nullptr); }

}  // namespace ronin
