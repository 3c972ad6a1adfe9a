// event_stream.h on POSIX: a path or a descriptor given ("fd:N"), written
// with SIGPIPE held off when its reader may go away.
#include "events/event_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

namespace ronin {

std::unique_ptr<EventStream> EventStream::Open(const std::string& where, std::string* err) {
  if (where.compare(0, 3, "fd:") == 0) {
    char* end = nullptr;
    errno = 0;
    long fd = strtol(where.c_str() + 3, &end, 10);
    if (where.size() == 3 || *end || errno || fd < 0 || fd > INT32_MAX || fcntl(static_cast<int>(fd), F_GETFD) < 0) {
      *err = "'" + where + "' is not an open file descriptor";
      return nullptr;
    }
    return std::unique_ptr<EventStream>(new EventStream(static_cast<int>(fd), false));
  }
  // (A FIFO would block here until a reader comes: that is what it is for.)
  int fd = open(where.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    *err = "opening " + where + ": " + strerror(errno);
    return nullptr;
  }
  return std::unique_ptr<EventStream>(new EventStream(fd, true));
}

EventStream::EventStream(int fd, bool owned) : fd_(fd), owned_(owned) {
  struct stat st;
  may_raise_sigpipe_ = fstat(fd, &st) != 0 || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode);
}

EventStream::~EventStream() {
  if (owned_ && fd_ >= 0) close(fd_);
}

namespace {

// Writes to a pipe or socket whose reader may be gone: with SIGPIPE
// blocked for the write (and a SIGPIPE it raised taken back), so that it
// fails with EPIPE instead of killing ninja. Not by ignoring SIGPIPE: the
// commands ninja starts would inherit that.
bool WriteWithoutSigpipe(int fd, const std::string& text) {
  sigset_t pipe_signal, old_mask;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &old_mask);
  bool written = WriteFully(fd, text.data(), text.size());
  if (!written && errno == EPIPE && !sigismember(&old_mask, SIGPIPE)) {
    timespec no_wait = {0, 0};
    while (sigtimedwait(&pipe_signal, nullptr, &no_wait) == SIGPIPE) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  return written;
}

}  // namespace

bool EventStream::WriteLine() {
  return may_raise_sigpipe_ ? WriteWithoutSigpipe(fd_, line_) : WriteFully(fd_, line_.data(), line_.size());
}

}  // namespace ronin
