#include "driver/question.h"

#include <stdio.h>

#include <string>
#include <vector>

#include "base/util.h"
#include "driver/build_setup.h"
#include "driver/ninja_main.h"
#include "sched/builder.h"

namespace ronin {
namespace {

// What `-d explain` would print before each command of the build.
void PrintReasons(const State& state, const Explanations& explanations) {
  for (const Edge* edge : state.edges()) {
    bool would_run = edge->want == Edge::Want::kToStart || edge->want == Edge::Want::kToFinish;
    if (!would_run || edge->is_phony()) continue;
    if (const std::vector<std::string>* reasons = explanations.Lookup(edge))
      for (const std::string& reason : *reasons) fprintf(stderr, "ninja explain: %s\n", reason.c_str());
  }
}

}  // namespace

QuestionAnswer AnswerQuestion(NinjaMain* ninja, const char* input_file, int argc, char** argv, Status* status) {
  std::string err;
  std::vector<Node*> requested;
  if (!ninja->CollectTargetsFromArgs(argc, argv, &requested, &err)) {
    Error("%s", err.c_str());
    return kQuestionError;
  }
  // A build regenerates an out-of-date manifest first: that is work too.
  std::vector<Node*> targets;
  std::string manifest = input_file;
  CanonicalizePath(&manifest);
  if (Node* node = manifest.empty() ? nullptr : ninja->state_.LookupNode(manifest)) targets.push_back(node);
  targets.insert(targets.end(), requested.begin(), requested.end());
  Builder builder(&ninja->state_, ninja->config_, &ninja->build_log_, &ninja->deps_log_, &ninja->disk_, status,
                  &ninja->explanations_, ninja->start_time_millis_);
  SetUpScan(ninja->Features(), builder.scan());  // content hashing, when on
  for (Node* target : targets) {
    if (!builder.AddTarget(target, &err) && !err.empty()) {
      Error("%s", err.c_str());
      return kQuestionError;
    }
  }
  if (builder.AlreadyUpToDate()) return kUpToDate;
  if (ninja->config_.explain) PrintReasons(ninja->state_, ninja->explanations_);
  return kWorkDue;
}

}  // namespace ronin
