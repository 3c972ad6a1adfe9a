#include "sched/jobserver.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "status/status.h"

namespace ronin {

namespace {

// A word of MAKEFLAGS and where it starts (for copying a tail verbatim).
struct Word {
  std::string_view text;
  size_t offset;
};

// make separates MAKEFLAGS words with blanks; other white space (a newline
// in a variable's value) belongs to the word, as in Ninja.
std::vector<Word> SplitWords(std::string_view text) {
  std::vector<Word> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) words.push_back({text.substr(start, i - start), start});
  }
  return words;
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// One integer as scanf's %d reads it: leading white space, a sign, digits.
// Values beyond int are clamped (they can only name invalid descriptors).
bool ScanInt(std::string_view text, size_t* pos, int* value) {
  size_t i = *pos;
  while (i < text.size() && isspace(static_cast<unsigned char>(text[i]))) ++i;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  size_t digits = i;
  long long magnitude = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    if (magnitude <= INT_MAX) magnitude = magnitude * 10 + (text[i] - '0');
  }
  if (i == digits) return false;
  if (magnitude > INT_MAX) magnitude = INT_MAX;
  *value = static_cast<int>(negative ? -magnitude : magnitude);
  *pos = i;
  return true;
}

// "R,W" as scanf("%d,%d") reads it: anything after W is ignored.
bool ParseDescriptorPair(std::string_view text, int* read_fd, int* write_fd) {
  size_t pos = 0;
  if (!ScanInt(text, &pos, read_fd)) return false;
  if (pos >= text.size() || text[pos] != ',') return false;
  ++pos;
  return ScanInt(text, &pos, write_fd);
}

bool IsDryRunFlagsWord(std::string_view word) {
  return word[0] != '-' && word.find('n') != std::string_view::npos;
}

// Writes one byte, waiting if the pipe is full (it never should be).
bool WriteByte(int fd, char byte) {
  for (;;) {
    ssize_t n = write(fd, &byte, 1);
    if (n == 1) return true;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      pollfd pfd = {fd, POLLOUT, 0};
      poll(&pfd, 1, -1);
      continue;
    }
    return false;
  }
}

void CloseFd(int* fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

// A private, non-blocking descriptor for reading an inherited pipe.
// Reopening through /proc gives an open file description of our own, so
// O_NONBLOCK is not forced on make and its other children; without /proc,
// fall back to sharing make's (make <= 4.3 makes it non-blocking itself).
int PrivateNonBlockingReader(int fd) {
  char proc_path[64];
  snprintf(proc_path, sizeof(proc_path), "/proc/self/fd/%d", fd);
  int reopened = open(proc_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (reopened >= 0) {
    struct stat original, now;
    if (fstat(fd, &original) == 0 && fstat(reopened, &now) == 0 && original.st_ino == now.st_ino &&
        original.st_dev == now.st_dev)
      return reopened;
    close(reopened);
  }
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0) return -1;
  if (!(flags & O_NONBLOCK) && fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) return -1;
  return fcntl(fd, F_DUPFD_CLOEXEC, 0);
}

// A FIFO name that survives being a MAKEFLAGS word: no blanks, and no
// backslash, which make takes for an escape.
std::string PoolDirectory() {
  const char* tmpdir = getenv("TMPDIR");
  if (!tmpdir || !*tmpdir || strpbrk(tmpdir, " \t\\")) return "/tmp";
  std::string dir = tmpdir;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}

bool IsQuiet(const BuildConfig& config) {
  return config.verbosity == BuildConfig::Verbosity::kQuiet ||
         config.verbosity == BuildConfig::Verbosity::kNoStatusUpdate;
}

}  // namespace

