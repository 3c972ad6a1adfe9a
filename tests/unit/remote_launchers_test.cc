// Tests for remote execution: the launcher classifier
// (sched/remote_launchers.h) and the admission of local and remote edges
// (sched/remote_jobs.h).
#include "sched/remote_launchers.h"

#include <gtest/gtest.h>

#include "exec/dry_run_command_runner.h"
#include "scan/explain.h"
#include "scan/scan.h"
#include "sched/plan.h"
#include "sched/remote_jobs.h"
#include "test_support.h"

namespace ronin {
namespace {

TEST(RemoteLaunchersTest, LeadingProgram) {
  EXPECT_EQ("distcc", RemoteLaunchers::LeadingProgram("distcc /usr/bin/cc -c a.c"));
  EXPECT_EQ("/usr/bin/icecc", RemoteLaunchers::LeadingProgram("  /usr/bin/icecc cc -c a.c"));
  EXPECT_EQ("distcc", RemoteLaunchers::LeadingProgram("CCACHE_X=1 A_B=c distcc cc"));
  EXPECT_EQ("distcc", RemoteLaunchers::LeadingProgram("env X=1 distcc /usr/bin/cc"));
  EXPECT_EQ("distcc", RemoteLaunchers::LeadingProgram("/usr/bin/env -i -u HOME X=1 distcc cc"));
  EXPECT_EQ("sccache", RemoteLaunchers::LeadingProgram("/usr/bin/cmake -E env X=1 sccache cc"));
  EXPECT_EQ("/opt/my dist/distcc", RemoteLaunchers::LeadingProgram("\"/opt/my dist/distcc\" cc"));
  EXPECT_EQ("distcc", RemoteLaunchers::LeadingProgram("'dist'cc cc"));
  EXPECT_EQ("cmake", RemoteLaunchers::LeadingProgram("cmake -E copy a b"));
  EXPECT_EQ("", RemoteLaunchers::LeadingProgram(""));
  EXPECT_EQ("", RemoteLaunchers::LeadingProgram("X=1 Y=2"));
  EXPECT_EQ("", RemoteLaunchers::LeadingProgram("&& distcc cc"));
}

TEST(RemoteLaunchersTest, DefaultsAndExtras) {
  RemoteLaunchers launchers;
  EXPECT_TRUE(launchers.IsRemote("distcc cc -c a.c"));
  EXPECT_TRUE(launchers.IsRemote("/usr/lib/icecc/bin/icecc cc -c a.c"));
  EXPECT_TRUE(launchers.IsRemote("env RUSTC_WRAPPER=x sccache cc -c a.c"));
  EXPECT_FALSE(launchers.IsRemote("cc -c a.c"));
  EXPECT_FALSE(launchers.IsRemote("ccache cc -c a.c"));
  EXPECT_FALSE(launchers.IsRemote("cc distcc"));       // not the leading program
  EXPECT_FALSE(launchers.IsRemote("mydistcc cc"));     // base names match whole
  EXPECT_FALSE(launchers.IsRemote("distcc.sh cc"));
  EXPECT_FALSE(launchers.IsRemote("X=distcc cc"));
  EXPECT_FALSE(launchers.IsRemote("/usr/bin/distcc/ cc"));
  RemoteLaunchers more({"recc", "fakedist"});
  EXPECT_TRUE(more.IsRemote("recc cc -c a.c"));
  EXPECT_TRUE(more.IsRemote("/tmp/x/fakedist cc -c a.c"));
  EXPECT_TRUE(more.IsRemote("distcc cc"));
}

TEST(RemoteLaunchersTest, ParseLauncherNames) {
  std::vector<std::string> names;
  std::string err;
  EXPECT_TRUE(ParseLauncherNames("recc", &names, &err));
  EXPECT_EQ(std::vector<std::string>{"recc"}, names);
  EXPECT_TRUE(ParseLauncherNames("a,b.sh", &names, &err));
  EXPECT_EQ((std::vector<std::string>{"a", "b.sh"}), names);
  for (const char* bad : {"", ",", "a,", ",a", "a,,b", "/usr/bin/a", "a b"}) {
    names = {"kept"};
    EXPECT_FALSE(ParseLauncherNames(bad, &names, &err)) << bad;
    EXPECT_FALSE(err.empty());
    EXPECT_EQ(std::vector<std::string>{"kept"}, names);
  }
}

class RemoteJobsTest : public testing::Test {
 protected:
  RemoteJobsTest() : scan_(&state_, nullptr, nullptr, &disk_, &explanations_) {}

