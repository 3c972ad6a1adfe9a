#include "exec/job_reaper.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstring>

#include "exec/job_reaper_protocol.h"
#include "graph/graph.h"
#include "log/build_lock.h"

namespace ronin {

namespace {

using namespace reaper_protocol;

constexpr size_t kMaxKeptFds = 8;        // the socket and the build locks
constexpr int kDeathPolls = 2000;        // 1 ms apart: a command stuck in I/O
                                         // or a zombie nobody reaps is not
                                         // waited for longer than 2 s

// Everything the forked child does is async-signal-safe: ninja may have
// threads, and the child must not touch their locks (no malloc, no stdio).
// Memory comes from mmap and grows with mremap.
class Region {
 public:
  char* data() const { return data_; }
  size_t size() const { return size_; }
  // Room for `more` bytes past size(); false if the memory is not there.
  bool Reserve(size_t more) {
    if (size_ + more <= capacity_) return true;
    size_t capacity = capacity_ ? capacity_ : 64 * 1024;
    while (capacity < size_ + more) capacity *= 2;
    void* memory = data_ ? mremap(data_, capacity_, capacity, MREMAP_MAYMOVE)
                         : mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return false;
    data_ = static_cast<char*>(memory);
    capacity_ = capacity;
    return true;
  }
  void Grow(size_t bytes) { size_ += bytes; }
  // Removes [offset, offset + bytes).
  void Erase(size_t offset, size_t bytes) {
    memmove(data_ + offset, data_ + offset + bytes, size_ - offset - bytes);
    size_ -= bytes;
  }

 private:
  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// A job to kill, and where its file records are in the files region. Jobs
// are kept in the order they started, their records too, so removing one
// shifts the later ones down.
struct Job {
  int32_t id;
  int32_t lone;
  size_t offset;
  size_t bytes;
};

class Tracker {
 public:
  bool Add(int fd, const Header& header);
  void Remove(const Header& header);
  void KillAll() const;
  void WaitForDeaths() const;
  void RemoveFiles() const;