bool ParseMakeflags(std::string_view makeflags, JobserverConfig* config, std::string* err) {
  *config = JobserverConfig();
  std::vector<Word> words = SplitWords(makeflags);
  if (!words.empty() && IsDryRunFlagsWord(words[0].text)) return true;

  for (const Word& word : words) {
    std::string_view value;
    if (StartsWith(word.text, "--jobserver-fds=")) {
      // The pre-4.2 name of the pipe form.
      value = word.text.substr(strlen("--jobserver-fds="));
      JobserverConfig pipe;
      if (!ParseDescriptorPair(value, &pipe.read_fd, &pipe.write_fd)) {
        *err = "Invalid file descriptor pair [" + std::string(value) + "]";
        return false;
      }
      pipe.mode = JobserverConfig::Mode::kPipe;
      pipe.value = std::string(value);
      *config = pipe;
    } else if (StartsWith(word.text, "--jobserver-auth=")) {
      value = word.text.substr(strlen("--jobserver-auth="));
      JobserverConfig auth;
      auth.value = std::string(value);
      if (StartsWith(value, "fifo:")) {
        auth.mode = JobserverConfig::Mode::kFifo;
        auth.value = std::string(value.substr(strlen("fifo:")));
      } else if (ParseDescriptorPair(value, &auth.read_fd, &auth.write_fd)) {
        // make writes "-1,-1" when its children must not use the jobserver.
        bool usable = auth.read_fd >= 0 && auth.write_fd >= 0;
        auth.mode = usable ? JobserverConfig::Mode::kPipe : JobserverConfig::Mode::kNone;
      } else {
        auth.mode = JobserverConfig::Mode::kSemaphore;
      }
      *config = auth;
    }
  }
  return true;
}

bool IsJobserverPipe(int read_fd, int write_fd) {
  if (read_fd < 0 || write_fd < 0) return false;
  struct stat read_stat, write_stat;
  if (fstat(read_fd, &read_stat) < 0 || fstat(write_fd, &write_stat) < 0) return false;
  if (!S_ISFIFO(read_stat.st_mode) || !S_ISFIFO(write_stat.st_mode)) return false;
  if (read_stat.st_dev != write_stat.st_dev || read_stat.st_ino != write_stat.st_ino) return false;
  int read_mode = fcntl(read_fd, F_GETFL) & O_ACCMODE;
  int write_mode = fcntl(write_fd, F_GETFL) & O_ACCMODE;
  return (read_mode == O_RDONLY || read_mode == O_RDWR) && (write_mode == O_WRONLY || write_mode == O_RDWR);
}

std::string PoolMakeflags(std::string_view old, int jobs, const std::string& fifo_path, int read_fd,
                          int write_fd) {
  std::vector<Word> words = SplitWords(old);
  std::string result;
  size_t i = 0;
  // make's single-letter flags ("ks") must stay the first word.
  if (!words.empty() && words[0].text[0] != '-') result.append(words[i++].text).append(" ");
  result += "-j" + std::to_string(jobs) + " --jobserver-auth=fifo:" + fifo_path +
            " --jobserver-aut=" + std::to_string(read_fd) + "," + std::to_string(write_fd);
  for (; i < words.size(); ++i) {
    std::string_view word = words[i].text;
    if (word == "--") {
      // Variable definitions follow: keep them verbatim.
      result.append(" ").append(old.substr(words[i].offset));
      break;
    }
    // The previous jobserver and -j values are ours now.
    bool jobs_word = word == "-j" || word == "--jobs" || StartsWith(word, "--jobs=") ||
                     (StartsWith(word, "-j") && word.find_first_not_of("0123456789", 2) == std::string_view::npos);
    if (jobs_word || StartsWith(word, "--jobserver-")) continue;
    result.append(" ").append(word);
  }
  return result;
}

Jobserver::~Jobserver() {
  ReleaseAll();
  CloseFd(&read_fd_);
  CloseFd(&write_fd_);
  CloseFd(&child_read_fd_);
  CloseFd(&child_write_fd_);
  if (is_pool()) unlink(fifo_path_.c_str());
  if (exported_makeflags_) {
    if (had_makeflags_)
      setenv("MAKEFLAGS", old_makeflags_.c_str(), 1);
    else
      unsetenv("MAKEFLAGS");
  }
}