  // `remote` compiles through distcc and `local` links, all ready at once.
  void Plan(int remote, int local) {
    std::string manifest = "rule dcc\n  command = distcc cc -c $in -o $out\nrule link\n  command = ld $out\n";
    std::string all;
    for (int i = 0; i < remote; ++i) manifest += "build r" + std::to_string(i) + ": dcc src\n";
    for (int i = 0; i < local; ++i) manifest += "build l" + std::to_string(i) + ": link\n";
    for (int i = 0; i < remote; ++i) all += " r" + std::to_string(i);
    for (int i = 0; i < local; ++i) all += " l" + std::to_string(i);
    manifest += "build all: phony" + all + "\n";
    ASSERT_TRUE(test::ParseManifest(&state_, manifest));
    disk_.Create("src");
    std::vector<Node*> validations;
    std::string err;
    Node* target = state_.GetNode("all");
    ASSERT_TRUE(scan_.RecomputeDirty(target, &validations, &err)) << err;
    ASSERT_TRUE(plan_.AddTarget(target, &err)) << err;
    plan_.PrepareQueue();
  }

  State state_;
  test::VirtualDisk disk_;
  Explanations explanations_{false};
  DependencyScan scan_;
  ronin::Plan plan_;
  DryRunCommandRunner runner_;  // stages are told which runner started a job
};

TEST_F(RemoteJobsTest, RemoteEdgesTakeRemoteSlotsOnly) {
  Plan(5, 3);
  RemoteJobs jobs(RemoteLaunchers(), 4);
  jobs.set_upstream(&plan_);
  std::vector<Work> remote;
  // No local room: only remote edges start, up to the remote limit.
  for (Work work = jobs.Next(false); work.edge; work = jobs.Next(false)) {
    EXPECT_TRUE(jobs.IsRemote(work.edge));
    EXPECT_EQ(JobSlot::kRemote, work.slot);
    jobs.Started(work, runner_);
    remote.push_back(work);
  }
  EXPECT_EQ(4u, remote.size());
  EXPECT_EQ(4, jobs.running());
  // Local room: the links start although the remote slots are full.
  Work local = jobs.Next(true);
  ASSERT_TRUE(local.edge);
  EXPECT_EQ(JobSlot::kLocal, local.slot);
  EXPECT_EQ("ld", local.edge->EvaluateCommand().substr(0, 2));
  // A remote slot frees: the held compile goes next.
  jobs.Finished(remote[0]);
  EXPECT_EQ(3, jobs.running());
  Work fifth = jobs.Next(false);
  ASSERT_TRUE(fifth.edge);
  EXPECT_EQ(JobSlot::kRemote, fifth.slot);
  jobs.Started(fifth, runner_);
  EXPECT_EQ(nullptr, jobs.Next(false).edge);
  // The other two links come one per local slot.
  EXPECT_TRUE(jobs.Next(true).edge);
  EXPECT_TRUE(jobs.Next(true).edge);
  EXPECT_EQ(nullptr, jobs.Next(true).edge);
}

TEST_F(RemoteJobsTest, NoRoomStartsNothing) {
  Plan(2, 2);
  RemoteJobs jobs(RemoteLaunchers(), 1);
  jobs.set_upstream(&plan_);
  Work first = jobs.Next(false);
  ASSERT_TRUE(first.edge);
  jobs.Started(first, runner_);
  EXPECT_EQ(nullptr, jobs.Next(false).edge);
  // Finishing a local edge never frees a remote slot.
  Work link = jobs.Next(true);
  ASSERT_TRUE(link.edge);
  jobs.Started(link, runner_);
  jobs.Finished(link);
  EXPECT_EQ(1, jobs.running());
  EXPECT_EQ(nullptr, jobs.Next(false).edge);
}

}  // namespace
}  // namespace ronin
