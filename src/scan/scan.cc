#include "scan/scan.h"

#include <inttypes.h>
#include <stdio.h>

#include <algorithm>
#include <deque>

#include "base/disk.h"
#include "graph/graph.h"
#include "log/build_log.h"
#include "log/build_recorder.h"
#include "scan/content_hash_store.h"
#include "scan/explain.h"

namespace ronin {

// One node being visited. Frames below the top are the nodes whose edges
// are "in the stack" (for cycle detection), exactly as a recursive walk.
struct DependencyScan::Frame {
  enum class Phase : uint8_t { kEnter, kAfterDyndep, kInputs };

  explicit Frame(Node* node) : node(node) {}
  // Meaningful once the frame has entered its edge.
  Edge* edge() const { return node->in_edge; }

  // Kept small (24 bytes): a 100k-deep chain keeps 100k frames at once.
  Node* node;
  Node* most_recent_input = nullptr;
  uint32_t next_input = 0;
  Phase phase = Phase::kEnter;
  bool dirty = false;
  bool visited_dyndep = false;
  bool input_visited = false;
};


bool DependencyScan::RecomputeDirty(Node* initial, std::vector<Node*>* validation_nodes,
                                    std::string* err) {
  // Validations found on the way become roots of further scans.
  std::deque<Node*> pending(1, initial);
  std::vector<Node*> found;
  while (!pending.empty()) {
    Node* node = pending.front();
    pending.pop_front();
    found.clear();
    if (!ScanFrom(node, &found, err)) return false;
    pending.insert(pending.end(), found.begin(), found.end());
    if (validation_nodes) validation_nodes->insert(validation_nodes->end(), found.begin(), found.end());
  }
  return true;
}

bool DependencyScan::VerifyDAG(Node* node, std::vector<Frame>* stack, std::string* err) {
  Edge* edge = node->in_edge;
  if (edge->mark != Edge::Visit::kInStack) return true;
  // Every frame but the top (this node's own) is in the walk's stack.
  size_t end = stack->size() - 1;
  size_t start = 0;
  while (start < end && (*stack)[start].node->in_edge != edge) ++start;
  // Report the cycle as starting and ending at this node, not at some other
  // output of the same edge.
  *err = "dependency cycle: ";
  err->append(node->path);
  for (size_t i = start + 1; i < end; ++i) {
    err->append(" -> ");
    err->append((*stack)[i].node->path);
  }
  err->append(" -> ");
  err->append(node->path);
  if (start + 1 == end && edge->maybe_phonycycle_diagnostic()) {
    // The parser would have dropped a self-reference unless told not to.
    err->append(" [-w phonycycle=err]");
  }
  return false;
}

bool DependencyScan::ScanFrom(Node* root, std::vector<Node*>* validation_nodes, std::string* err) {
  std::vector<Frame> stack;
  stack.emplace_back(root);
  while (!stack.empty()) {
    Frame* frame = &stack.back();
    switch (frame->phase) {
      case Frame::Phase::kEnter: {
        Node* node = frame->node;
        Edge* edge = node->in_edge;
        if (!edge) {
          // A source file: dirty iff missing. (Its stat may have been
          // prefetched, so the flag is set here, not only after a stat.)
          if (!node->StatIfNecessary(disk_, err)) return false;
          node->dirty = !node->exists();
          stack.pop_back();
          continue;
        }
        if (edge->mark == Edge::Visit::kDone) {
          stack.pop_back();
          continue;
        }
        if (!VerifyDAG(node, &stack, err)) return false;
        if (!EnterEdge(frame, &stack, err)) return false;
        continue;
      }
      case Frame::Phase::kAfterDyndep:
        if (!PrepareEdge(frame, validation_nodes, err)) return false;
        continue;
      case Frame::Phase::kInputs:
        break;
    }

    // Visit inputs one at a time; a child visit suspends this frame.
    Edge* edge = frame->edge();
    bool suspended = false;
    while (frame->next_input < edge->inputs.size()) {
      size_t index = frame->next_input;
      Node* input = edge->inputs[index];
      if (!frame->input_visited) {
        frame->input_visited = true;
        if (!input->in_edge) {
          // A source file, handled in place: dirty iff missing.
          if (!input->StatIfNecessary(disk_, err)) return false;
          input->dirty = !input->exists();
        } else if (input->in_edge->mark != Edge::Visit::kDone) {
          stack.emplace_back(input);
          suspended = true;
          break;
        }
      }
      frame->input_visited = false;
      ++frame->next_input;
      if (input->in_edge && !input->in_edge->outputs_ready) edge->outputs_ready = false;
      if (edge->is_order_only(index)) continue;
      if (input->dirty) {
        explanations_->Record(edge, "%s is dirty", std::string(input->path).c_str());
        frame->dirty = true;
      } else if (!frame->most_recent_input || input->mtime > frame->most_recent_input->mtime) {
        frame->most_recent_input = input;
      }
    }
    if (suspended) continue;

    if (!frame->dirty && !RecomputeOutputsDirty(edge, frame->most_recent_input, &frame->dirty, err))
      return false;
    if (frame->dirty) {
      for (Node* output : edge->outputs) output->dirty = true;
      // A phony edge without inputs has nothing to run: always "ready".
      if (!(edge->is_phony() && edge->inputs.empty())) edge->outputs_ready = false;
    }
    edge->mark = Edge::Visit::kDone;
    stack.pop_back();
  }
  return true;
}

bool DependencyScan::EnterEdge(Frame* frame, std::vector<Frame>* stack, std::string* err) {
  (void)err;
  Edge* edge = frame->edge();
  edge->mark = Edge::Visit::kInStack;
  frame->phase = Frame::Phase::kAfterDyndep;
  edge->outputs_ready = true;
  edge->deps_missing = false;
  // A pending dyndep file is visited first: if it turns out up to date it is
  // loaded now, so its extra inputs and outputs take part in this scan.
  if (!edge->deps_loaded && edge->dyndep() && edge->dyndep()->dyndep_pending) {
    frame->visited_dyndep = true;
    stack->emplace_back(edge->dyndep());  // invalidates `frame`
  }
  return true;
}

bool DependencyScan::PrepareEdge(Frame* frame, std::vector<Node*>* validation_nodes, std::string* err) {
  Edge* edge = frame->edge();
  if (frame->visited_dyndep) {
    Node* dyndep = edge->dyndep();
    if (!dyndep->in_edge || dyndep->in_edge->outputs_ready) {
      DyndepFile file;
      if (!LoadDyndeps(dyndep, &file, err)) return false;
    }
  }
  for (Node* output : edge->outputs) {
    if (!output->StatIfNecessary(disk_, err)) return false;
  }
  if (!edge->deps_loaded) {
    edge->deps_loaded = true;
    if (!dep_loader_.LoadDeps(edge, err)) {
      if (!err->empty()) return false;
      // Missing or stale discovered deps: rebuild to regenerate them.
      frame->dirty = edge->deps_missing = true;
    }
  }
  // Validations are scanned as separate roots, so that one depending on
  // this very edge is not mistaken for a cycle.
  validation_nodes->insert(validation_nodes->end(), edge->validations().begin(), edge->validations().end());
  frame->phase = Frame::Phase::kInputs;
  return true;
}

bool DependencyScan::RecomputeOutputsDirty(Edge* edge, Node* most_recent_input, bool* dirty,
                                           std::string* err) {
  (void)err;
  // The command is evaluated (and hashed) at most once. Without a hash
  // computed ahead it is evaluated up front, as Ninja does: that decides
  // which rule-variable cycle is reported first.
  LazyCommand command(edge);
  if (!edge->is_phony() && build_log_ && !edge->command_hash_known) command.Evaluate();
  // With content hashing, a verdict that rests on mtimes alone waits until
  // every other reason has been ruled out, then asks about content.
  StaleByMtime stale;
  StaleByMtime* defer = content_ && !edge->is_phony() ? &stale : nullptr;
  for (Node* output : edge->outputs) {
    if (RecomputeOutputDirty(edge, most_recent_input, &command, output, defer)) {
      *dirty = true;
      return true;
    }
  }
  if (stale.reason.empty()) return true;
  if (content_->InputsUnchanged(edge)) {
    ExplainUnchangedContent(edge, stale.threshold);
    for (SkipRecorder* recorder : skip_recorders_) recorder->Skipped(edge);
    if (content_skips_) content_skips_->push_back(edge);
    return true;
  }
  explanations_->Record(edge, "%s", stale.reason.c_str());
  *dirty = true;
  return true;
}

void DependencyScan::ExplainUnchangedContent(const Edge* edge, TimeStamp threshold) {
  // The edge will print no status line to carry the reason: say it now.
  if (!explanations_->enabled()) return;
  auto begin = edge->inputs.begin();
  for (auto it = begin; it != edge->inputs.end() - edge->order_only_deps; ++it) {
    const Node* input = *it;
    // Once per input, also when the deps log lists a declared one again.
    if (input->mtime > threshold && std::find(begin, it, input) == it)
      PrintExplanation("%s is newer than %s (%" PRId64 " vs %" PRId64 ") but its content is unchanged since %s was built",
                       std::string(input->path).c_str(), std::string(edge->outputs[0]->path).c_str(), input->mtime,
                       threshold, std::string(edge->outputs[0]->path).c_str());
  }
}

bool DependencyScan::StaleNow(const Edge* edge, const std::string& reason, TimeStamp compared_with,
                              StaleByMtime* defer) {
  if (defer) {
    defer->Note(reason, compared_with);
    return false;
  }
  explanations_->Record(edge, "%s", reason.c_str());
  return true;
}

void DependencyScan::LazyCommand::Evaluate() {
  if (evaluated) return;
  text = edge->EvaluateCommand(true);
  evaluated = true;
}

bool DependencyScan::LazyCommand::Matches(BuildLog::Entry* entry) {
  if (!entry->legacy_hash && edge->command_hash_known) return entry->command_hash == edge->command_hash;
  Evaluate();
  return BuildLog::CommandMatches(entry, text);
}

BuildLog::Entry* DependencyScan::LogEntry(const Edge* edge, const Node* output) const {
  return output == edge->outputs[0] ? build_log_->LookupFirstOutput(edge) : build_log_->Lookup(output->path);
}

bool DependencyScan::RecomputeOutputDirty(const Edge* edge, const Node* most_recent_input,
                                          LazyCommand* command, Node* output, StaleByMtime* defer) {
  // Only an explanation needs the path as a C string: an up-to-date output
  // (every output of a no-op) costs no copy.
  auto path = [output] { return std::string(output->path); };
  if (edge->is_phony()) {
    // Phony outputs are aliases; only an input-less one missing is dirty.
    if (edge->inputs.empty() && !output->exists()) {
      explanations_->Record(edge, "output %s of phony edge with no inputs doesn't exist", path().c_str());
      return true;
    }
    if (most_recent_input) output->UpdatePhonyMtime(most_recent_input->mtime);
    return false;
  }

  if (!output->exists()) {
    explanations_->Record(edge, "output %s doesn't exist", path().c_str());
    return true;
  }

  // A restat edge may have left its output untouched last time; its log
  // entry (checked below) then says whether inputs changed since.
  BuildLog::Entry* entry = nullptr;
  bool used_restat = false;
  if (build_log_ && edge->GetBindingBool(Rule::kRestat)) {
    entry = LogEntry(edge, output);
    used_restat = entry != nullptr;
  }
  if (!used_restat && most_recent_input && output->mtime < most_recent_input->mtime) {
    std::string reason = StringPrintf("output %s older than most recent input %s (%" PRId64 " vs %" PRId64 ")",
                                      path().c_str(), std::string(most_recent_input->path).c_str(),
                                      output->mtime, most_recent_input->mtime);
    if (StaleNow(edge, reason, output->mtime, defer)) return true;
  }

  if (!build_log_) return false;
  bool generator = edge->GetBindingBool(Rule::kGenerator);
  if (!entry) entry = LogEntry(edge, output);
  if (!entry) {
    if (generator) return false;
    explanations_->Record(edge, "command line not found in log for %s", path().c_str());
    return true;
  }
  if (!generator && !command->Matches(entry)) {
    explanations_->Record(edge, "command line changed for %s", path().c_str());
    return true;
  }
  // A command that failed or was interrupted may have written its output
  // anyway; the mtime it logged tells.
  if (most_recent_input && entry->mtime < most_recent_input->mtime) {
    std::string reason = StringPrintf("recorded mtime of %s older than most recent input %s (%" PRId64 " vs %" PRId64 ")",
                                      path().c_str(), std::string(most_recent_input->path).c_str(), entry->mtime,
                                      most_recent_input->mtime);
    if (StaleNow(edge, reason, entry->mtime, defer)) return true;
  }
  return false;
}

}  // namespace ronin