std::unique_ptr<Jobserver> Jobserver::OpenFifo(const std::string& path, std::string* err) {
  if (path.empty()) {
    *err = "Empty fifo path";
    return nullptr;
  }
  std::unique_ptr<Jobserver> jobserver(new Jobserver);
  jobserver->read_fd_ = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (jobserver->read_fd_ < 0) {
    *err = std::string("Error opening fifo for reading: ") + strerror(errno);
    return nullptr;
  }
  struct stat st;
  if (fstat(jobserver->read_fd_, &st) < 0 || !S_ISFIFO(st.st_mode)) {
    *err = "Not a fifo path: " + path;
    return nullptr;
  }
  // Never blocks: we are a reader ourselves.
  jobserver->write_fd_ = open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (jobserver->write_fd_ < 0) {
    *err = std::string("Error opening fifo for writing: ") + strerror(errno);
    return nullptr;
  }
  return jobserver;
}

std::unique_ptr<Jobserver> Jobserver::OpenPipe(int read_fd, int write_fd, std::string* err) {
  if (!IsJobserverPipe(read_fd, write_fd)) {
    *err = "Invalid file descriptor pair";
    return nullptr;
  }
  std::unique_ptr<Jobserver> jobserver(new Jobserver);
  jobserver->read_fd_ = PrivateNonBlockingReader(read_fd);
  // Our own duplicate: the inherited one stays open for the commands.
  jobserver->write_fd_ = fcntl(write_fd, F_DUPFD_CLOEXEC, 0);
  if (jobserver->read_fd_ < 0 || jobserver->write_fd_ < 0) {
    *err = std::string("Error opening pipe: ") + strerror(errno);
    return nullptr;
  }
  return jobserver;
}

