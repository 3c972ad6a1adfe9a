// Tests for the content-hash store (scan/content_hash_store.h) on real files:
// what makes an edge's inputs "unchanged", the guards (outputs rewritten
// elsewhere, inputs written while the command ran), early cutoff, and that
// recorded digests spare a later run any hashing.
#include "scan/content_hash_store.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "base/disk.h"
#include "graph/graph.h"
#include "graph/state.h"
#include "test_support.h"

namespace ronin {
namespace {

using test::ParseManifest;
using test::ScopedTempDir;
using test::WriteRealFile;

class ContentHashStoreTest : public testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"in1", "in2", "out"}) WriteRealFile(dir_.File(name), std::string(name) + "\n");
    ASSERT_TRUE(ParseManifest(&state_, "rule r\n  command = c\nbuild " + dir_.File("out") + ": r " +
                                           dir_.File("in1") + " " + dir_.File("in2") + "\n"));
    edge_ = state_.LookupNode(dir_.File("out"))->in_edge;
    Reopen();
  }

  // A fresh state file and store over the same file, as the next run.
  void Reopen() {
    store_.reset();
    state_file_.reset(new StateFile);
    std::string err;
    ASSERT_TRUE(state_file_->Load(dir_.File(".ronin_state"), &err));
    store_.reset(new ContentHashStore(&state_, state_file_.get()));
    Restat();
  }
  void Restat() {
    std::string err;
    for (Node* node : {Input(0), Input(1), Output()}) ASSERT_TRUE(node->Stat(&disk_, &err)) << err;
  }
  Node* Input(int i) { return edge_->inputs[i]; }
  Node* Output() { return edge_->outputs[0]; }
  // Rewrites a file and dates it `seconds` after its current mtime.
  // (restat = false: the nodes keep what the scan saw, as during a build.)
  void Rewrite(const char* name, const std::string& content, bool restat = true) {
    const int seconds = 1;
    std::string path = dir_.File(name);
    struct stat info;
    ASSERT_EQ(0, stat(path.c_str(), &info));
    WriteRealFile(path, content);
    struct timespec times[2] = {info.st_mtim, info.st_mtim};
    times[0].tv_sec += seconds;
    times[1].tv_sec += seconds;
    ASSERT_EQ(0, utimensat(AT_FDCWD, path.c_str(), times, 0));
    if (restat) Restat();
  }

  ScopedTempDir dir_;
  State state_;
  RealDiskInterface disk_;
  Edge* edge_ = nullptr;
  std::unique_ptr<StateFile> state_file_;
  std::unique_ptr<ContentHashStore> store_;
};

TEST_F(ContentHashStoreTest, NoRecordMeansNotUnchanged) { EXPECT_FALSE(store_->InputsUnchanged(edge_)); }

TEST_F(ContentHashStoreTest, SameContentNewerMtimeIsUnchanged) {
  store_->RecordRun(edge_, {}, 0);
  EXPECT_TRUE(store_->InputsUnchanged(edge_));
  Rewrite("in1", "in1\n");
  Reopen();
  EXPECT_TRUE(store_->InputsUnchanged(edge_));
  EXPECT_EQ(1u, store_->files_hashed());  // only the rewritten file
  Rewrite("in2", "changed\n");
  Reopen();
  EXPECT_FALSE(store_->InputsUnchanged(edge_));
}

TEST_F(ContentHashStoreTest, RecordedDigestsSpareTheNextRunAnyHashing) {
  store_->RecordRun(edge_, {}, 0);
  Reopen();
  EXPECT_TRUE(store_->InputsUnchanged(edge_));
  EXPECT_EQ(0u, store_->files_hashed());
}

TEST_F(ContentHashStoreTest, AnOutputRewrittenElsewhereInvalidatesTheRecord) {
  store_->RecordRun(edge_, {}, 0);
  Rewrite("out", "out\n");
  Reopen();
  EXPECT_FALSE(store_->InputsUnchanged(edge_));
}

TEST_F(ContentHashStoreTest, AnInputWrittenAfterTheCommandStartedLeavesNoRecord) {
  store_->RecordRun(edge_, {}, 0);
  Rewrite("in1", "in1 while running\n");
  // The command started before in1's new mtime: it may have read either.
  store_->RecordRun(edge_, {}, Input(0)->mtime - 1);
  Reopen();
  EXPECT_FALSE(store_->InputsUnchanged(edge_));
}

