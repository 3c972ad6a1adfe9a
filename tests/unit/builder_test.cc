// Tests for the builder (builder.h) on a fake command runner, wired as a
// real build is (driver/build_setup.h): the order in which commands start
// (dependencies, critical path, pools), -j and -k, failures, interrupts,
// restat, generators, dyndep, discovered deps, rspfiles, phony edges, -n,
// and the two seams: a work stage that says "not now", a recorder that
// hears of every command, and the build cache around an injected runner.
#include "sched/builder.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/disk.h"
#include "base/file_io.h"
#include "cache/build_cache.h"
#include "cache/cache_open.h"
#include "cache/cache_store.h"
#include "driver/build_setup.h"
#include "events/event_stream.h"
#include "graph/graph.h"
#include "graph/state.h"
#include "log/build_log.h"
#include "log/deps_log.h"
#include "sched/jobserver.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::ParseManifest;
using test::ScopedTempDir;
using test::VirtualDisk;

std::string Join(const std::vector<std::string>& words) {
  std::string joined;
  for (const std::string& word : words) joined += (joined.empty() ? "" : " ") + word;
  return joined;
}

// A disk in memory that also lists the files written to it.
class WritesDisk : public VirtualDisk {
 public:
  bool WriteFile(const std::string& path, std::string_view contents) override {
    written.insert(path);
    return VirtualDisk::WriteFile(path, contents);
  }
  std::set<std::string> written;
};

// What the fake runner's commands do, keyed by their edge's first output,
// and what the runner saw. It outlives the runner, which the build's setup
// owns.
struct FakeCommands {
  struct Command {
    ExitStatus status = kExitSuccess;
    std::string output;                          // what it prints
    bool writes_outputs = true;                  // (re)writes each of its outputs
    std::map<std::string, std::string> writes;   // other files it writes (depfiles, dyndep files)
    bool interrupted = false;                    // the user interrupts the build while it runs
  };
  std::map<std::string, Command> scripts;
  DiskInterface* disk = nullptr;
  VirtualDisk* clock = nullptr;  // moved on before each write (null: a real disk's own clock)
  // Which running command ends next, as an index into them (oldest first).
  std::function<size_t(const std::vector<Edge*>&)> pick;
  size_t room = SIZE_MAX;               // commands the runner takes at once
  std::function<void(Edge*)> on_start;  // looks at the disk as the command starts

  std::vector<std::string> started;  // first outputs, in start order
  size_t most_at_once = 0;
  bool aborted = false;

  void Run(Edge* edge) {
    const Command& command = scripts[std::string(edge->outputs[0]->path)];
    if (clock) clock->Tick();
    if (command.writes_outputs)
      for (Node* output : edge->outputs) disk->WriteFile(std::string(output->path), "made by " + command.output);
    for (const auto& write : command.writes) disk->WriteFile(write.first, write.second);
  }
};

class FakeRunner : public CommandRunner {
 public:
  explicit FakeRunner(FakeCommands* commands) : commands_(commands) {}

  bool HasRoom() const override { return running_.size() < commands_->room; }
  bool StartCommand(Edge* edge) override {
    commands_->started.emplace_back(edge->outputs[0]->path);
    if (commands_->on_start) commands_->on_start(edge);
    running_.push_back(edge);
    commands_->most_at_once = std::max(commands_->most_at_once, running_.size());
    return true;
  }
  bool WaitForCommand(Result* result, int64_t, int64_t, int) override {
    if (running_.empty()) return false;
    size_t next = commands_->pick ? commands_->pick(running_) : 0;
    Edge* edge = running_[next];
    const FakeCommands::Command& command = commands_->scripts[std::string(edge->outputs[0]->path)];
    commands_->Run(edge);
    if (command.interrupted) return false;  // it is still running: the build cleans up after it
    running_.erase(running_.begin() + next);
    result->edge = edge;
    result->status = command.status;
    result->output = command.output;
    result->peak_rss_bytes = 1000;
    return true;
  }
  std::vector<Edge*> GetActiveEdges() override { return running_; }
  void Abort() override {
    commands_->aborted = true;
    running_.clear();
  }

 private:
  FakeCommands* commands_;
  std::vector<Edge*> running_;
};

