// GNU make jobserver support.
//
// A jobserver is a pipe (or named FIFO) preloaded with one byte, a "token",
// per job slot beyond the first. Every process in the tree owns one implicit
// slot and must read a token for each further job it runs concurrently,
// writing the byte back when that job ends; so a whole tree of make and
// ninja processes never runs more jobs than the pool allows.
//
// Client (Ninja 1.13): without -j and -n, a pool named in MAKEFLAGS by
// `--jobserver-auth=fifo:PATH` bounds the build instead of -j. ronin also
// accepts GNU make <= 4.3's pipe form `--jobserver-auth=R,W` (inherited
// descriptors), which Ninja ignores with a warning. On Windows the pool is
// a named semaphore instead, `--jobserver-auth=NAME`, whose count is the
// free tokens (the only form ninja.exe accepts).
//
// Pool (ronin only, --jobserver-pool): ninja creates the pool itself for
// its -j and advertises it to the commands it runs; see CreatePool.
//
// The slot accounting is shared (jobserver.cc); tokens come and go
// through jobserver_posix.cc or jobserver_win.cc.
#ifndef RONIN_SCHED_JOBSERVER_H_
#define RONIN_SCHED_JOBSERVER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ronin {

struct BuildConfig;

// What MAKEFLAGS says about a jobserver, read exactly as Ninja 1.13 does.
struct JobserverConfig {
  enum class Mode {
    kNone,       // no jobserver (also: a dry-run make, or "-1,-1")
    kPipe,       // R,W: descriptors inherited from make <= 4.3
    kFifo,       // fifo:PATH (make >= 4.4)
    kSemaphore,  // anything else: a Windows semaphore name
  };
  Mode mode = Mode::kNone;
  std::string value;  // the flag's value: the FIFO path for kFifo
  int read_fd = -1;   // kPipe
  int write_fd = -1;  // kPipe
};

// Parses a MAKEFLAGS value. Words are separated by spaces and tabs; the last
// --jobserver-auth= or --jobserver-fds= wins; a first word that is not an
// option and contains 'n' means `make -n`, so no jobserver. Returns false
// with *err for a --jobserver-fds= value that is not a descriptor pair.
bool ParseMakeflags(std::string_view makeflags, JobserverConfig* config, std::string* err);

// True if the descriptors are open, readable resp. writable, and both ends
// of the same pipe or FIFO: make passes its pipe only to commands it knows
// to be recursive, so the numbers in MAKEFLAGS may name unrelated files.
bool IsJobserverPipe(int read_fd, int write_fd);

// The MAKEFLAGS a pool exports: `old` with its jobserver and -j words
// replaced. See CreatePool for the form.
std::string PoolMakeflags(std::string_view old, int jobs, const std::string& fifo_path, int read_fd,
                          int write_fd);
// The same with the pool's own words (Windows: --jobserver-auth=NAME).
std::string PoolMakeflags(std::string_view old, int jobs, const std::string& auth_words);

class Jobserver {
 public:
  ~Jobserver();
  Jobserver(const Jobserver&) = delete;
  Jobserver& operator=(const Jobserver&) = delete;

  // Whether this platform can be a client of `config` (not kNone); if not,
  // *reason is Ninja's warning ("Semaphore mode is not supported on Posix!").
  static bool CanOpen(const JobserverConfig& config, std::string* reason);
  // A client of what `config` names (CanOpen said yes). Null with *err
  // (Ninja's wording) on failure.
  static std::unique_ptr<Jobserver> Open(const JobserverConfig& config, std::string* err);
  // A client of the FIFO at `path`. Null with *err (Ninja's wording) on failure.
  static std::unique_ptr<Jobserver> OpenFifo(const std::string& path, std::string* err);
  // A client of inherited pipe descriptors (checked with IsJobserverPipe).
  static std::unique_ptr<Jobserver> OpenPipe(int read_fd, int write_fd, std::string* err);
  // A new pool for `jobs` concurrent jobs, of which this process is the
  // first client. It is a FIFO in $TMPDIR preloaded with jobs - 1 tokens,
  // open twice more on descriptors the commands inherit, and advertised as
  //   MAKEFLAGS=-jN --jobserver-auth=fifo:PATH --jobserver-aut=R,W ...
  // Ninja (>= 1.13) takes the last word that literally starts with
  // --jobserver-auth=: the FIFO. make reads the options with getopt_long,
  // for which --jobserver-aut= is the same option given later: the pipe
  // form, the only one make <= 4.3 understands (a fifo: value is a fatal
  // error there), while Ninja ignores it. Both name the same FIFO, so
  // everyone shares one pool. The FIFO is removed and MAKEFLAGS restored
  // on destruction.
  static std::unique_ptr<Jobserver> CreatePool(int jobs, std::string* err);

  // Job-slot accounting for a build. A slot is the implicit one or a token.
  // Reserves a slot for the next job, reading a token if needed (never
  // blocks). True if one is reserved (calling again keeps the same one).
  bool ReserveSlot();
  // A job starts on the reserved slot.
  void JobStarted();
  // A job ended, whatever its outcome: its token goes back to the pool.
  void JobFinished();
  // Gives back a reserved slot no job took (before sleeping: others may need it).
  void CancelReservation();
  // Every token back to the pool (build stopped or aborted).
  void ReleaseAll();

  // Readable when a token may have come free; -1 if it cannot be polled.
  int wait_fd() const { return broken_ ? -1 : read_fd_; }
  size_t tokens_held() const { return tokens_.size(); }
  bool is_pool() const { return !fifo_path_.empty(); }
  // The pool's FIFO (Windows: its semaphore's name).
  const std::string& fifo_path() const { return fifo_path_; }

 private:
  Jobserver() = default;
  bool ReadToken();
  void ReturnToken();
  // Returns slots held beyond what running jobs and the reservation need.
  void Trim();

  int read_fd_ = -1;   // private, non-blocking, close-on-exec
  int write_fd_ = -1;  // private, close-on-exec
  void* semaphore_ = nullptr;  // Windows: the pool's semaphore (a HANDLE)
  bool broken_ = false;
  bool implicit_slot_ = false;  // held by a job or the reservation
  std::vector<char> tokens_;    // bytes read, written back as read
  size_t jobs_ = 0;             // running jobs holding a slot
  bool reserved_ = false;

  // Pool only.
  std::string fifo_path_;
  int child_read_fd_ = -1;  // inherited by commands (pipe form)
  int child_write_fd_ = -1;
  bool exported_makeflags_ = false;
  bool had_makeflags_ = false;
  std::string old_makeflags_;
};

// Ninja 1.13's client set-up, run before the targets are scanned: unless
// -j or -n was given, reads MAKEFLAGS, prints `Jobserver mode detected`
// (stdout, not with --quiet) or Ninja's warning or error, and returns the
// client, or null.
std::unique_ptr<Jobserver> StartJobserverClient(const BuildConfig& config);
// Same, with MAKEFLAGS given (null: unset); for tests.
std::unique_ptr<Jobserver> StartJobserverClient(const BuildConfig& config, const char* makeflags);

// --jobserver-pool: the pool for a build that is about to run commands, or
// null (not requested, -n, -j 0, or creation failed: warned). Exports
// MAKEFLAGS for the commands.
std::unique_ptr<Jobserver> StartJobserverPool(const BuildConfig& config);

}  // namespace ronin

#endif  // RONIN_SCHED_JOBSERVER_H_
