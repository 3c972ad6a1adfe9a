// Tests for sched/jobserver.h. The MAKEFLAGS readings were checked against
// ninja 1.13.2 (which mode it enters, or which warning it prints, for each
// value); the pipe form's acceptance and the pool are ronin's own.
#include "sched/jobserver.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <string>

#include "status/status.h"
#include "test_support.h"

namespace ronin {
namespace {

using Mode = JobserverConfig::Mode;
using test::ScopedEnv;

JobserverConfig Parse(const std::string& makeflags) {
  JobserverConfig config;
  std::string err;
  EXPECT_TRUE(ParseMakeflags(makeflags, &config, &err)) << makeflags << ": " << err;
  return config;
}

std::string ParseError(const std::string& makeflags) {
  JobserverConfig config;
  std::string err;
  EXPECT_FALSE(ParseMakeflags(makeflags, &config, &err)) << makeflags;
  return err;
}

TEST(JobserverParseTest, NoJobserver) {
  for (const char* makeflags : {"", " ", "k", "-j4", "--jobserver-authx=fifo:/f", "x--jobserver-auth=fifo:/f",
                                "--jobserver-auth", "FOO=--jobserver-auth"}) {
    EXPECT_EQ(Parse(makeflags).mode, Mode::kNone) << makeflags;
  }
}

TEST(JobserverParseTest, Fifo) {
  JobserverConfig config = Parse("-j4 --jobserver-auth=fifo:/tmp/GMfifo1");
  EXPECT_EQ(config.mode, Mode::kFifo);
  EXPECT_EQ(config.value, "/tmp/GMfifo1");
  // An empty path is still FIFO mode: opening it fails later.
  config = Parse("--jobserver-auth=fifo:");
  EXPECT_EQ(config.mode, Mode::kFifo);
  EXPECT_EQ(config.value, "");
  // Relative paths, paths with a newline (only blanks separate words).
  EXPECT_EQ(Parse("--jobserver-auth=fifo:f").value, "f");
  EXPECT_EQ(Parse("--jobserver-auth=fifo:/a\nb").value, "/a\nb");
  // Case matters: anything else is a semaphore name.
  EXPECT_EQ(Parse("--jobserver-auth=FIFO:/f").mode, Mode::kSemaphore);
}

TEST(JobserverParseTest, Pipe) {
  JobserverConfig config = Parse(" -j3 --jobserver-auth=3,4");
  EXPECT_EQ(config.mode, Mode::kPipe);
  EXPECT_EQ(config.read_fd, 3);
  EXPECT_EQ(config.write_fd, 4);
  config = Parse("--jobserver-fds=5,6");
  EXPECT_EQ(config.mode, Mode::kPipe);
  EXPECT_EQ(config.read_fd, 5);
  EXPECT_EQ(config.write_fd, 6);
  // As scanf("%d,%d") reads it: signs, leading zeros, white space before a
  // number, and anything after the second number.
  for (const char* makeflags : {"--jobserver-auth=3,4x", "--jobserver-auth=03,4", "--jobserver-auth=+3,4",
                                "--jobserver-auth=3,4,5", "--jobserver-auth=\n3,4", "--jobserver-auth=3,\n4",
                                "--jobserver-auth=0,0", "--jobserver-auth=99999999999,4"}) {
    EXPECT_EQ(Parse(makeflags).mode, Mode::kPipe) << makeflags;
  }
  // --jobserver-fds takes negative numbers as a pipe (Ninja warns about it).
  EXPECT_EQ(Parse("--jobserver-fds=-1,-1").mode, Mode::kPipe);
}

TEST(JobserverParseTest, NegativeDescriptorsMeanNone) {
  for (const char* makeflags : {"--jobserver-auth=-1,-1", "--jobserver-auth=3,-1", "--jobserver-auth=-5,4",
                                "--jobserver-auth=-99999999999,4"}) {
    EXPECT_EQ(Parse(makeflags).mode, Mode::kNone) << makeflags;
  }
}

TEST(JobserverParseTest, Semaphore) {
  for (const char* makeflags : {"--jobserver-auth=", "--jobserver-auth=foo", "--jobserver-auth=3,x",
                                "--jobserver-auth=3 ,4", "--jobserver-auth= 3,4"}) {
    EXPECT_EQ(Parse(makeflags).mode, Mode::kSemaphore) << makeflags;
  }
  EXPECT_EQ(Parse("--jobserver-auth=foo").value, "foo");
}

TEST(JobserverParseTest, InvalidFdsPair) {
  EXPECT_EQ(ParseError("--jobserver-fds=foo"), "Invalid file descriptor pair [foo]");
  EXPECT_EQ(ParseError("--jobserver-fds="), "Invalid file descriptor pair []");
  EXPECT_EQ(ParseError("--jobserver-fds=fifo:/f"), "Invalid file descriptor pair [fifo:/f]");
  // The first bad one stops the reading, whatever follows.
  EXPECT_EQ(ParseError("--jobserver-fds=foo --jobserver-auth=fifo:/f"), "Invalid file descriptor pair [foo]");
  EXPECT_EQ(ParseError("--jobserver-fds=foo --jobserver-fds=bar"), "Invalid file descriptor pair [foo]");
  EXPECT_EQ(ParseError("--jobserver-auth=fifo:/f --jobserver-fds=x"), "Invalid file descriptor pair [x]");
}

TEST(JobserverParseTest, LastWins) {
  EXPECT_EQ(Parse("--jobserver-auth=fifo:/f --jobserver-auth=3,4").mode, Mode::kPipe);
  EXPECT_EQ(Parse("--jobserver-auth=3,4 --jobserver-auth=fifo:/f").mode, Mode::kFifo);
  EXPECT_EQ(Parse("--jobserver-fds=3,4 --jobserver-auth=fifo:/f").mode, Mode::kFifo);
  EXPECT_EQ(Parse("--jobserver-auth=fifo:/f --jobserver-fds=3,4").mode, Mode::kPipe);
  EXPECT_EQ(Parse("--jobserver-auth=foo --jobserver-auth=fifo:/f").mode, Mode::kFifo);
  EXPECT_EQ(Parse("--jobserver-auth=fifo:/f --jobserver-auth=").mode, Mode::kSemaphore);
  EXPECT_EQ(Parse("--jobserver-auth=fifo:/f --jobserver-auth=-1,-1").mode, Mode::kNone);
  EXPECT_EQ(Parse("--jobserver-auth=fifo: --jobserver-auth=fifo:/g").value, "/g");
  // A pool's MAKEFLAGS: the abbreviated option is for make's getopt only.
  JobserverConfig config = Parse("-j4 --jobserver-auth=fifo:/f --jobserver-aut=5,6");
  EXPECT_EQ(config.mode, Mode::kFifo);
  EXPECT_EQ(config.value, "/f");
}

TEST(JobserverParseTest, DryRunMake) {
  // `make -n` puts "n" in its first word of single-letter flags.
  for (const char* makeflags : {"n --jobserver-auth=fifo:/f", "kn --jobserver-auth=fifo:/f",
                                " n --jobserver-auth=fifo:/f", "n\t--jobserver-auth=fifo:/f",
                                "n --jobserver-fds=foo", "n --jobserver-auth=3,4"}) {
    EXPECT_EQ(Parse(makeflags).mode, Mode::kNone) << makeflags;
  }
  // Not the flags word: an option, no 'n', or an 'n' in a later word.
  for (const char* makeflags : {"-n --jobserver-auth=fifo:/f", "k --jobserver-auth=fifo:/f",
                                "-- --jobserver-auth=fifo:/f", "--jobserver-auth=fifo:/f -- n",
                                "x --jobserver-auth=fifo:/f -- FOO=n"}) {
    EXPECT_EQ(Parse(makeflags).mode, Mode::kFifo) << makeflags;
  }
}

TEST(JobserverParseTest, BlanksSeparateWords) {
  EXPECT_EQ(Parse("\t--jobserver-auth=fifo:/f\t").value, "/f");
  EXPECT_EQ(Parse("  --jobserver-auth=fifo:/f  ").value, "/f");
  EXPECT_EQ(Parse("--jobserver-auth=fifo:/f\r").value, "/f\r");
}

// A scratch directory, removed with what it holds (one level deep).
class TempDir {
 public:
  TempDir() {
    char templ[] = "/tmp/ronin-jobserver-test-XXXXXX";
    path_ = mkdtemp(templ);
  }
  ~TempDir() {
    std::string command = "rm -rf '" + path_ + "'";
    if (system(command.c_str()) != 0) perror("rm");
  }
  std::string Path(const char* name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Bytes waiting in a pipe or FIFO, drained (and written back) to count them.
int CountTokens(int read_fd, int write_fd) {
  char buffer[4096];
  ssize_t n = read(read_fd, buffer, sizeof(buffer));
  if (n <= 0) return 0;
  EXPECT_EQ(write(write_fd, buffer, n), n);
  return static_cast<int>(n);
}

struct Pipe {
  Pipe() {
    EXPECT_EQ(pipe(fds), 0);
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
  }
  ~Pipe() {
    close(fds[0]);
    close(fds[1]);
  }
  void Put(int tokens) {
    std::string bytes(tokens, '+');
    EXPECT_EQ(write(fds[1], bytes.data(), bytes.size()), tokens);
  }
  int Count() { return CountTokens(fds[0], fds[1]); }
  int fds[2];
};

TEST(JobserverPipeTest, RecognisesOnlyOnePipesTwoEnds) {
  Pipe a, b;
  EXPECT_TRUE(IsJobserverPipe(a.fds[0], a.fds[1]));
  EXPECT_FALSE(IsJobserverPipe(a.fds[1], a.fds[0]));  // ends swapped
  EXPECT_FALSE(IsJobserverPipe(a.fds[0], b.fds[1]));  // two different pipes
  EXPECT_FALSE(IsJobserverPipe(-1, a.fds[1]));
  EXPECT_FALSE(IsJobserverPipe(a.fds[0], -1));
  EXPECT_FALSE(IsJobserverPipe(1000, 1001));  // not open

  TempDir dir;
  std::string file = dir.Path("file");
  int regular = open(file.c_str(), O_RDWR | O_CREAT, 0600);
  EXPECT_FALSE(IsJobserverPipe(regular, regular));
  close(regular);

  // A FIFO opened twice is one pipe (our pool hands out such a pair).
  std::string fifo = dir.Path("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  int r = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  int w = open(fifo.c_str(), O_WRONLY);
  EXPECT_TRUE(IsJobserverPipe(r, w));
  EXPECT_FALSE(IsJobserverPipe(w, r));
  close(r);
  close(w);
}

TEST(JobserverPipeTest, ClientTakesTokensBeyondTheImplicitSlot) {
  Pipe pool;
  pool.Put(2);
  std::string err;
  std::unique_ptr<Jobserver> client = Jobserver::OpenPipe(pool.fds[0], pool.fds[1], &err);
  ASSERT_TRUE(client) << err;

  // First job: the implicit slot, no token.
  ASSERT_TRUE(client->ReserveSlot());
  EXPECT_TRUE(client->ReserveSlot());  // the same reservation
  client->JobStarted();
  EXPECT_EQ(client->tokens_held(), 0u);
  // Two more jobs, one token each; then the pool is empty.
  ASSERT_TRUE(client->ReserveSlot());
  client->JobStarted();
  ASSERT_TRUE(client->ReserveSlot());
  client->JobStarted();
  EXPECT_EQ(client->tokens_held(), 2u);
  EXPECT_FALSE(client->ReserveSlot());
  EXPECT_EQ(pool.Count(), 0);

  // Each ending job gives one token back; the last one frees the implicit slot.
  client->JobFinished();
  EXPECT_EQ(pool.Count(), 1);
  client->JobFinished();
  EXPECT_EQ(pool.Count(), 2);
  client->JobFinished();
  EXPECT_EQ(pool.Count(), 2);
  EXPECT_EQ(client->tokens_held(), 0u);
}

TEST(JobserverPipeTest, ReservationGivenBackAndReleaseAll) {
  Pipe pool;
  pool.Put(3);
  std::string err;
  std::unique_ptr<Jobserver> client = Jobserver::OpenPipe(pool.fds[0], pool.fds[1], &err);
  ASSERT_TRUE(client) << err;
  client->ReserveSlot();
  client->JobStarted();
  ASSERT_TRUE(client->ReserveSlot());  // a token, for a job that never starts
  EXPECT_EQ(pool.Count(), 2);
  client->CancelReservation();
  EXPECT_EQ(pool.Count(), 3);

  client->ReserveSlot();
  client->JobStarted();
  client->ReserveSlot();
  client->JobStarted();
  EXPECT_EQ(pool.Count(), 1);
  client->ReleaseAll();  // an aborted build
  EXPECT_EQ(pool.Count(), 3);
  // And once more on destruction, with a reservation outstanding.
  client->ReserveSlot();
  client->JobStarted();
  client->ReserveSlot();
  client.reset();
  EXPECT_EQ(pool.Count(), 3);
}

TEST(JobserverPipeTest, TokensAreWrittenBackAsRead) {
  Pipe pool;
  EXPECT_EQ(write(pool.fds[1], "ab", 2), 2);
  std::string err;
  std::unique_ptr<Jobserver> client = Jobserver::OpenPipe(pool.fds[0], pool.fds[1], &err);
  ASSERT_TRUE(client) << err;
  for (int i = 0; i < 3; ++i) {
    client->ReserveSlot();
    client->JobStarted();
  }
  client->ReleaseAll();
  char bytes[3] = {};
  EXPECT_EQ(read(pool.fds[0], bytes, sizeof(bytes)), 2);
  std::sort(bytes, bytes + 2);
  EXPECT_EQ(std::string(bytes, 2), "ab");
}

TEST(JobserverPipeTest, InheritedDescriptorsStayAsTheyWere) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);  // blocking, as an older make might leave it
  std::string err;
  std::unique_ptr<Jobserver> client = Jobserver::OpenPipe(fds[0], fds[1], &err);
  ASSERT_TRUE(client) << err;
  // Reading never blocks, yet make's descriptor keeps its flags and stays
  // open (without O_CLOEXEC) for the commands.
  client->ReserveSlot();
  client->JobStarted();
  EXPECT_FALSE(client->ReserveSlot());
  EXPECT_EQ(fcntl(fds[0], F_GETFL) & O_NONBLOCK, 0);
  EXPECT_EQ(fcntl(fds[0], F_GETFD) & FD_CLOEXEC, 0);
  EXPECT_NE(client->wait_fd(), fds[0]);
  client.reset();
  EXPECT_EQ(fcntl(fds[0], F_GETFD) & FD_CLOEXEC, 0);
  EXPECT_EQ(fcntl(fds[1], F_GETFD) & FD_CLOEXEC, 0);
  close(fds[0]);
  close(fds[1]);
}

TEST(JobserverPipeTest, RejectsWhatIsNotAPipe) {
  std::string err;
  EXPECT_FALSE(Jobserver::OpenPipe(1000, 1001, &err));
  EXPECT_EQ(err, "Invalid file descriptor pair");
}

TEST(JobserverFifoTest, OpenErrorsInNinjasWords) {
  TempDir dir;
  std::string err;
  EXPECT_FALSE(Jobserver::OpenFifo("", &err));
  EXPECT_EQ(err, "Empty fifo path");
  EXPECT_FALSE(Jobserver::OpenFifo(dir.Path("missing"), &err));
  EXPECT_EQ(err, "Error opening fifo for reading: No such file or directory");
  EXPECT_FALSE(Jobserver::OpenFifo(dir.path(), &err));
  EXPECT_EQ(err, "Not a fifo path: " + dir.path());
  std::string file = dir.Path("file");
  close(open(file.c_str(), O_WRONLY | O_CREAT, 0600));
  EXPECT_FALSE(Jobserver::OpenFifo(file, &err));
  EXPECT_EQ(err, "Not a fifo path: " + file);
  EXPECT_FALSE(Jobserver::OpenFifo(file + "/x", &err));
  EXPECT_EQ(err, "Error opening fifo for reading: Not a directory");
  // Character devices are for Ninja 1.14; 1.13 refuses them.
  EXPECT_FALSE(Jobserver::OpenFifo("/dev/null", &err));
  EXPECT_EQ(err, "Not a fifo path: /dev/null");
}

TEST(JobserverFifoTest, Client) {
  TempDir dir;
  std::string fifo = dir.Path("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  int r = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  int w = open(fifo.c_str(), O_WRONLY);
  ASSERT_EQ(write(w, "+", 1), 1);
  std::string err;
  std::unique_ptr<Jobserver> client = Jobserver::OpenFifo(fifo, &err);
  ASSERT_TRUE(client) << err;
  EXPECT_GE(client->wait_fd(), 0);
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(client->ReserveSlot());
    client->JobStarted();
  }
  EXPECT_FALSE(client->ReserveSlot());
  EXPECT_EQ(CountTokens(r, w), 0);
  client.reset();
  EXPECT_EQ(CountTokens(r, w), 1);
  close(r);
  close(w);
}

TEST(JobserverPoolTest, Makeflags) {
  EXPECT_EQ(PoolMakeflags("", 4, "/tmp/f", 5, 6), "-j4 --jobserver-auth=fifo:/tmp/f --jobserver-aut=5,6");
  // make's single-letter flags stay first; an outer jobserver and -j go.
  EXPECT_EQ(PoolMakeflags("ks -j8 --jobserver-auth=3,4 --no-print-directory", 2, "/f", 7, 8),
            "ks -j2 --jobserver-auth=fifo:/f --jobserver-aut=7,8 --no-print-directory");
  EXPECT_EQ(PoolMakeflags(" -j3 --jobserver-fds=3,4 -j --jobs=5 --jobserver-auth=fifo:/x", 2, "/f", 7, 8),
            "-j2 --jobserver-auth=fifo:/f --jobserver-aut=7,8");
  // Variable definitions after "--" are kept verbatim, at the end.
  EXPECT_EQ(PoolMakeflags("k -- CC=gcc\\ -m32  -j3", 2, "/f", 7, 8),
            "k -j2 --jobserver-auth=fifo:/f --jobserver-aut=7,8 -- CC=gcc\\ -m32  -j3");
  // The result reads back as the FIFO, for Ninja and for us.
  JobserverConfig config = Parse(PoolMakeflags("n -j3", 2, "/f", 7, 8));
  EXPECT_EQ(config.mode, Mode::kNone);  // still a dry-run make's flags
  EXPECT_EQ(Parse(PoolMakeflags("-j3 --jobserver-auth=3,4", 2, "/f", 7, 8)).value, "/f");
}

TEST(JobserverPoolTest, CreatesPreloadsExportsAndCleansUp) {
  TempDir dir;
  ScopedEnv tmpdir("TMPDIR", dir.path().c_str());
  ScopedEnv makeflags("MAKEFLAGS", "k -j9 --jobserver-auth=3,4");
  std::string err;
  std::unique_ptr<Jobserver> pool = Jobserver::CreatePool(4, &err);
  ASSERT_TRUE(pool) << err;
  std::string fifo = pool->fifo_path();
  EXPECT_EQ(fifo.rfind(dir.path() + "/ninja-jobserver-", 0), 0u) << fifo;
  struct stat st;
  ASSERT_EQ(stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  // MAKEFLAGS names the FIFO, and the same FIFO again as inherited descriptors.
  std::string exported = getenv("MAKEFLAGS");
  JobserverConfig parsed = Parse(exported);
  EXPECT_EQ(parsed.mode, Mode::kFifo);
  EXPECT_EQ(parsed.value, fifo);
  size_t aut = exported.find(" --jobserver-aut=");
  ASSERT_NE(aut, std::string::npos) << exported;
  JobserverConfig pipe = Parse("--jobserver-auth=" + exported.substr(aut + 17));
  ASSERT_EQ(pipe.mode, Mode::kPipe) << exported;
  EXPECT_TRUE(IsJobserverPipe(pipe.read_fd, pipe.write_fd));
  EXPECT_EQ(fcntl(pipe.read_fd, F_GETFD) & FD_CLOEXEC, 0);
  EXPECT_EQ(fcntl(pipe.write_fd, F_GETFD) & FD_CLOEXEC, 0);
  ASSERT_EQ(fstat(pipe.read_fd, &st), 0);
  struct stat fifo_st;
  ASSERT_EQ(stat(fifo.c_str(), &fifo_st), 0);
  EXPECT_EQ(st.st_ino, fifo_st.st_ino);
  EXPECT_EQ(exported.rfind("k -j4 ", 0), 0u) << exported;

  // -j4: three tokens; this process is the pool's first client.
  EXPECT_EQ(CountTokens(pipe.read_fd, pipe.write_fd), 3);
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(pool->ReserveSlot()) << i;
    pool->JobStarted();
  }
  EXPECT_FALSE(pool->ReserveSlot());
  EXPECT_EQ(CountTokens(pipe.read_fd, pipe.write_fd), 0);
  pool->JobFinished();
  EXPECT_EQ(CountTokens(pipe.read_fd, pipe.write_fd), 1);

  pool.reset();
  EXPECT_NE(stat(fifo.c_str(), &st), 0);
  EXPECT_STREQ(getenv("MAKEFLAGS"), "k -j9 --jobserver-auth=3,4");
  EXPECT_EQ(fcntl(pipe.read_fd, F_GETFD), -1);  // the inherited descriptors are closed
}

TEST(JobserverPoolTest, UnsetMakeflagsIsRestored) {
  TempDir dir;
  ScopedEnv tmpdir("TMPDIR", dir.path().c_str());
  ScopedEnv makeflags("MAKEFLAGS", nullptr);
  std::string err;
  std::unique_ptr<Jobserver> pool = Jobserver::CreatePool(1, &err);
  ASSERT_TRUE(pool) << err;
  EXPECT_NE(getenv("MAKEFLAGS"), nullptr);
  ASSERT_TRUE(pool->ReserveSlot());  // the implicit slot; -j1 has no token
  pool->JobStarted();
  EXPECT_FALSE(pool->ReserveSlot());
  pool.reset();
  EXPECT_EQ(getenv("MAKEFLAGS"), nullptr);
}

TEST(JobserverPoolTest, FailureLeavesNothingBehind) {
  ScopedEnv tmpdir("TMPDIR", "/nonexistent-ronin-dir");
  ScopedEnv makeflags("MAKEFLAGS", "k");
  std::string err;
  EXPECT_FALSE(Jobserver::CreatePool(4, &err));
  EXPECT_EQ(err.rfind("mkfifo /nonexistent-ronin-dir/ninja-jobserver-", 0), 0u) << err;
  EXPECT_STREQ(getenv("MAKEFLAGS"), "k");
}

BuildConfig Config() {
  BuildConfig config;
  config.parallelism = 3;
  return config;
}

TEST(JobserverClientTest, CommandLineJobsAndDryRunDisableIt) {
  BuildConfig config = Config();
  config.parallelism_from_cmdline = true;
  testing::internal::CaptureStderr();
  EXPECT_FALSE(StartJobserverClient(config, "--jobserver-auth=3,4"));
  config = Config();
  config.dry_run = true;
  EXPECT_FALSE(StartJobserverClient(config, "--jobserver-auth=3,4"));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST(JobserverClientTest, WarningsInNinjasWords) {
  BuildConfig config = Config();
  testing::internal::CaptureStderr();
  EXPECT_FALSE(StartJobserverClient(config, "--jobserver-auth=foo"));
  EXPECT_FALSE(StartJobserverClient(config, "--jobserver-fds=x"));
  EXPECT_FALSE(StartJobserverClient(config, "--jobserver-auth=1000,1001"));
  EXPECT_FALSE(StartJobserverClient(config, "--jobserver-auth=-1,-1"));
  EXPECT_FALSE(StartJobserverClient(config, nullptr));
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "ninja: warning: Ignoring jobserver: Semaphore mode is not supported on Posix! [--jobserver-auth=foo]\n"
            "ninja: warning: Ignoring jobserver: Invalid file descriptor pair [x] [--jobserver-fds=x]\n"
            "ninja: warning: Ignoring jobserver: Pipe-based protocol is not supported! "
            "[--jobserver-auth=1000,1001]\n");
}

TEST(JobserverClientTest, DetectedThenCouldNotInitialize) {
  BuildConfig config = Config();
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  EXPECT_FALSE(StartJobserverClient(config, "--jobserver-auth=fifo:"));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "ninja: error: Could not initialize jobserver: Empty fifo path\n");
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "ninja: Jobserver mode detected: --jobserver-auth=fifo:\n");

