#include "sched/builder.h"

#include <errno.h>
#include <string.h>

#include "base/disk.h"
#include "base/metrics.h"
#include "base/util.h"
#include "graph/state.h"
#include "log/build_log.h"
#include "scan/depfile_parser.h"
#include "scan/msvc_deps.h"

namespace ronin {

Builder::Builder(State* state, const BuildConfig& config, BuildLog* build_log, DepsLog* deps_log,
                 DiskInterface* disk, Status* status, Explanations* explanations, int64_t start_time_millis)
    : state_(state),
      config_(config),
      plan_(this),
      disk_(disk),
      status_(status),
      explanations_(explanations),
      scan_(state, build_log, deps_log, disk, explanations),
      start_time_millis_(start_time_millis),
      lock_file_path_(LockFilePath(*state)) {
  status_->SetExplanations(explanations);
}

Builder::~Builder() { RemoveLockFile(); }

bool Builder::AddTarget(Node* target, std::string* err) {
  std::vector<Node*> validations;
  if (!scan_.RecomputeDirty(target, &validations, err)) return false;
  Edge* in_edge = target->in_edge;
  if (!in_edge || !in_edge->outputs_ready) {
    if (!plan_.AddTarget(target, err)) return false;
  }
  // Validations of anything in the build become targets of their own.
  for (Node* validation : validations) {
    Edge* producer = validation->in_edge;
    if (producer && !producer->outputs_ready && !plan_.AddTarget(validation, err)) return false;
  }
  return true;
}

void Builder::OnEdgeAddedToPlan(const Edge* edge) {
  // The previous duration feeds the time prediction (%E, %W, %P).
  if (edge->prev_elapsed_time_millis == -1)
    const_cast<Edge*>(edge)->prev_elapsed_time_millis = LastDurationMillis(edge, scan_.build_log());
  status_->EdgeAddedToPlan(edge);
}

ExitStatus Builder::Build(const BuildSeams& seams, std::string* err) {
  plan_.PrepareQueue(DurationModel(plan_.edges(), scan_.build_log()));
  seams_ = seams;
  WorkChain work(&plan_, seams.stages);
  work_ = &work;
  status_->BuildStarted();
  ExitStatus status = RunCommands(err);
  if (status != kExitSuccess) Cleanup();
  status_->BuildFinished();
  work_ = nullptr;
  seams_ = BuildSeams();
  return status;
}

ExitStatus Builder::RunCommands(std::string* err) {
  int pending_commands = 0;
  int failures_allowed = config_.failures_allowed;
  ExitStatus last_failure = kExitSuccess;
  // Start what the work chain gives, then wait for one command; repeat.
  while (plan_.more_to_do()) {
    if (failures_allowed) {
      for (Work next = work_->Next(); next.edge; next = work_->Next()) {
        Edge* edge = next.edge;
        // A generator may rewrite the log (e.g. CMake runs -t restat).
        if (edge->GetBindingBool(Rule::kGenerator)) scan_.build_log()->Close();
        if (!StartEdge(next, err)) return kExitFailure;
        if (!edge->is_phony()) {
          ++pending_commands;
        } else if (!plan_.EdgeFinished(edge, Plan::EdgeResult::kSucceeded, err)) {
          return kExitFailure;
        }
      }
      if (pending_commands == 0 && !plan_.more_to_do()) break;
    }

    if (pending_commands) {
      CommandRunner::Result result;
      // A view that redraws (the live view) wants the wait to end in time.
      int64_t refresh = status_->RefreshDeadline();
      int64_t deadline = refresh < 0 ? -1 : start_time_millis_ + refresh;
      if (!seams_.runner->WaitForCommand(&result, deadline, clock_millis_, work_->WakeFd()) ||
          result.status == kExitInterrupted) {
        *err = "interrupted by user";
        return kExitInterrupted;
      }
      if (!result.edge) {  // woken for a held-back start or for a redraw: start more
        if (refresh >= 0) RefreshStatus(refresh, clock_millis_ = MonotonicMillis());
        continue;
      }
      --pending_commands;
      bool finished = FinishCommand(&result, err);
      if (!result.success()) last_failure = result.status;
      if (!finished) return result.success() ? kExitFailure : result.status;
      if (!result.success() && failures_allowed) --failures_allowed;
      if (refresh >= 0) RefreshStatus(refresh, clock_millis_);  // read when the command was recorded
      continue;
    }

    // Nothing running and nothing startable: we are stuck.
    if (failures_allowed == 0) {
      *err = config_.failures_allowed > 1 ? "subcommands failed" : "subcommand failed";
    } else if (failures_allowed < config_.failures_allowed) {
      *err = "cannot make progress due to previous errors";
    } else {
      *err = "stuck [this is a bug]";
    }
    return last_failure != kExitSuccess ? last_failure : kExitFailure;
  }
  return kExitSuccess;
}

void Builder::RefreshStatus(int64_t deadline, int64_t now) {
  now -= start_time_millis_;
  if (now < deadline) return;
  // Running jobs' output is looked at only when it may be drawn.
  seams_.runner->ReportRunningOutput(status_);
  status_->Refresh(now);
}

bool Builder::StartEdge(const Work& work, std::string* err) {
  METRIC_RECORD("StartEdge");
  Edge* edge = work.edge;
  if (edge->is_phony()) return true;
  clock_millis_ = MonotonicMillis();
  int64_t start_time = clock_millis_ - start_time_millis_;
  RunningEdge& running = running_edges_[edge];
  running.work = work;
  running.start_millis = start_time;
  status_->BuildEdgeStarted(edge, start_time);

  // Output directories exist before the command runs; the start stamp is
  // taken once the first one does.
  for (size_t i = 0; i < edge->outputs.size(); ++i) {
    if (!disk_->MakeDirs(edge->outputs[i]->path)) return false;
    if (i == 0) running.start_stamp = seams_.times->StartStamp();
  }

  std::string depfile = edge->GetUnescapedDepfile();
  if (!depfile.empty() && !disk_->MakeDirs(depfile)) return false;

  std::string rspfile = edge->GetUnescapedRspfile();
  if (!rspfile.empty()) {
    // A text file: CRLF line ends on Windows, as ninja.exe writes it.
    std::string content = TextFileBytes(edge->GetBinding(Rule::kRspfileContent));
    if (!disk_->WriteFile(rspfile, content)) return false;
  }

  if (!seams_.runner->StartCommand(edge)) {
    *err = "could not start the command for '" + std::string(edge->outputs[0]->path) + "'";
    return false;
  }
  work_->Started(work, *seams_.runner);
  return true;
}

bool Builder::FinishCommand(CommandRunner::Result* result, std::string* err) {
  METRIC_RECORD("FinishCommand");
  Edge* edge = result->edge;

  // Discovered deps come first: msvc deps filter the output, and failing
  // to read them fails the command.
  std::vector<Node*> deps_nodes;
  std::string deps_type = edge->GetBinding(Rule::kDeps);
  std::string deps_prefix = edge->GetBinding(Rule::kMsvcDepsPrefix);
  if (!deps_type.empty()) {
    std::string extract_err;
    if (!ExtractDeps(result, deps_type, deps_prefix, &deps_nodes, &extract_err) && result->success()) {
      if (!result->output.empty()) result->output.append("\n");
      result->output.append(extract_err);
      result->status = kExitFailure;
    }
  }

  FinishedCommand command = Collect(*result, deps_type.empty() ? nullptr : &deps_nodes);
  if (!result->success())
    return plan_.EdgeFinished(edge, Plan::EdgeResult::kFailed, err) && seams_.recorder->Record(command, err);
  if (!CheckOutputs(edge, &command, err)) return false;
  if (!plan_.EdgeFinished(edge, Plan::EdgeResult::kSucceeded, err)) return false;

  std::string rspfile = edge->GetUnescapedRspfile();
  if (!rspfile.empty() && !config_.keep_rsp) disk_->RemoveFile(rspfile);
  return seams_.recorder->Record(command, err);
}

FinishedCommand Builder::Collect(const CommandRunner::Result& result, const std::vector<Node*>* deps) {
  auto running = running_edges_.find(result.edge);
  RunningEdge started = running->second;
  running_edges_.erase(running);
  work_->Finished(started.work);
  clock_millis_ = MonotonicMillis();
  int64_t end_time = clock_millis_ - start_time_millis_;
  status_->BuildEdgeFinished(result.edge, started.start_millis, end_time, result.status, result.output);
  FinishedCommand command;
  command.edge = result.edge;
  command.status = result.status;
  command.start_millis = static_cast<int>(started.start_millis);
  command.end_millis = static_cast<int>(end_time);
  command.start_stamp = started.start_stamp;
  command.deps = deps;
  command.peak_rss_bytes = result.peak_rss_bytes;
  command.cached = result.cached;
  command.output = &result.output;
  command.accesses = result.accesses;
  return command;
}

bool Builder::CheckOutputs(Edge* edge, FinishedCommand* command, std::string* err) {
  // Restat: outputs a restat command left untouched are clean, and so may
  // be what depends on them.
  std::vector<Node*> untouched;
  if (!seams_.times->Check(edge, command->start_stamp, &untouched, &command->record_mtime, err) ||
      !CleanNodes(untouched, err))
    return false;
  // Early cutoff: an output rewritten with the same content is as good as
  // one a restat command left alone.
  std::vector<Node*> unchanged;
  if (!seams_.cutoff->UnchangedOutputs(edge, &unchanged)) return true;
  command->unchanged_outputs = static_cast<int>(unchanged.size());
  return CleanNodes(unchanged, err);
}

bool Builder::CleanNodes(const std::vector<Node*>& nodes, std::string* err) {
  for (Node* node : nodes)
    if (!plan_.CleanNode(&scan_, node, err)) return false;
  return true;
}

bool Builder::ExtractDeps(CommandRunner::Result* result, const std::string& deps_type,
                          const std::string& deps_prefix, std::vector<Node*>* deps_nodes,
                          std::string* err) {
  if (deps_type == "msvc") {
    std::vector<std::string> includes;  // normalised, sorted and unique, as Ninja records them
    std::string filtered;
    if (!FilterShowIncludes(result->output, deps_prefix, &includes, NormalizeIncludePath, &filtered, err))
      return false;
    result->output = std::move(filtered);
    // As Ninja: a header first named here is spelled with backslashes on
    // Windows (all its slash bits set).
    for (const std::string& include : includes)
      deps_nodes->push_back(state_->GetNode(include, HashString(include), ~uint64_t{0}));
    return true;
  }
  if (deps_type == "gcc") {
    std::string depfile = result->edge->GetUnescapedDepfile();
    if (depfile.empty()) {
      *err = "edge with deps=gcc but no depfile makes no sense";
      return false;
    }
    if (result->discovered) {
      deps_nodes->reserve(result->discovered->size());
      for (const std::string& path : *result->discovered) deps_nodes->push_back(state_->GetNode(path));
    } else {
      std::string content;
      if (!ReadFileIfExists(disk_, depfile, &content, err)) return false;
      if (content.empty()) return true;
      DepfileParser parser;
      if (!parser.Parse(&content, err)) return false;
      deps_nodes->reserve(parser.ins.size());
      std::string path;
      for (std::string_view input : parser.ins) {
        path.assign(input);
        CanonicalizePath(&path);
        deps_nodes->push_back(state_->GetNode(path));
      }
    }
    if (!config_.keep_depfile && result->depfile_on_disk && disk_->RemoveFile(depfile) < 0) {
      *err = std::string("deleting depfile: ") + strerror(errno) + "\n";
      return false;
    }
    return true;
  }
  Fatal("unknown deps type '%s'", deps_type.c_str());
}

bool Builder::LoadDyndeps(Node* node, std::string* err) {
  DyndepFile file;
  if (!scan_.LoadDyndeps(node, &file, err)) return false;
  return plan_.DyndepsLoaded(&scan_, node, file, err);
}

void Builder::Cleanup() {
  std::vector<Edge*> active = seams_.runner->GetActiveEdges();
  seams_.runner->Abort();
  work_->Abort();
  for (Edge* edge : active) {
    // Delete outputs the interrupted command touched (all of them if it
    // has a depfile: the depfile may be newer than a half-written output).
    std::string depfile = edge->GetUnescapedDepfile();
    for (Node* output : edge->outputs) {
      std::string err;
      TimeStamp new_mtime = disk_->Stat(std::string(output->path), &err);
      if (new_mtime == -1) Error("%s", err.c_str());
      if (!depfile.empty() || output->mtime != new_mtime) disk_->RemoveFile(std::string(output->path));
    }
    if (!depfile.empty()) disk_->RemoveFile(depfile);
  }
  RemoveLockFile();
}

void Builder::RemoveLockFile() {
  std::string err;
  if (disk_->Stat(lock_file_path_, &err) > 0) disk_->RemoveFile(lock_file_path_);
}

}  // namespace ronin
