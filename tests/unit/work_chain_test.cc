// Tests for the work chain (work_chain.h) and its stages that count slots:
// -j, -l and the runner's room (local_slots.h), and a jobserver's tokens
// (jobserver_slots.h). Remote slots and memory admission have their own
// tests (remote_launchers_test.cc, memory_admission_test.cc).
#include "sched/work_chain.h"

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "exec/command_runner.h"
#include "graph/state.h"
#include "sched/jobserver.h"
#include "sched/jobserver_slots.h"
#include "sched/local_slots.h"
#include "test_support.h"

namespace ronin {
namespace {

// Stands for the plan: hands out its edges while local work may start.
class ReadyEdges : public WorkSource {
 public:
  Work Next(bool local_room) override {
    asked_with_room.push_back(local_room);
    if (!local_room || ready.empty()) return Work();
    Work work{ready.front()};
    ready.pop_front();
    return work;
  }
  void PutBack(const Work& work) override { ready.push_front(work.edge); }
  std::deque<Edge*> ready;
  std::vector<bool> asked_with_room;
};

class RoomyRunner : public CommandRunner {
 public:
  bool HasRoom() const override { return has_room; }
  bool StartCommand(Edge*) override { return true; }
  bool WaitForCommand(Result*, int64_t, int64_t, int) override { return false; }
  bool has_room = true;
};

// A stage that notes what it hears, in order, under a name.
class NotingStage : public WorkStage {
 public:
  NotingStage(std::string name, std::vector<std::string>* notes) : name_(std::move(name)), notes_(notes) {}
  Work Next(bool local_room) override {
    notes_->push_back(name_ + " next");
    return upstream_->Next(local_room);
  }
  void Started(const Work&, const CommandRunner&) override { notes_->push_back(name_ + " started"); }
  void Finished(const Work&) override { notes_->push_back(name_ + " finished"); }
  int WakeFd() override {
    notes_->push_back(name_ + " wake");
    return wake_fd;
  }
  int wake_fd = -1;

 private:
  std::string name_;
  std::vector<std::string>* notes_;
};

class WorkChainTest : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(test::ParseManifest(&state_, "rule r\n  command = r\nbuild a: r\nbuild b: r\nbuild c: r\n"));
    for (const char* name : {"a", "b", "c"}) ready_.ready.push_back(state_.LookupNode(name)->in_edge);
  }
  Edge* EdgeFor(const char* name) { return state_.LookupNode(name)->in_edge; }

  State state_;
  ReadyEdges ready_;
  RoomyRunner runner_;
};

TEST_F(WorkChainTest, StagesAreAskedFromTheLastAndAllHearOfStartsAndEnds) {
  std::vector<std::string> notes;
  NotingStage first("first", &notes), second("second", &notes);
  second.wake_fd = 7;
  WorkChain chain(&ready_, {&first, &second});
  Work work = chain.Next();
  EXPECT_EQ(EdgeFor("a"), work.edge);
  chain.Started(work, runner_);
  chain.Finished(work);
  EXPECT_EQ(7, chain.WakeFd());
  EXPECT_EQ((std::vector<std::string>{"second next", "first next", "first started", "second started",
                                      "first finished", "second finished", "first wake", "second wake"}),
            notes);
  WorkChain plan_alone(&ready_, {});
  EXPECT_EQ(EdgeFor("b"), plan_alone.Next().edge);
  EXPECT_EQ(-1, plan_alone.WakeFd());
}

TEST_F(WorkChainTest, LocalSlotsHoldTheDashJLimit) {
  LocalSlots slots(2, 0.0, runner_, [] { return 99.0; });  // no -l: the load is never read
  WorkChain chain(&ready_, {&slots});
  Work a = chain.Next(), b = chain.Next();
  chain.Started(a, runner_);
  chain.Started(b, runner_);
  EXPECT_EQ(nullptr, chain.Next().edge);
  EXPECT_FALSE(ready_.asked_with_room.back());
  chain.Finished(a);
  EXPECT_EQ(EdgeFor("c"), chain.Next().edge);
}

TEST_F(WorkChainTest, LocalSlotsCountOnlyLocalJobs) {
  LocalSlots slots(1, 0.0, runner_, [] { return 0.0; });
  WorkChain chain(&ready_, {&slots});
  chain.Started(Work{EdgeFor("c"), JobSlot::kRemote}, runner_);
  Work a = chain.Next();
  ASSERT_EQ(EdgeFor("a"), a.edge);
  chain.Started(a, runner_);
  EXPECT_EQ(nullptr, chain.Next().edge);
}