std::unique_ptr<Jobserver> Jobserver::CreatePool(int jobs, std::string* err) {
  std::unique_ptr<Jobserver> pool(new Jobserver);
  std::string dir = PoolDirectory();
  for (int attempt = 0; pool->fifo_path_.empty(); ++attempt) {
    std::string path = dir + "/ninja-jobserver-" + std::to_string(getpid()) + "-" + std::to_string(attempt);
    if (mkfifo(path.c_str(), 0600) == 0) {
      pool->fifo_path_ = path;
    } else if (errno != EEXIST || attempt >= 100) {
      *err = "mkfifo " + path + ": " + strerror(errno);
      return nullptr;
    }
  }
  const char* path = pool->fifo_path_.c_str();
  // Our own descriptors, then the ones every command inherits (no
  // O_CLOEXEC). The inherited reader is non-blocking as make <= 4.3 sets it.
  pool->read_fd_ = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  pool->write_fd_ = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  pool->child_read_fd_ = open(path, O_RDONLY | O_NONBLOCK);
  pool->child_write_fd_ = open(path, O_WRONLY);
  if (pool->read_fd_ < 0 || pool->write_fd_ < 0 || pool->child_read_fd_ < 0 || pool->child_write_fd_ < 0) {
    *err = std::string("opening ") + path + ": " + strerror(errno);
    return nullptr;  // the destructor removes the FIFO
  }

  // A pipe holds 64 KiB by default; a larger -j needs a larger pipe.
  int tokens = jobs - 1;
#ifdef F_SETPIPE_SZ
  if (tokens > fcntl(pool->write_fd_, F_GETPIPE_SZ)) fcntl(pool->write_fd_, F_SETPIPE_SZ, tokens);
#endif
  std::string preload(static_cast<size_t>(tokens > 0 ? tokens : 0), '+');
  size_t written = 0;
  while (written < preload.size()) {
    ssize_t n = write(pool->write_fd_, preload.data() + written, preload.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // full: the pool is as large as the pipe allows
    written += static_cast<size_t>(n);
  }

  const char* old = getenv("MAKEFLAGS");
  pool->had_makeflags_ = old != nullptr;
  pool->old_makeflags_ = old ? old : "";
  std::string makeflags = PoolMakeflags(pool->old_makeflags_, jobs, pool->fifo_path_, pool->child_read_fd_,
                                        pool->child_write_fd_);
  setenv("MAKEFLAGS", makeflags.c_str(), 1);
  pool->exported_makeflags_ = true;
  return pool;
}

bool Jobserver::ReadToken() {
  if (broken_) return false;
  char byte;
  for (;;) {
    ssize_t n = read(read_fd_, &byte, 1);
    if (n == 1) {
      tokens_.push_back(byte);
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    // EAGAIN: none free now. End of file or an error: the pool is gone;
    // stop polling it (the implicit slot still lets the build go on).
    if (n == 0 || errno != EAGAIN) broken_ = true;
    return false;
  }
}

void Jobserver::ReturnToken() {
  char byte = tokens_.back();
  tokens_.pop_back();
  if (!broken_ && !WriteByte(write_fd_, byte)) broken_ = true;
}

void Jobserver::Trim() {
  size_t needed = jobs_ + (reserved_ ? 1 : 0);
  // Real tokens go back first: the implicit slot is of no use to others.
  while (tokens_.size() + (implicit_slot_ ? 1 : 0) > needed) {
    if (!tokens_.empty())
      ReturnToken();
    else
      implicit_slot_ = false;
  }
}

bool Jobserver::ReserveSlot() {
  if (reserved_) return true;
  size_t held = tokens_.size() + (implicit_slot_ ? 1 : 0);
  if (held > jobs_) {
    reserved_ = true;
  } else if (!implicit_slot_) {
    implicit_slot_ = reserved_ = true;
  } else {
    reserved_ = ReadToken();
  }
  return reserved_;
}

void Jobserver::JobStarted() {
  // Started without a reservation (not expected): take a slot if one is
  // free; if not, the job runs unaccounted rather than not at all.
  ReserveSlot();
  reserved_ = false;
  ++jobs_;
}

void Jobserver::JobFinished() {
  if (jobs_ > 0) --jobs_;
  Trim();
}

void Jobserver::CancelReservation() {
  reserved_ = false;
  Trim();
}

void Jobserver::ReleaseAll() {
  jobs_ = 0;
  reserved_ = false;
  Trim();
}

std::unique_ptr<Jobserver> StartJobserverClient(const BuildConfig& config) {
  return StartJobserverClient(config, getenv("MAKEFLAGS"));
}

std::unique_ptr<Jobserver> StartJobserverClient(const BuildConfig& config, const char* makeflags) {
  // -j on the command line overrides the jobserver; -n runs nothing.
  if (config.parallelism_from_cmdline || config.dry_run || !makeflags) return nullptr;
  JobserverConfig parsed;
  std::string err;
  if (!ParseMakeflags(makeflags, &parsed, &err)) {
    Warning("Ignoring jobserver: %s [%s]", err.c_str(), makeflags);
    return nullptr;
  }
  std::unique_ptr<Jobserver> client;
  switch (parsed.mode) {
    case JobserverConfig::Mode::kNone:
      return nullptr;
    case JobserverConfig::Mode::kSemaphore:
      Warning("Ignoring jobserver: Semaphore mode is not supported on Posix! [%s]", makeflags);
      return nullptr;
    case JobserverConfig::Mode::kPipe:
      // Beyond Ninja: make <= 4.3's pipe, when the descriptors really are
      // its pipe. Otherwise Ninja's warning, which is then accurate enough:
      // we cannot use what MAKEFLAGS names.
      if (!IsJobserverPipe(parsed.read_fd, parsed.write_fd)) {
        Warning("Ignoring jobserver: Pipe-based protocol is not supported! [%s]", makeflags);
        return nullptr;
      }
      if (!IsQuiet(config)) Info("Jobserver mode detected: %s", makeflags);
      client = Jobserver::OpenPipe(parsed.read_fd, parsed.write_fd, &err);
      break;
    case JobserverConfig::Mode::kFifo:
      if (!IsQuiet(config)) Info("Jobserver mode detected: %s", makeflags);
      client = Jobserver::OpenFifo(parsed.value, &err);
      break;
  }
  if (!client) Error("Could not initialize jobserver: %s", err.c_str());
  return client;
}

std::unique_ptr<Jobserver> StartJobserverPool(const BuildConfig& config) {
  // -j 0 has no limit to share (make -j without a number has no jobserver either).
  if (!config.ronin.jobserver_pool || config.dry_run || config.parallelism == INT_MAX) return nullptr;
  std::string err;
  std::unique_ptr<Jobserver> pool = Jobserver::CreatePool(config.parallelism, &err);
  if (!pool) Warning("Could not create jobserver pool: %s; building with -j %d alone", err.c_str(), config.parallelism);
  return pool;
}

}  // namespace ronin
