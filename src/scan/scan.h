// The dirty scan: walks the graph below a target (iteratively, so depth
// never exhausts the stack), stats files, loads discovered dependencies
// and decides which outputs are out of date, as Ninja's rules define.
#ifndef RONIN_SCAN_SCAN_H_
#define RONIN_SCAN_SCAN_H_

#include <string>
#include <vector>

#include "log/build_log.h"
#include "scan/dep_loader.h"
#include "scan/dyndep.h"

namespace ronin {

class BuildLog;
class ContentHashStore;
class SkipRecorder;
class DepsLog;
class DiskInterface;
class Explanations;
class State;
struct Edge;
struct Node;

class DependencyScan {
 public:
  DependencyScan(State* state, BuildLog* build_log, DepsLog* deps_log, DiskInterface* disk,
                 Explanations* explanations)
      : build_log_(build_log),
        disk_(disk),
        explanations_(explanations),
        dep_loader_(state, deps_log, disk, explanations),
        dyndep_loader_(state, disk, explanations) {}

  // Updates the dirty state of `node` and everything it depends on.
  // Validation nodes met on the way are appended to `validation_nodes`.
  bool RecomputeDirty(Node* node, std::vector<Node*>* validation_nodes, std::string* err);

  // Decides, for an edge whose inputs are all clean, whether its outputs are
  // dirty given the newest input.
  bool RecomputeOutputsDirty(Edge* edge, Node* most_recent_input, bool* dirty, std::string* err);

  bool LoadDyndeps(Node* node, DyndepFile* file, std::string* err) const {
    return dyndep_loader_.LoadDyndeps(node, file, err);
  }

  BuildLog* build_log() const { return build_log_; }
  void set_build_log(BuildLog* log) { build_log_ = log; }
  DiskInterface* disk() const { return disk_; }
  // --content-hash: mtime verdicts are checked against content (null: off).
  void set_content_store(ContentHashStore* store) { content_ = store; }
  ContentHashStore* content_store() const { return content_; }
  // Who hears of the edges skipped by content as the scan finds them (the
  // event stream); -t trace's record follows from their settlement.
  void add_skip_recorder(SkipRecorder* recorder) { skip_recorders_.push_back(recorder); }
  // Where the edges found clean by content (not by mtimes) are appended,
  // to be settled (sched/skip_settlement.h). Null: nowhere.
  void set_content_skips(std::vector<Edge*>* skips) { content_skips_ = skips; }
  Explanations* explanations() const { return explanations_; }

 private:
  struct Frame;
  // One scan from one root; RecomputeDirty repeats it for validations.
  bool ScanFrom(Node* root, std::vector<Node*>* validation_nodes, std::string* err);
  // The first visit of an edge: dyndep, output stats, deps. False on error.
  bool EnterEdge(Frame* frame, std::vector<Frame>* stack, std::string* err);
  bool PrepareEdge(Frame* frame, std::vector<Node*>* validation_nodes, std::string* err);
  bool VerifyDAG(Node* node, std::vector<Frame>* stack, std::string* err);
  // An edge's command line, evaluated only when first compared with a log
  // entry (or not at all, if its hash was computed ahead).
  struct LazyCommand {
    explicit LazyCommand(const Edge* edge) : edge(edge) {}
    const Edge* edge;
    std::string text;
    bool evaluated = false;
    void Evaluate();
    bool Matches(BuildLog::Entry* entry);
  };
  // With content hashing, the first reason that rests on mtimes alone (and
  // the oldest time an input was compared with), kept until every other
  // reason is ruled out.
  struct StaleByMtime {
    std::string reason;
    TimeStamp threshold = 0;
    void Note(const std::string& why, TimeStamp compared_with) {
      if (reason.empty()) reason = why;
      if (threshold == 0 || compared_with < threshold) threshold = compared_with;
    }
  };
  // The log's entry for `output` of `edge`.
  BuildLog::Entry* LogEntry(const Edge* edge, const Node* output) const;
  // True if `output` is dirty. With `defer`, mtime verdicts go there instead.
  bool RecomputeOutputDirty(const Edge* edge, const Node* most_recent_input, LazyCommand* command,
                            Node* output, StaleByMtime* defer);
  // An mtime verdict: dirty now (recorded for -d explain), or, with
  // `defer`, noted there for the content check.
  bool StaleNow(const Edge* edge, const std::string& reason, TimeStamp compared_with, StaleByMtime* defer);
  // -d explain: the inputs newer than `threshold` whose content was checked.
  void ExplainUnchangedContent(const Edge* edge, TimeStamp threshold);

  BuildLog* build_log_;
  DiskInterface* disk_;
  Explanations* explanations_;
  ContentHashStore* content_ = nullptr;
  std::vector<SkipRecorder*> skip_recorders_;
  std::vector<Edge*>* content_skips_ = nullptr;
  DepLoader dep_loader_;
  DyndepLoader dyndep_loader_;
};

}  // namespace ronin

#endif  // RONIN_SCAN_SCAN_H_