TEST_F(ContentHashStoreTest, AnInputAGeneratorRewroteBeforeItsOutputsIsRecordedAsItIsNow) {
  // A generator's log entry has its outputs' mtime: what it rewrote before
  // them (CMake's CMakeCache.txt) is what it read.
  State state;
  ASSERT_TRUE(ParseManifest(&state, "rule gen\n  command = g\n  generator = 1\nbuild " + dir_.File("out") + ": gen " +
                                        dir_.File("in1") + " " + dir_.File("in2") + "\n"));
  edge_ = state.LookupNode(dir_.File("out"))->in_edge;
  store_.reset(new ContentHashStore(&state, state_file_.get()));
  Restat();
  EXPECT_FALSE(store_->InputsUnchanged(edge_));  // hashes in1 as the scan saw it
  Rewrite("in1", "in1 rewritten by the generator\n", false);
  Rewrite("out", "out\n", false);
  std::string err;
  ASSERT_TRUE(Output()->Stat(&disk_, &err)) << err;  // as the builder does after the run
  store_->RecordRun(edge_, {}, Output()->mtime);
  Restat();
  EXPECT_TRUE(store_->InputsUnchanged(edge_));
}

TEST_F(ContentHashStoreTest, TheRegeneratedManifestsInputsReplaceTheOldOnes) {
  WriteRealFile(dir_.File("in3"), "in3\n");
  Node* added = state_.GetNode(dir_.File("in3"));
  std::string err;
  ASSERT_TRUE(added->Stat(&disk_, &err)) << err;
  store_->RecordRun(edge_, {}, std::max(added->mtime, Output()->mtime));
  // The manifest the run wrote gives the edge one more input.
  edge_->inputs.push_back(added);
  edge_->implicit_deps = 1;
  EXPECT_FALSE(store_->InputsUnchanged(edge_));
  store_->RecordRegeneration(edge_);
  EXPECT_TRUE(store_->InputsUnchanged(edge_));
  // An input newer than the run may not be what it read: no record.
  Rewrite("in3", "in3 later\n");
  store_->RecordRegeneration(edge_);
  EXPECT_FALSE(store_->InputsUnchanged(edge_));
}

TEST_F(ContentHashStoreTest, RetouchedOutputsKeepTheirRecords) {
  store_->RecordRun(edge_, {}, 0);
  std::vector<TimeStamp> before = {Output()->mtime};
  TimeStamp later = Output()->mtime + 5000000000LL;
  std::string err;
  ASSERT_TRUE(disk_.SetMtime(dir_.File("out"), later, &err)) << err;
  Output()->mtime = later;
  store_->OutputsRetouched(edge_, before);
  Reopen();
  EXPECT_TRUE(store_->InputsUnchanged(edge_));
  EXPECT_EQ(0u, store_->files_hashed());
}

TEST_F(ContentHashStoreTest, DiscoveredInputsCountAndOrderDoesNot) {
  WriteRealFile(dir_.File("dep.h"), "dep\n");
  Node* dep = state_.GetNode(dir_.File("dep.h"));
  store_->RecordRun(edge_, {dep, Input(1), Input(0)}, 0);
  EXPECT_FALSE(store_->InputsUnchanged(edge_));  // the scan has not loaded dep.h yet
  edge_->inputs.push_back(dep);
  edge_->implicit_deps = 1;
  std::string err;
  ASSERT_TRUE(dep->Stat(&disk_, &err));
  EXPECT_TRUE(store_->InputsUnchanged(edge_));
}

TEST_F(ContentHashStoreTest, AMissingInputIsNeverUnchanged) {
  store_->RecordRun(edge_, {}, 0);
  ASSERT_EQ(0, unlink(dir_.File("in2").c_str()));
  Reopen();
  EXPECT_FALSE(store_->InputsUnchanged(edge_));
}

TEST_F(ContentHashStoreTest, IdenticalOutputsAreCutOff) {
  std::vector<Node*> unchanged;
  EXPECT_TRUE(store_->UnchangedOutputs(edge_, &unchanged));  // the outputs are looked at
  EXPECT_TRUE(unchanged.empty());                            // nothing known before
  Rewrite("out", "out\n", false);  // the command ran again and wrote the same
  ASSERT_TRUE(store_->UnchangedOutputs(edge_, &unchanged));
  ASSERT_EQ(1u, unchanged.size());
  EXPECT_EQ(Output(), unchanged[0]);
  unchanged.clear();
  Rewrite("out", "different\n", false);
  ASSERT_TRUE(store_->UnchangedOutputs(edge_, &unchanged));
  EXPECT_TRUE(unchanged.empty());
}

TEST_F(ContentHashStoreTest, RecordsTheInputsOfSuccessfulCommandsOnly) {
  FinishedCommand failed;
  failed.edge = edge_;
  failed.status = kExitFailure;
  std::string err;
  ASSERT_TRUE(store_->Record(failed, &err));
  Reopen();
  EXPECT_FALSE(store_->InputsUnchanged(edge_));  // no run recorded
  FinishedCommand succeeded = failed;
  succeeded.status = kExitSuccess;
  ASSERT_TRUE(store_->Record(succeeded, &err));
  Reopen();
  EXPECT_TRUE(store_->InputsUnchanged(edge_));
}

}  // namespace
}  // namespace ronin