TEST_F(WorkChainTest, LocalSlotsStopAtTheLoadLimitButOneJobAlwaysRuns) {
  double load = 3.0;
  LocalSlots slots(10, 2.0, runner_, [&] { return load; });  // -l 2
  WorkChain chain(&ready_, {&slots});
  Work a = chain.Next();  // nothing runs: one job goes whatever the load
  ASSERT_EQ(EdgeFor("a"), a.edge);
  chain.Started(a, runner_);
  EXPECT_EQ(nullptr, chain.Next().edge);
  load = 1.5;  // -l allows 2 - 1.5 more jobs: none
  EXPECT_EQ(nullptr, chain.Next().edge);
  load = 0.5;  // and now one more
  EXPECT_EQ(EdgeFor("b"), chain.Next().edge);
}

TEST_F(WorkChainTest, LocalSlotsHeedTheRunnersRoom) {
  LocalSlots slots(10, 0.0, runner_, [] { return 0.0; });
  WorkChain chain(&ready_, {&slots});
  runner_.has_room = false;  // e.g. a restored result waits to be collected
  EXPECT_EQ(nullptr, chain.Next().edge);
  runner_.has_room = true;
  EXPECT_EQ(EdgeFor("a"), chain.Next().edge);
}

// A pipe preloaded with tokens, as make's jobserver.
struct TokenPipe {
  explicit TokenPipe(int tokens) {
    EXPECT_EQ(0, pipe(fds));
    for (int i = 0; i < tokens; ++i) EXPECT_EQ(1, write(fds[1], "+", 1));
  }
  ~TokenPipe() {
    close(fds[0]);
    close(fds[1]);
  }
  int Count() {
    int flags = fcntl(fds[0], F_GETFL);
    fcntl(fds[0], F_SETFL, flags | O_NONBLOCK);
    char buffer[64];
    ssize_t n = read(fds[0], buffer, sizeof(buffer));
    if (n > 0) {
      EXPECT_EQ(n, write(fds[1], buffer, n));  // put back
    }
    fcntl(fds[0], F_SETFL, flags);
    return n > 0 ? static_cast<int>(n) : 0;
  }
  std::unique_ptr<Jobserver> Client() {
    std::string err;
    std::unique_ptr<Jobserver> client = Jobserver::OpenPipe(fds[0], fds[1], &err);
    EXPECT_TRUE(client) << err;
    return client;
  }
  int fds[2];
};

TEST_F(WorkChainTest, JobserverSlotsTakeATokenForEachLocalJobBeyondTheFirst) {
  TokenPipe pool(1);
  std::unique_ptr<Jobserver> jobserver = pool.Client();
  ASSERT_TRUE(jobserver);
  {
    JobserverSlots slots(jobserver.get());
    WorkChain chain(&ready_, {&slots});
    Work a = chain.Next();  // the implicit slot
    chain.Started(a, runner_);
    Work b = chain.Next();  // the token
    chain.Started(b, runner_);
    EXPECT_EQ(0, pool.Count());
    chain.Started(Work{EdgeFor("c"), JobSlot::kRemote}, runner_);  // a remote job holds no slot
    EXPECT_EQ(nullptr, chain.Next().edge);  // none left
    EXPECT_EQ(jobserver->wait_fd(), chain.WakeFd());  // so the wait watches the pool
    EXPECT_EQ(-1, chain.WakeFd());  // only once asked for
    chain.Finished(b);
    EXPECT_EQ(1, pool.Count());  // back at once
    Work c = chain.Next();
    ASSERT_EQ(EdgeFor("c"), c.edge);
    chain.Started(c, runner_);
    EXPECT_EQ(0, pool.Count());
    chain.Abort();  // the build stopped: every slot goes back
    EXPECT_EQ(1, pool.Count());
  }
  EXPECT_EQ(0u, jobserver->tokens_held());
}

TEST_F(WorkChainTest, AJobserverSlotReservedForNothingGoesBackBeforeTheWait) {
  TokenPipe pool(1);
  std::unique_ptr<Jobserver> jobserver = pool.Client();
  ASSERT_TRUE(jobserver);
  JobserverSlots slots(jobserver.get());
  ready_.ready.clear();
  WorkChain chain(&ready_, {&slots});
  chain.Started(Work{EdgeFor("a")}, runner_);  // the implicit slot
  EXPECT_EQ(nullptr, chain.Next().edge);       // reserves the token: nothing is ready
  EXPECT_EQ(0, pool.Count());
  EXPECT_EQ(-1, chain.WakeFd());  // a slot was free: nothing to wait for
  EXPECT_EQ(1, pool.Count());
}

}  // namespace
}  // namespace ronin