class RecordingStatus : public Status {
 public:
  void EdgeAddedToPlan(const Edge*) override {}
  void EdgeRemovedFromPlan(const Edge*) override {}
  void BuildEdgeStarted(const Edge*, int64_t) override {}
  void BuildEdgeFinished(const Edge* edge, int64_t, int64_t, ExitStatus, const std::string& output) override {
    printed[std::string(edge->outputs[0]->path)] = output;
  }
  void BuildStarted() override {}
  void BuildFinished() override { ++builds_finished; }
  std::map<std::string, std::string> printed;  // each command's output, as the status got it
  int builds_finished = 0;
};

// A recorder that keeps what it is told.
class SpyRecorder : public BuildRecorder {
 public:
  bool Record(const FinishedCommand& command, std::string*) override {
    commands.push_back(command);
    paths.emplace_back(command.edge->outputs[0]->path);
    deps.push_back(command.deps ? test::Paths(*command.deps) : "<none>");
    return true;
  }
  const FinishedCommand* Find(const std::string& path) const {
    for (size_t i = 0; i < paths.size(); ++i)
      if (paths[i] == path) return &commands[i];
    return nullptr;
  }
  std::vector<FinishedCommand> commands;
  std::vector<std::string> paths;
  std::vector<std::string> deps;
};

class BuilderTest : public testing::Test {
 protected:
  BuilderTest() {
    commands_.disk = &disk_;
    commands_.clock = &disk_;
  }

  void Parse(const std::string& manifest) {
    ASSERT_TRUE(ParseManifest(&state_, "rule cc\n  command = cc $in -o $out\n" + manifest));
  }
  // `count` commands o1, o2, ... that need only `in`, and `all` for them all.
  void ParseIndependent(int count) {
    std::string manifest, all;
    for (int i = 1; i <= count; ++i) {
      manifest += "build o" + std::to_string(i) + ": cc in\n";
      all += " o" + std::to_string(i);
    }
    Parse(manifest + "build all: phony" + all + "\n");
    disk_.Create("in");
  }

  // Builds the space-separated `targets` as the driver does, the fake
  // runner injected; `*up_to_date` says nothing had to run.
  ExitStatus Build(const std::string& targets, std::string* err, bool* up_to_date = nullptr) {
    err->clear();
    Builder builder(&state_, config_, &build_log_, &deps_log_, disk(), &status_, &explanations_, 0);
    SetUpScan(features_, builder.scan());
    size_t begin = 0;
    while (begin < targets.size()) {
      size_t end = targets.find(' ', begin);
      if (end == std::string::npos) end = targets.size();
      Node* node = state_.LookupNode(targets.substr(begin, end - begin));
      EXPECT_TRUE(node) << targets.substr(begin, end - begin);
      if (!node) return kExitFailure;
      if (!builder.AddTarget(node, err) && !err->empty()) return kExitFailure;
      begin = end + 1;
    }
    if (up_to_date) *up_to_date = builder.AlreadyUpToDate();
    if (builder.AlreadyUpToDate()) return kExitSuccess;
    std::unique_ptr<CommandRunner> runner;
    if (!inject_nothing_) runner.reset(new FakeRunner(&commands_));
    BuildSetup setup(config_, state_, &build_log_, &deps_log_, disk(), features_, std::move(runner));
    BuildSeams seams = setup.seams();
    seams.stages.insert(seams.stages.begin(), extra_stages_.begin(), extra_stages_.end());
    BuildRecorders recorders;
    recorders.Add(seams.recorder);
    recorders.Add(&spy_);
    seams.recorder = &recorders;
    return builder.Build(seams, err);
  }
  // Builds and expects success.
  void BuildOk(const std::string& targets) {
    std::string err;
    EXPECT_EQ(kExitSuccess, Build(targets, &err)) << err;
    EXPECT_EQ("", err);
  }
  // A fresh scan for the next build, as the next ninja would do.
  void NextBuild() {
    state_.Reset();
    commands_.started.clear();
    commands_.most_at_once = 0;
    spy_ = SpyRecorder();
  }
  DiskInterface* disk() { return real_disk_ ? static_cast<DiskInterface*>(real_disk_) : &disk_; }
  std::string Started() const { return Join(commands_.started); }

  BuildConfig config_;
  State state_;
  WritesDisk disk_;
  RealDiskInterface* real_disk_ = nullptr;  // instead of disk_, when set
  BuildLog build_log_;
  DepsLog deps_log_;
  RecordingStatus status_;
  Explanations explanations_{false};
  BuildFeatures features_;
  FakeCommands commands_;
  bool inject_nothing_ = false;  // the setup's own runner (-n's)
  std::vector<WorkStage*> extra_stages_;  // right after the plan
  SpyRecorder spy_;
};