  // --quiet: the error only.
  config.verbosity = BuildConfig::Verbosity::kNoStatusUpdate;
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  EXPECT_FALSE(StartJobserverClient(config, "--jobserver-auth=fifo:"));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "ninja: error: Could not initialize jobserver: Empty fifo path\n");
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
}

TEST(JobserverClientTest, AcceptsMakesPipe) {
  Pipe pool;
  std::string makeflags = " -j3 --jobserver-auth=" + std::to_string(pool.fds[0]) + "," + std::to_string(pool.fds[1]);
  testing::internal::CaptureStdout();
  std::unique_ptr<Jobserver> client = StartJobserverClient(Config(), makeflags.c_str());
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "ninja: Jobserver mode detected: " + makeflags + "\n");
  EXPECT_TRUE(client);
}

TEST(JobserverClientTest, NoPoolWithoutTheFlagOrWithoutCommands) {
  BuildConfig config = Config();
  EXPECT_FALSE(StartJobserverPool(config));
  config.ronin.jobserver_pool = true;
  config.dry_run = true;
  EXPECT_FALSE(StartJobserverPool(config));
  config.dry_run = false;
  config.parallelism = INT_MAX;  // -j 0
  EXPECT_FALSE(StartJobserverPool(config));
}

}  // namespace
}  // namespace ronin