 private:
  Job* jobs() const { return reinterpret_cast<Job*>(jobs_.data()); }
  size_t count() const { return jobs_.size() / sizeof(Job); }
  bool AllGone() const;
  Region jobs_;
  Region files_;
};

bool ReadFull(int fd, void* buffer, size_t bytes) {
  char* at = static_cast<char*>(buffer);
  while (bytes > 0) {
    ssize_t n = read(fd, at, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += n;
    bytes -= static_cast<size_t>(n);
  }
  return true;
}

// Reads the add's records. Without memory for them, the job is still
// killed; its files stay.
bool Tracker::Add(int fd, const Header& header) {
  if (!jobs_.Reserve(sizeof(Job))) return false;
  Job job{header.id, header.kind & kLonePid, files_.size(), header.payload};
  if (files_.Reserve(header.payload)) {
    if (!ReadFull(fd, files_.data() + files_.size(), header.payload)) return false;
    files_.Grow(header.payload);
  } else {
    char discard[4096];
    for (size_t left = header.payload; left > 0;) {
      size_t n = left < sizeof(discard) ? left : sizeof(discard);
      if (!ReadFull(fd, discard, n)) return false;
      left -= n;
    }
    job.bytes = 0;
  }
  memcpy(jobs_.data() + jobs_.size(), &job, sizeof(job));
  jobs_.Grow(sizeof(job));
  return true;
}

void Tracker::Remove(const Header& header) {
  int32_t lone = header.kind & kLonePid;
  for (size_t i = count(); i-- > 0;) {
    Job job = jobs()[i];
    if (job.id != header.id || job.lone != lone) continue;
    files_.Erase(job.offset, job.bytes);
    jobs_.Erase(i * sizeof(Job), sizeof(Job));
    for (size_t j = i; j < count(); ++j) jobs()[j].offset -= job.bytes;
    return;
  }
}

void Tracker::KillAll() const {
  for (size_t i = 0; i < count(); ++i) kill(jobs()[i].lone ? jobs()[i].id : -jobs()[i].id, SIGKILL);
}

bool Tracker::AllGone() const {
  for (size_t i = 0; i < count(); ++i) {
    if (kill(jobs()[i].lone ? jobs()[i].id : -jobs()[i].id, 0) == 0 || errno != ESRCH) return false;
  }
  return true;
}

// A file is removed only once nothing of its job can write it any more.
void Tracker::WaitForDeaths() const {
  timespec pause{0, 1000 * 1000};
  for (int poll = 0; poll < kDeathPolls && !AllGone(); ++poll) nanosleep(&pause, nullptr);
}

// Ninja's Stat: nanoseconds, 0 for a missing file, -1 for an error.
int64_t MtimeOf(const char* path) {
  struct stat st;
  if (stat(path, &st) < 0) return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
}

void Tracker::RemoveFiles() const {
  char path[PATH_MAX];
  const char* at = files_.data();
  const char* end = at + files_.size();
  while (end - at >= static_cast<ptrdiff_t>(kFileRecordHead)) {
    int64_t mtime;
    uint32_t length;
    memcpy(&mtime, at, 8);
    memcpy(&length, at + 8, 4);
    at += kFileRecordHead;
    bool always = length & kAlways;
    length &= ~kAlways;
    if (length > static_cast<size_t>(end - at)) return;
    if (length < sizeof(path)) {
      memcpy(path, at, length);
      path[length] = '\0';
      // As ninja's own removal (remove(3)): an empty directory goes too.
      if ((always || MtimeOf(path) != mtime) && unlink(path) < 0 && (errno == EISDIR || errno == EPERM))
        rmdir(path);
    }
    at += length;
  }
}

// Keeps `keep` (sorted, all above 2) and /dev/null as 0-2: the reaper must
// not hold ninja's logs or terminal open, only its socket and build locks.
void CloseAllBut(const int* keep, size_t count) {
  int devnull = open("/dev/null", O_RDWR);
  for (int fd = 0; fd < 3; ++fd)
    if (devnull >= 0 && fd != devnull) dup2(devnull, fd);
  if (devnull > 2) close(devnull);
  rlimit limit;
  long max_fd = getrlimit(RLIMIT_NOFILE, &limit) == 0 ? static_cast<long>(limit.rlim_cur) : 1024;
  if (max_fd > 65536) max_fd = 65536;
  unsigned first = 3;
  for (size_t i = 0; i <= count; ++i) {
    unsigned last = i < count ? static_cast<unsigned>(keep[i]) - 1 : ~0U;
    if (first > last) {
      first = last + 2;
      continue;
    }
#ifdef SYS_close_range
    if (syscall(SYS_close_range, first, last, 0) == 0) {
      first = last + 2;
      continue;
    }
#endif
    for (long fd = first; fd <= static_cast<long>(last) && fd < max_fd; ++fd) close(static_cast<int>(fd));
    first = last + 2;
  }
}

// Closes the kept descriptors but the socket: the locks go.
void CloseLocks(int socket, const int* keep, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if (keep[i] != socket) close(keep[i]);
}

[[noreturn]] void ReaperMain(int fd, const int* keep, size_t count) {
  // A terminal's Ctrl-C or hang-up reaches ninja's group, reaper included:
  // ninja handles those; the reaper waits for its end of file.
  signal(SIGINT, SIG_IGN);
  signal(SIGTERM, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  CloseAllBut(keep, count);
  Tracker tracker;
  Header header;
  for (;;) {
    if (!ReadFull(fd, &header, sizeof(header))) break;  // ninja is gone
    if (header.kind & kAdd) {
      if (!tracker.Add(fd, header)) break;
    } else if (header.kind & kLetGoOfLock) {
      CloseLocks(fd, keep, count);
      char done = 1;
      if (write(fd, &done, 1) != 1) break;
    } else {
      tracker.Remove(header);
    }
  }
  tracker.KillAll();
  tracker.WaitForDeaths();
  tracker.RemoveFiles();
  _exit(0);  // the build directory's lock goes with us
}

// The descriptors the reaper keeps, sorted; false if there are too many,
// or one is where the reaper puts /dev/null (ninja started with stdio shut).
bool KeptDescriptors(int socket, int* keep, size_t* count) {
  std::vector<int> fds = HeldBuildLockDescriptors();
  fds.push_back(socket);
  if (fds.size() > kMaxKeptFds) return false;
  for (int fd : fds)
    if (fd < 3) return false;
  *count = 0;
  for (int fd : fds) {
    size_t i = (*count)++;
    for (; i > 0 && keep[i - 1] > fd; --i) keep[i] = keep[i - 1];
    keep[i] = fd;
  }
  return true;
}

}  // namespace

struct JobReaper::Platform {
  int fd;
};

static JobReaper* g_reaper = nullptr;  // once started

bool JobReaper::RunIfAsked(int, char**, int*) { return false; }

JobReaper* JobReaper::Get() {
  static JobReaper* reaper = g_reaper = [] () -> JobReaper* {
    int fds[2];
    // A stream socket: a write to a dead reaper fails with EPIPE under
    // MSG_NOSIGNAL instead of killing ninja with SIGPIPE.
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0) return nullptr;
    int keep[kMaxKeptFds];
    size_t count = 0;
    pid_t pid = KeptDescriptors(fds[1], keep, &count) ? fork() : -1;
    if (pid < 0) {
      close(fds[0]);
      close(fds[1]);
      return nullptr;
    }
    if (pid == 0) {
      close(fds[0]);
      ReaperMain(fds[1], keep, count);
    }
    close(fds[1]);
    // Not our child to wait for: it exits after us. Its zombie, if it
    // ended early, is harmless and reaped by init once we exit.
    return new JobReaper(new Platform{fds[0]});
  }();
  return reaper;
}

void JobReaper::Started(pid_t pid, bool whole_group, const JobFiles& files) {
  Send(AddEvent(pid, whole_group, files));
}

void JobReaper::Reaped(pid_t pid, bool whole_group) { Send(RemoveEvent(pid, whole_group)); }

void JobReaper::LetGoOfLock() {
  if (!g_reaper || g_reaper->platform_->fd < 0) return;
  g_reaper->Send(LetGoOfLockEvent());
  char done;
  while (g_reaper->platform_->fd >= 0 && read(g_reaper->platform_->fd, &done, 1) < 0 && errno == EINTR) {
  }
}

void JobReaper::Send(const std::string& message) {
  size_t sent = 0;
  while (platform_->fd >= 0 && sent < message.size()) {
    ssize_t n = send(platform_->fd, message.data() + sent, message.size() - sent, MSG_NOSIGNAL);
    if (n >= 0) {
      sent += static_cast<size_t>(n);
    } else if (errno != EINTR) {
      close(platform_->fd);  // the reaper is gone: go on as Ninja would
      platform_->fd = -1;
    }
  }
}

}  // namespace ronin