TEST_F(BuilderTest, DependenciesStartFirstAndTheRestFollowsInCriticalPathOrder) {
  // `short` is declared first, but `c`'s chain is longer: it goes first.
  Parse("build short: cc in\nbuild a: cc in\nbuild b: cc a\nbuild c: cc b\nbuild all: phony short c\n");
  disk_.Create("in");
  BuildOk("all");
  EXPECT_EQ("a b short c", Started());  // ties go in manifest order
  EXPECT_EQ(1u, commands_.most_at_once);  // -j1
  EXPECT_TRUE(disk_.Exists("c"));
}

TEST_F(BuilderTest, NothingToDoStartsNothing) {
  Parse("build out: cc in\n");
  disk_.Create("in");
  BuildOk("out");
  NextBuild();
  std::string err;
  bool up_to_date = false;
  EXPECT_EQ(kExitSuccess, Build("out", &err, &up_to_date));
  EXPECT_TRUE(up_to_date);
  EXPECT_EQ("", Started());
}

TEST_F(BuilderTest, ParallelismIsBoundedByDashJ) {
  ParseIndependent(5);
  config_.parallelism = 2;
  BuildOk("all");
  EXPECT_EQ(5u, commands_.started.size());
  EXPECT_EQ(2u, commands_.most_at_once);
}

TEST_F(BuilderTest, TheRunnersOwnRoomBoundsItToo) {
  ParseIndependent(3);
  config_.parallelism = 3;
  commands_.room = 1;  // e.g. the system refused a process earlier
  BuildOk("all");
  EXPECT_EQ(3u, commands_.started.size());
  EXPECT_EQ(1u, commands_.most_at_once);
}

TEST_F(BuilderTest, APoolBoundsItsEdgesAndTheConsolePoolRunsOneAtATime) {
  Parse("pool two\n  depth = 2\n"
        "build p1: cc in\n  pool = two\nbuild p2: cc in\n  pool = two\nbuild p3: cc in\n  pool = two\n"
        "build all: phony p1 p2 p3\n"
        "build c1: cc in\n  pool = console\nbuild c2: cc in\n  pool = console\nbuild n1: cc in\n"
        "build mixed: phony c1 c2 n1\n");
  disk_.Create("in");
  config_.parallelism = 10;
  BuildOk("all");
  EXPECT_EQ(3u, commands_.started.size());
  EXPECT_EQ(2u, commands_.most_at_once);

  NextBuild();
  std::set<std::string> console_running;
  size_t most_console = 0;
  commands_.on_start = [&](Edge* edge) {
    EXPECT_EQ(edge->outputs[0]->path != "n1", edge->use_console());
    if (edge->use_console()) console_running.insert(std::string(edge->outputs[0]->path));
    most_console = std::max(most_console, console_running.size());
  };
  commands_.pick = [&](const std::vector<Edge*>& running) {
    // Console jobs end first, each taking itself off the console.
    for (size_t i = 0; i < running.size(); ++i) {
      if (running[i]->use_console()) {
        console_running.erase(std::string(running[i]->outputs[0]->path));
        return i;
      }
    }
    return size_t{0};
  };
  BuildOk("mixed");
  EXPECT_EQ(3u, commands_.started.size());
  EXPECT_EQ(1u, most_console);
  EXPECT_EQ(2u, commands_.most_at_once);  // a console job and n1
}

TEST_F(BuilderTest, AFailureStopsTheBuildAndItsDependentsNeverStart) {
  Parse("build bad: cc in\nbuild after: cc bad\nbuild other: cc in\nbuild all: phony after other\n");
  disk_.Create("in");
  commands_.scripts["bad"].status = kExitFailure;
  commands_.scripts["bad"].output = "bad things\n";
  std::string err;
  EXPECT_EQ(kExitFailure, Build("all", &err));
  EXPECT_EQ("subcommand failed", err);
  EXPECT_EQ("bad", Started());  // -j1, -k1: nothing after the failure
  EXPECT_EQ("bad things\n", status_.printed["bad"]);
  EXPECT_EQ(1, status_.builds_finished);
}

TEST_F(BuilderTest, KeepGoingRunsWhatDoesNotDependOnAFailure) {
  Parse("build bad: cc in\nbuild after: cc bad\nbuild other: cc in\nbuild all: phony after other\n");
  disk_.Create("in");
  commands_.scripts["bad"].status = kExitFailure;
  config_.failures_allowed = 10;  // -k 10
  std::string err;
  EXPECT_EQ(kExitFailure, Build("all", &err));
  EXPECT_EQ("cannot make progress due to previous errors", err);
  EXPECT_EQ("bad other", Started());
  EXPECT_TRUE(disk_.Exists("other"));
  EXPECT_FALSE(disk_.Exists("after"));
}

TEST_F(BuilderTest, KeepGoingStopsAfterNFailures) {
  Parse("build b1: cc in\nbuild b2: cc in\nbuild b3: cc in\nbuild all: phony b1 b2 b3\n");
  disk_.Create("in");
  for (const char* name : {"b1", "b2", "b3"}) commands_.scripts[name].status = kExitFailure;
  config_.failures_allowed = 2;  // -k 2
  std::string err;
  EXPECT_EQ(kExitFailure, Build("all", &err));
  EXPECT_EQ("subcommands failed", err);
  EXPECT_EQ("b1 b2", Started());
}

TEST_F(BuilderTest, AnInterruptDeletesWhatTheRunningCommandsTouched) {
  Parse("rule dep\n  command = cc $in\n  depfile = $out.d\n"
        "build touched: cc in\nbuild untouched: cc in\nbuild withdep: dep in\n"
        "build all: phony touched untouched withdep\n");
  disk_.Create("untouched");  // older than its input: dirty
  disk_.Create("withdep");
  disk_.Create("withdep.d", "withdep: in\n");  // as its command writes it
  disk_.Tick();
  disk_.Create("in");
  config_.parallelism = 3;
  commands_.scripts["touched"].interrupted = true;  // it rewrites its output, then ^C
  commands_.pick = [](const std::vector<Edge*>& running) {
    for (size_t i = 0; i < running.size(); ++i)
      if (running[i]->outputs[0]->path == "touched") return i;
    return size_t{0};
  };
  std::string err;
  EXPECT_EQ(kExitInterrupted, Build("all", &err));
  EXPECT_EQ("interrupted by user", err);
  EXPECT_EQ("touched untouched withdep", Started());
  EXPECT_TRUE(commands_.aborted);
  EXPECT_FALSE(disk_.Exists("touched"));   // written by the interrupted command
  EXPECT_TRUE(disk_.Exists("untouched"));  // as it was before
  EXPECT_FALSE(disk_.Exists("withdep"));   // it has a depfile: deleted whatever its mtime
  EXPECT_FALSE(disk_.Exists("withdep.d"));
  EXPECT_FALSE(disk_.Exists(".ninja_lock"));
  EXPECT_TRUE(spy_.commands.empty());  // none finished
  EXPECT_EQ(1, status_.builds_finished);
}

TEST_F(BuilderTest, ARestatCommandThatLeavesItsOutputCleansItsDependents) {
  Parse("rule touchy\n  command = maybe-write $out\n  restat = 1\n"
        "build mid: touchy in\nbuild top: cc mid\n");
  disk_.Create("in");
  BuildOk("top");
  EXPECT_EQ("mid top", Started());

  NextBuild();
  TimeStamp start = disk_.Tick();
  disk_.Create("in");  // newer: mid must run
  commands_.scripts["mid"].writes_outputs = false;
  BuildOk("top");
  EXPECT_EQ("mid", Started());  // top is clean again
  // What .ninja_log holds for mid is its start stamp, not the old output's mtime.
  EXPECT_EQ(start, build_log_.Lookup("mid")->mtime);
  EXPECT_LT(disk_.MtimeOf("mid"), start);
  const FinishedCommand* mid = spy_.Find("mid");
  ASSERT_TRUE(mid);
  EXPECT_EQ(-1, mid->unchanged_outputs);  // no early cutoff wired
}

TEST_F(BuilderTest, ALogEntryRecordsTheStartStampOrAGeneratorsOutputMtime) {
  Parse("rule gen\n  command = regenerate\n  generator = 1\n"
        "build plain: cc in\nbuild made: gen in\n");
  disk_.Create("in");
  TimeStamp plain_stamp = -1;
  commands_.on_start = [&](Edge* edge) {
    // The lock file is written as the command starts: its mtime is the stamp.
    EXPECT_TRUE(disk_.Exists(".ninja_lock"));
    if (edge->outputs[0]->path == "plain") plain_stamp = disk_.MtimeOf(".ninja_lock");
  };
  BuildOk("plain made");
  EXPECT_EQ(plain_stamp, build_log_.Lookup("plain")->mtime);
  EXPECT_LT(plain_stamp, disk_.MtimeOf("plain"));  // the fake writes a tick later
  // A generator's outputs are stat'ed: the newest mtime is recorded.
  EXPECT_EQ(disk_.MtimeOf("made"), build_log_.Lookup("made")->mtime);
  EXPECT_FALSE(disk_.Exists(".ninja_lock"));  // gone after the build
}

// What BuildLog::Recompact and the like need of the manifest.
class NoManifest : public BuildLogUser {
 public:
  bool IsPathDead(std::string_view) const override { return false; }
  bool CurrentCommand(std::string_view, std::string*) const override { return false; }
  std::string_view InternedPath(std::string_view, uint64_t, uint32_t*) const override { return {}; }
};

TEST_F(BuilderTest, AGeneratorMayRewriteTheBuildLogWhileItRuns) {
  ScopedTempDir dir;
  std::string log_path = dir.File(".ninja_log");
  NoManifest user;
  std::string err;
  ASSERT_TRUE(build_log_.OpenForWrite(log_path, user, &err)) << err;
  Parse("rule gen\n  command = cmake\n  generator = 1\nbuild first: cc in\nbuild regen: gen first\n");
  disk_.Create("in");
  commands_.on_start = [&](Edge* edge) {
    if (edge->outputs[0]->path != "regen") return;
    // As `cmake` running `ninja -t restat` does: a new log renamed over the old.
    std::string fresh = log_path + ".new";
    test::WriteRealFile(fresh, "# ninja log v7\n");
    ASSERT_TRUE(RenameReplacing(fresh.c_str(), log_path.c_str()));
  };
  BuildOk("regen");
  build_log_.Close();
  std::string text = test::ReadRealFile(log_path);
  EXPECT_EQ(0u, text.find("# ninja log v7\n")) << text;
  EXPECT_NE(std::string::npos, text.find("\tregen\t")) << text;  // written to the new log
  EXPECT_EQ(std::string::npos, text.find("\tfirst\t")) << text;  // the old one's line went with it
}

TEST_F(BuilderTest, DyndepLoadedMidBuildAddsWhatItNames) {
  Parse("rule dd\n  command = make-dd\n"
        "build dd: dd\nbuild extra: cc in\nbuild out: cc in || dd\n  dyndep = dd\n");
  disk_.Create("in");
  commands_.scripts["dd"].writes["dd"] = "ninja_dyndep_version = 1\nbuild out: dyndep | extra\n";
  commands_.scripts["dd"].writes_outputs = false;
  BuildOk("out");
  EXPECT_EQ("dd extra out", Started());
}

TEST_F(BuilderTest, GccDepsGoToTheDepsLogAndTheDepfileGoes) {
  ScopedTempDir dir;
  std::string err;
  ASSERT_TRUE(deps_log_.OpenForWrite(dir.File(".ninja_deps"), &err)) << err;
  Parse("rule gcc\n  command = gcc -MD -MF $out.d $in\n  depfile = $out.d\n  deps = gcc\n"
        "build out.o: gcc in.c\nbuild kept.o: gcc in.c\n");
  disk_.Create("in.c");
  commands_.scripts["out.o"].writes["out.o.d"] = "out.o: in.c ./a.h b.h\n";
  commands_.scripts["kept.o"].writes["kept.o.d"] = "kept.o: in.c\n";
  BuildOk("out.o");
  DepsLog::Deps* deps = deps_log_.GetDeps(state_.LookupNode("out.o"));
  ASSERT_TRUE(deps);
  ASSERT_EQ(3, deps->node_count);
  EXPECT_EQ("in.c", deps_log_.DepNode(deps, 0)->path);
  EXPECT_EQ("a.h", deps_log_.DepNode(deps, 1)->path);  // canonical
  EXPECT_EQ("b.h", deps_log_.DepNode(deps, 2)->path);
  EXPECT_EQ(disk_.MtimeOf("out.o"), deps->mtime);
  EXPECT_FALSE(disk_.Exists("out.o.d"));
  EXPECT_EQ("in.c a.h b.h", spy_.deps[0]);

  config_.keep_depfile = true;  // -d keepdepfile
  BuildOk("kept.o");
  EXPECT_TRUE(disk_.Exists("kept.o.d"));
  deps_log_.Close();
}

TEST_F(BuilderTest, MsvcDepsAreFilteredFromTheOutput) {
  ScopedTempDir dir;
  std::string err;
  ASSERT_TRUE(deps_log_.OpenForWrite(dir.File(".ninja_deps"), &err)) << err;
  Parse("rule cl\n  command = cl /showIncludes $in\n  deps = msvc\nbuild out.obj: cl in.c\n");
  disk_.Create("in.c");
  commands_.scripts["out.obj"].output = "Note: including file: inc/x.h\nin.c\n";
  BuildOk("out.obj");
  EXPECT_EQ("in.c\n", status_.printed["out.obj"]);
  DepsLog::Deps* deps = deps_log_.GetDeps(state_.LookupNode("out.obj"));
  ASSERT_TRUE(deps);
  ASSERT_EQ(1, deps->node_count);
  EXPECT_EQ("inc/x.h", deps_log_.DepNode(deps, 0)->path);
  deps_log_.Close();
}

TEST_F(BuilderTest, AnRspfileExistsWhileItsCommandRuns) {
  Parse("rule link\n  command = link @$out.rsp\n  rspfile = $out.rsp\n  rspfile_content = $in\n"
        "build out: link a b\nbuild kept: link a\n");
  disk_.Create("a");
  disk_.Create("b");
  std::string seen;
  commands_.on_start = [&](Edge* edge) { seen = disk_.ContentsOf(std::string(edge->outputs[0]->path) + ".rsp"); };
  BuildOk("out");
  EXPECT_EQ("a b", seen);
  EXPECT_FALSE(disk_.Exists("out.rsp"));

  config_.keep_rsp = true;  // -d keeprsp
  BuildOk("kept");
  EXPECT_EQ("a", seen);
  EXPECT_TRUE(disk_.Exists("kept.rsp"));
}

TEST_F(BuilderTest, PhonyEdgesNeverReachTheRunner) {
  Parse("build a: cc in\nbuild b: cc in\nbuild both: phony a b\nbuild top: cc both\n");
  disk_.Create("in");
  config_.parallelism = 4;
  BuildOk("top");
  EXPECT_EQ("a b top", Started());
  EXPECT_EQ("a b top", Join(spy_.paths));
}

TEST_F(BuilderTest, DryRunWritesNothingAndLooksAtNoOutput) {
  Parse("rule touchy\n  command = maybe-write $out\n  restat = 1\n"
        "rule gcc\n  command = gcc $in\n  depfile = $out.d\n  deps = gcc\n"
        "build mid: touchy in\nbuild top: gcc mid\n");
  disk_.Create("in");
  config_.dry_run = true;
  inject_nothing_ = true;  // the setup's own: -n's runner
  BuildOk("top");
  EXPECT_TRUE(disk_.written.empty()) << *disk_.written.begin();  // no lock file either
  EXPECT_EQ(1, std::count(disk_.stats.begin(), disk_.stats.end(), "mid"));  // by the scan only
  // So the restat edge cleaned nothing.
  EXPECT_EQ("mid top", Join(spy_.paths));
  EXPECT_EQ(0, build_log_.Lookup("mid")->mtime);   // in memory only
  EXPECT_EQ(nullptr, deps_log_.GetDeps(state_.LookupNode("top")));
}

// A stage that holds `edge_` back while anything else runs.
class HoldBack : public WorkStage {
 public:
  explicit HoldBack(std::string path) : path_(std::move(path)) {}
  Work Next(bool local_room) override {
    Work work = upstream_->Next(local_room);
    if (work.edge && work.edge->outputs[0]->path == path_ && running_ > 0) {
      ++refusals;
      upstream_->PutBack(work);
      return Work();
    }
    return work;
  }
  void Started(const Work&, const CommandRunner&) override { ++running_; }
  void Finished(const Work&) override { --running_; }
  int refusals = 0;

 private:
  std::string path_;
  int running_ = 0;
};

TEST_F(BuilderTest, AStageThatSaysNotNowHoldsTheEdgeBackAndTheBuildFinishes) {
  // `first` is on the longest chain: the plan offers it first.
  Parse("build first: cc in\nbuild next: cc first\nbuild o1: cc in\nbuild o2: cc in\n"
        "build all: phony next o1 o2\n");
  disk_.Create("in");
  config_.parallelism = 3;
  HoldBack hold("o1");
  extra_stages_ = {&hold};
  commands_.pick = [](const std::vector<Edge*>& running) { return running.size() - 1; };
  BuildOk("all");
  EXPECT_GE(hold.refusals, 1);
  EXPECT_EQ(4u, commands_.started.size());
  EXPECT_EQ("first", commands_.started[0]);
  EXPECT_TRUE(disk_.Exists("o1"));
}

TEST_F(BuilderTest, EveryRecorderHearsOfEachCommandOnce) {
  Parse("rule gcc\n  command = gcc $in\n  depfile = $out.d\n  deps = gcc\n"
        "build ok.o: gcc in\nbuild bad: cc in\nbuild all: phony ok.o bad\n");
  ScopedTempDir dir;
  std::string err;
  ASSERT_TRUE(deps_log_.OpenForWrite(dir.File(".ninja_deps"), &err)) << err;
  disk_.Create("in");
  commands_.scripts["ok.o"].writes["ok.o.d"] = "ok.o: in dep.h\n";
  commands_.scripts["bad"].status = kExitFailure;
  config_.failures_allowed = 2;
  EXPECT_EQ(kExitFailure, Build("all", &err));
  ASSERT_EQ(2u, spy_.commands.size());
  const FinishedCommand* ok = spy_.Find("ok.o");
  const FinishedCommand* bad = spy_.Find("bad");
  ASSERT_TRUE(ok && bad);
  EXPECT_TRUE(ok->success());
  EXPECT_EQ("in dep.h", spy_.deps[ok - spy_.commands.data()]);
  EXPECT_EQ(1000, ok->peak_rss_bytes);
  EXPECT_FALSE(ok->cached);
  EXPECT_LE(ok->start_millis, ok->end_millis);
  EXPECT_NE(0, ok->start_stamp);
  EXPECT_EQ(ok->start_stamp, ok->record_mtime);
  EXPECT_EQ(kExitFailure, bad->status);
  EXPECT_EQ("<none>", spy_.deps[bad - spy_.commands.data()]);
  // The build's own recorders heard the same: the log has the success only.
  EXPECT_TRUE(build_log_.Lookup("ok.o"));
  EXPECT_FALSE(build_log_.Lookup("bad"));
  deps_log_.Close();
}

// The event stream (--events) wired as the driver wires it: a stage that
// hears each start and a recorder told each end.
class BuilderEventsTest : public BuilderTest {
 protected:
  void SetUp() override {
    std::string err;
    stream_ = EventStream::Open(dir_.File("events"), &err);
    ASSERT_TRUE(stream_) << err;
    stream_->StreamStarted(config_);
    stream_->BuildStarted(BuildStartEvent());
    features_.events = stream_.get();
    features_.explanations = &explanations_;
  }
  // The stream's lines of `event`, each without what comes before "edge".
  std::vector<std::string> Lines(const std::string& event) {
    std::vector<std::string> lines;
    std::string text = test::ReadRealFile(dir_.File("events"));
    for (size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
      std::string line = text.substr(start, end - start);
      if (line.find("{\"event\":\"" + event + "\"") == 0) lines.push_back(line.substr(line.find("\"edge\"")));
    }
    return lines;
  }

  ScopedTempDir dir_;
  std::unique_ptr<EventStream> stream_;
};

TEST_F(BuilderEventsTest, EachCommandStartsAndEndsWithWhatTheLogRecorded) {
  Parse("build a: cc in\nbuild b: cc a\n");
  disk_.Create("in");
  commands_.scripts["a"].output = "warning\n";
  commands_.scripts["b"].status = kExitFailure;
  std::string err;
  EXPECT_EQ(kExitFailure, Build("b", &err));
  std::vector<std::string> starts = Lines("edge_start");
  ASSERT_EQ(2u, starts.size());
  EXPECT_EQ(0u, starts[0].find("\"edge\":0,\"outputs\":[\"a\"],\"command\":\"cc in -o a\""));
  std::vector<std::string> ends = Lines("edge_end");
  ASSERT_EQ(2u, ends.size());
  const BuildLog::Entry* entry = build_log_.Lookup("a");
  ASSERT_TRUE(entry);
  EXPECT_NE(std::string::npos, ends[0].find("\"result\":\"success\",\"exit_status\":0,"));
  EXPECT_NE(std::string::npos, ends[0].find("\"output\":\"warning\\n\""));
  EXPECT_NE(std::string::npos,
            ends[0].find(StringPrintf("\"log\":{\"mtime\":%" PRId64 ",\"command_hash\":\"%016" PRIx64 "\"}",
                                      entry->mtime, entry->command_hash)));
  EXPECT_NE(std::string::npos, ends[1].find("\"result\":\"failure\",\"exit_status\":1,"));
  EXPECT_NE(std::string::npos, ends[1].find("\"log\":null"));
}

TEST_F(BuilderEventsTest, AnInterruptEndsEveryRunningCommandInTheStream) {
  ParseIndependent(2);
  config_.parallelism = 2;
  commands_.scripts["o1"].interrupted = true;
  std::string err;
  EXPECT_EQ(kExitInterrupted, Build("all", &err));
  EXPECT_EQ(2u, Lines("edge_start").size());
  std::vector<std::string> ends = Lines("edge_end");
  ASSERT_EQ(2u, ends.size());
  for (const std::string& end : ends)
    EXPECT_NE(std::string::npos, end.find("\"result\":\"interrupted\",\"exit_status\":null,")) << end;
}

TEST_F(BuilderEventsTest, TheReasonsOfACommandAreInTheStream) {
  explanations_ = Explanations(true);
  Parse("build a: cc in\n");
  disk_.Create("in");
  BuildOk("a");
  std::vector<std::string> explained = Lines("explain");
  ASSERT_EQ(1u, explained.size());
  EXPECT_EQ("\"edge\":0,\"outputs\":[\"a\"],\"reasons\":[\"output a doesn't exist\"]}", explained[0]);
}

TEST_F(BuilderTest, AJobserversSlotsBoundTheBuildInsteadOfDashJ) {
  int fds[2];
  ASSERT_EQ(0, pipe(fds));
  ASSERT_EQ(1, write(fds[1], "+", 1));  // one token: two jobs with the implicit slot
  std::string err;
  std::unique_ptr<Jobserver> jobserver = Jobserver::OpenPipe(fds[0], fds[1], &err);
  ASSERT_TRUE(jobserver) << err;
  ParseIndependent(4);
  config_.parallelism = 10;
  features_.jobserver = jobserver.get();
  BuildOk("all");
  EXPECT_EQ(4u, commands_.started.size());
  EXPECT_EQ(2u, commands_.most_at_once);
  EXPECT_EQ(0u, jobserver->tokens_held());  // every token went back
  char token;
  EXPECT_EQ(1, read(fds[0], &token, 1));
  jobserver.reset();
  close(fds[0]);
  close(fds[1]);
}

TEST_F(BuilderTest, TheBuildCacheWrapsAnInjectedRunner) {
  ScopedTempDir dir;
  RealDiskInterface real;
  real_disk_ = &real;
  commands_.disk = &real;
  commands_.clock = nullptr;
  std::string out = dir.File("out");
  test::WriteRealFile(dir.File("in"), "source\n");
  // Paths written into the manifest: a drive letter's ':' escaped there.
  auto escaped = [](std::string path) {
    for (size_t colon = path.find(':'); colon != std::string::npos; colon = path.find(':', colon + 2))
      path.insert(colon, "$");
    return path;
  };
  Parse("builddir = " + escaped(dir.path()) + "\nbuild " + escaped(out) + ": cc " + escaped(dir.File("in")) + "\n");
  RoninOptions options;
  options.cache_rules = {"cc"};
  std::string err;
  std::unique_ptr<CacheStore> store = OpenCacheStore(dir.File("cache"), 0, &err);
  ASSERT_TRUE(store) << err;
  BuildCache cache(std::move(store), options);
  features_.cache = &cache;
  commands_.scripts[out].output = "compiled";
  BuildOk(out);
  EXPECT_EQ(out, Started());
  EXPECT_EQ("made by compiled", test::ReadRealFile(out));
  EXPECT_EQ(0, cache.counts().hits.load());

  // The output goes; the next build restores it instead of running it.
  NextBuild();
  ASSERT_EQ(0, unlink(out.c_str()));
  BuildOk(out);
  EXPECT_EQ("", Started());
  EXPECT_EQ(1, cache.counts().hits.load());
  EXPECT_EQ("made by compiled", test::ReadRealFile(out));
  const FinishedCommand* restored = spy_.Find(out);
  ASSERT_TRUE(restored);
  EXPECT_TRUE(restored->cached);
  EXPECT_EQ("compiled", status_.printed[out]);
}

}  // namespace
}  // namespace ronin
