#include "sched/builder.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

#include <algorithm>
#include <deque>

#include "base/disk.h"
#include "base/metrics.h"
#include "base/util.h"
#include "cache/build_cache.h"
#include "exec/spawn_retry.h"
#include "graph/state.h"
#include "log/build_log.h"
#include "log/deps_log.h"
#include "log/edge_outcome.h"
#include "scan/content_hash_store.h"
#include "scan/depfile_parser.h"
#include "scan/msvc_deps.h"
#include "sched/jobserver.h"
#include "sched/memory_admission.h"

namespace ronin {

namespace {

// Pretends every command succeeded at once (-n).
class DryRunCommandRunner : public CommandRunner {
 public:
  size_t CanRunMore() const override { return SIZE_MAX; }
  bool StartCommand(Edge* edge) override {
    finished_.push_back(edge);
    return true;
  }
  bool WaitForCommand(Result* result, int64_t, int64_t) override {
    if (finished_.empty()) return false;
    result->status = kExitSuccess;
    result->edge = finished_.front();
    finished_.pop_front();
    return true;
  }

 private:
  // A queue: -n starts every ready edge at once (tens of thousands), and
  // erasing from a vector's front moved all the others each time.
  std::deque<Edge*> finished_;
};

class RealCommandRunner : public CommandRunner {
 public:
  RealCommandRunner(const BuildConfig& config, Jobserver* jobserver, const RemoteJobs* remote)
      : config_(config), jobserver_(jobserver), remote_(remote), subprocs_(config.ronin.job_reaper) {}
  ~RealCommandRunner() override {
    // Tokens go back only once our jobs are gone.
    subprocs_.Clear();
    if (jobserver_) jobserver_->ReleaseAll();
  }

  size_t CanRunMore() const override {
    // Remote jobs (--remote-jobs) have slots of their own.
    int64_t busy = static_cast<int64_t>(subprocs_.running_count() + subprocs_.finished_count()) -
                   (remote_ ? remote_->running() : 0);
    // With a jobserver its tokens are the limit (-l still applies).
    int64_t capacity = jobserver_ ? INT_MAX : static_cast<int64_t>(throttle_.Limit(config_.parallelism)) - busy;
    if (config_.max_load_average > 0.0) {
      int64_t load_capacity = static_cast<int64_t>(config_.max_load_average - GetLoadAverage());
      capacity = std::min(capacity, load_capacity);
    }
    if (capacity < 0) capacity = 0;
    // Always make progress: one job may run whatever the load.
    if (capacity == 0 && busy == 0) capacity = 1;
    // The next job's slot is reserved now (the implicit one or a token);
    // without one, the wait below also watches for a token.
    if (capacity > 0 && jobserver_ && !jobserver_->ReserveSlot()) {
      want_token_ = true;
      capacity = 0;
    }
    return static_cast<size_t>(capacity);
  }

  bool StartCommand(Edge* edge) override {
    std::string command = edge->EvaluateCommand();
    if (ValueTooLarge(command)) {
      Error("the command for '%s' is longer than %zu MiB once its variables are expanded",
            std::string(edge->outputs[0]->path).c_str(), kMaxValueSize >> 20);
      return false;
    }
    Subprocess* subprocess;
    JobFiles files;  // what to remove if ninja dies during the command
    if (subprocs_.reaps_jobs()) files = JobFilesOf(*edge);
    while (!(subprocess = subprocs_.Add(command, edge->use_console(), &files))) {
      int error = errno;
      bool transient = IsTransientSpawnError(error);
      if (!transient || subprocs_.running_count() == 0) {
        Error("%s", DescribeSpawnFailure(edge, command, error, transient).c_str());
        return false;
      }
      throttle_.Lower(subprocs_.running_count(), error);
      if (!subprocs_.WaitForRoom()) {
        interrupted_ = true;  // reported by the next WaitForCommand
        return true;
      }
    }
    if (UsesToken(edge)) jobserver_->JobStarted();
    edges_[subprocess] = edge;
    return true;
  }

  // With a jobserver, may also return true with no result->edge: a token
  // came free while a job was waiting for one.
  bool WaitForCommand(Result* result, int64_t deadline, int64_t now) override {
    if (interrupted_) {
      result->status = kExitInterrupted;
      return false;
    }
    int token_fd = -1;
    if (jobserver_) {
      // An unused slot is not kept while we sleep: others may need it.
      jobserver_->CancelReservation();
      if (want_token_) token_fd = jobserver_->wait_fd();
      want_token_ = false;
    }
    std::unique_ptr<Subprocess> subprocess = subprocs_.NextFinished();
    if (deadline >= 0 && now < 0) now = MonotonicMillis();
    while (!subprocess) {
      bool token_ready = false;
      int64_t timeout = deadline < 0 ? -1 : std::max<int64_t>(0, deadline - now);
      if (subprocs_.DoWork(token_fd, &token_ready, timeout)) {
        result->status = kExitInterrupted;
        return false;
      }
      subprocess = subprocs_.NextFinished();
      if (subprocess) break;
      if (deadline >= 0) now = MonotonicMillis();  // woken by output or a token: what is left?
      if (token_ready || (deadline >= 0 && now >= deadline)) return true;
    }
    result->status = subprocess->Finish();
    result->output = subprocess->output();
    result->peak_rss_bytes = subprocess->peak_rss_bytes();
    auto it = edges_.find(subprocess.get());
    result->edge = it->second;
    if (UsesToken(result->edge)) jobserver_->JobFinished();  // whatever the outcome
    edges_.erase(it);
    return true;
  }

  pid_t ProcessGroupOf(const Edge* edge) const override {
    for (const auto& entry : edges_) {
      // Console jobs stay in ninja's process group.
      if (entry.second == edge) return entry.first->use_console() ? -1 : entry.first->pid();
    }
    return -1;
  }

  std::vector<Edge*> GetActiveEdges() override {
    std::vector<Edge*> edges;
    for (const auto& entry : edges_) edges.push_back(entry.second);
    return edges;
  }

  void Abort() override {
    subprocs_.Clear();
    if (jobserver_) jobserver_->ReleaseAll();
  }

  void ReportRunningOutput(Status* status) const override {
    for (const auto& entry : edges_) status->BuildEdgeOutputSoFar(entry.second, entry.first->output());
  }

 private:
  // Local jobs hold a jobserver slot; remote ones do not.
  bool UsesToken(const Edge* edge) const { return jobserver_ && !(remote_ && remote_->IsRemote(edge)); }

  const BuildConfig& config_;
  Jobserver* jobserver_;             // null: -j is the limit
  const RemoteJobs* remote_;         // null: no remote slots
  mutable bool want_token_ = false;  // CanRunMore found no token free
  SpawnThrottle throttle_;           // lowered when starting jobs fails
  bool interrupted_ = false;         // while waiting to start a job
  SubprocessSet subprocs_;
  std::map<const Subprocess*, Edge*> edges_;
};

}  // namespace

Builder::Builder(State* state, const BuildConfig& config, BuildLog* build_log, DepsLog* deps_log,
                 DiskInterface* disk, Status* status, Explanations* explanations, int64_t start_time_millis)
    : state_(state),
      config_(config),
      plan_(this),
      disk_(disk),
      status_(status),
      explanations_(explanations),
      scan_(state, build_log, deps_log, disk, explanations),
      deps_log_(deps_log),
      start_time_millis_(start_time_millis) {
  status_->SetExplanations(explanations);
  if (config.ronin.remote_jobs > 0)
    remote_.reset(new RemoteJobs(RemoteLaunchers(config.ronin.remote_launchers), config.ronin.remote_jobs));
  lock_file_path_ = ".ninja_lock";
  std::string_view build_dir = state->root_scope()->LookupVariable("builddir");
  if (!build_dir.empty()) lock_file_path_ = std::string(build_dir) + "/" + lock_file_path_;
}

Builder::~Builder() { Cleanup(); }

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

ExitStatus Builder::Build(std::string* err) {
  plan_.PrepareQueue(DurationModel(plan_.edges(), scan_.build_log()));
  int pending_commands = 0;
  int failures_allowed = config_.failures_allowed;
  ExitStatus last_failure = kExitSuccess;

  if (!runner_) {
    if (config_.dry_run)
      runner_.reset(new DryRunCommandRunner);
    else
      runner_.reset(new RealCommandRunner(config_, jobserver_, remote_.get()));
    // Lookups may hold a slot and start later unless a start must be seen at once.
    if (cache_ && !config_.dry_run) runner_ = cache_->Wrap(std::move(runner_), !jobserver_ && !memory_);
  }
  status_->BuildStarted();

  // Start as much as capacity allows, then wait for one command; repeat.
  while (plan_.more_to_do()) {
    if (failures_allowed) {
      while (Edge* edge = NextWork()) {
        // A remote command's memory is the farm's, not this machine's.
        bool local = !(remote_ && remote_->IsRemote(edge));
        if (local && !MemoryAllows(edge, pending_commands)) {
          plan_.PutBack(edge);  // the best edge waits for memory; so does the rest
          break;
        }
        // A generator may rewrite the log (e.g. CMake runs -t restat).
        if (edge->GetBindingBool(Rule::kGenerator) && scan_.build_log()) scan_.build_log()->Close();
        if (!StartEdge(edge, err)) {
          Cleanup();
          status_->BuildFinished();
          return kExitFailure;
        }
        if (edge->is_phony()) {
          if (!plan_.EdgeFinished(edge, Plan::EdgeResult::kSucceeded, err)) {
            Cleanup();
            status_->BuildFinished();
            return kExitFailure;
          }
        } else {
          ++pending_commands;
        }
      }
      if (pending_commands == 0 && !plan_.more_to_do()) break;
    }

    if (pending_commands) {
      CommandRunner::Result result;
      // A view that redraws (the live view) wants the wait to end in time.
      int64_t refresh = status_->RefreshDeadline();
      if (!runner_->WaitForCommand(&result, refresh < 0 ? -1 : start_time_millis_ + refresh, clock_millis_) ||
          result.status == kExitInterrupted) {
        Cleanup();
        status_->BuildFinished();
        *err = "interrupted by user";
        return kExitInterrupted;
      }
      if (!result.edge) {  // woken by a free jobserver token or for a redraw: start more
        if (refresh >= 0) RefreshStatus(refresh, clock_millis_ = MonotonicMillis());
        continue;
      }
      --pending_commands;
      if (remote_) remote_->Finished(result.edge);
      bool finished = FinishCommand(&result, err);
      if (!result.success()) last_failure = result.status;
      if (!finished) {
        Cleanup();
        status_->BuildFinished();
        return result.success() ? kExitFailure : result.status;
      }
      if (!result.success() && failures_allowed) --failures_allowed;
      if (refresh >= 0) RefreshStatus(refresh, clock_millis_);  // read when the command was recorded
      continue;
    }

    // Nothing running and nothing startable: we are stuck.
    status_->BuildFinished();
    if (failures_allowed == 0) {
      *err = config_.failures_allowed > 1 ? "subcommands failed" : "subcommand failed";
    } else if (failures_allowed < config_.failures_allowed) {
      *err = "cannot make progress due to previous errors";
    } else {
      *err = "stuck [this is a bug]";
    }
    return last_failure != kExitSuccess ? last_failure : kExitFailure;
  }
  status_->BuildFinished();
  return kExitSuccess;
}

void Builder::RefreshStatus(int64_t deadline, int64_t now) {
  now -= start_time_millis_;
  if (now < deadline) return;
  // Running jobs' output is looked at only when it may be drawn.
  runner_->ReportRunningOutput(status_);
  status_->Refresh(now);
}

Edge* Builder::NextWork() {
  bool local_room = runner_->CanRunMore() > 0;
  if (remote_) return remote_->NextWork(&plan_, local_room);
  return local_room ? plan_.FindWork() : nullptr;
}

bool Builder::StartEdge(Edge* edge, std::string* err) {
  METRIC_RECORD("StartEdge");
  if (edge->is_phony()) return true;
  clock_millis_ = MonotonicMillis();
  int64_t start_time = clock_millis_ - start_time_millis_;
  RunningEdge& running = running_edges_[edge];
  running.start_millis = start_time;
  status_->BuildEdgeStarted(edge, start_time);

  // Output directories exist before the command runs; the lock file's mtime,
  // rewritten now, is the start stamp recorded in the log.
  TimeStamp build_start = -1;
  for (Node* output : edge->outputs) {
    if (!disk_->MakeDirs(output->path)) return false;
    if (build_start == -1 && !config_.dry_run) {
      disk_->WriteFile(lock_file_path_, "");
      build_start = disk_->Stat(lock_file_path_, err);
      if (build_start == -1) build_start = 0;
    }
  }
  running.start_stamp = build_start == -1 ? 0 : build_start;

  std::string depfile = edge->GetUnescapedDepfile();
  if (!depfile.empty() && !disk_->MakeDirs(depfile)) return false;

  std::string rspfile = edge->GetUnescapedRspfile();
  if (!rspfile.empty()) {
    // A text file: CRLF line ends on Windows, as ninja.exe writes it.
    std::string content = TextFileBytes(edge->GetBinding(Rule::kRspfileContent));
    if (!disk_->WriteFile(rspfile, content)) return false;
  }

  if (remote_) remote_->Started(edge);
  if (!runner_->StartCommand(edge)) {
    *err = "could not start the command for '" + std::string(edge->outputs[0]->path) + "'";
    return false;
  }
  if (memory_) memory_->JobStarted(edge, runner_->ProcessGroupOf(edge));
  return true;
}

bool Builder::MemoryAllows(const Edge* edge, int pending_commands) {
  if (!memory_ || edge->is_phony() || pending_commands == 0) return true;
  std::string why;
  if (memory_->MayStart(edge, &why)) return true;
  METRIC_RECORD("memory admission held a job back");
  if (config_.explain) {
    fflush(stdout);
    fprintf(stderr, "ninja explain: not starting %s yet: %s\n", std::string(edge->outputs[0]->path).c_str(),
            why.c_str());
  }
  return false;
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

  auto running = running_edges_.find(edge);
  int64_t start_time = running->second.start_millis;
  TimeStamp start_stamp = running->second.start_stamp;
  clock_millis_ = MonotonicMillis();
  int64_t end_time = clock_millis_ - start_time_millis_;
  running_edges_.erase(running);
  status_->BuildEdgeFinished(edge, start_time, end_time, result->status, result->output);
  if (memory_ && !memory_->JobFinished(edge, result->peak_rss_bytes, err)) {
    *err = "Error writing to .ronin_state: " + *err;
    return false;
  }

  if (!result->success()) return plan_.EdgeFinished(edge, Plan::EdgeResult::kFailed, err);

  // Restat: outputs a restat command left untouched are clean, and so may be
  // what depends on them.
  TimeStamp record_mtime = 0;
  // What -t trace will show of this run.
  EdgeOutcome outcome{-1, static_cast<int>(start_time), static_cast<int>(end_time), result->peak_rss_bytes};
  outcome.cached = result->cached;
  if (!config_.dry_run) {
    bool restat = edge->GetBindingBool(Rule::kRestat);
    bool generator = edge->GetBindingBool(Rule::kGenerator);
    bool node_cleaned = false;
    record_mtime = start_stamp;
    if (record_mtime == 0 || restat || generator) {
      for (Node* output : edge->outputs) {
        TimeStamp new_mtime = disk_->Stat(std::string(output->path), err);
        if (new_mtime == -1) return false;
        if (new_mtime > record_mtime) record_mtime = new_mtime;
        if (restat && output->mtime == new_mtime) {
          if (!plan_.CleanNode(&scan_, output, err)) return false;
          node_cleaned = true;
        }
      }
    }
    if (node_cleaned) record_mtime = start_stamp;
    // Early cutoff: an output rewritten with the same content is as good
    // as one a restat command left alone.
    if (content_) {
      std::vector<Node*> unchanged = content_->UnchangedOutputs(edge);
      outcome.unchanged_outputs = static_cast<int>(unchanged.size());
      for (Node* output : unchanged)
        if (!plan_.CleanNode(&scan_, output, err)) return false;
    }
  }

  if (!plan_.EdgeFinished(edge, Plan::EdgeResult::kSucceeded, err)) return false;

  std::string rspfile = edge->GetUnescapedRspfile();
  if (!rspfile.empty() && !config_.keep_rsp) disk_->RemoveFile(rspfile);

  if (BuildLog* log = scan_.build_log()) {
    if (!log->RecordCommand(edge, static_cast<int>(start_time), static_cast<int>(end_time), record_mtime)) {
      *err = std::string("Error writing to build log: ") + strerror(errno);
      return false;
    }
  }

  if (!deps_type.empty() && !config_.dry_run) {
    for (Node* output : edge->outputs) {
      TimeStamp deps_mtime = disk_->Stat(std::string(output->path), err);
      if (deps_mtime == -1) return false;
      if (!deps_log_->RecordDeps(output, deps_mtime, deps_nodes)) {
        *err = std::string("Error writing to deps log: ") + strerror(errno);
        return false;
      }
    }
  }
  if (content_ && !config_.dry_run) content_->RecordRun(edge, deps_nodes, start_stamp);
  if (outcomes_ && !config_.dry_run) outcomes_->Ran(edge, outcome);
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
  if (runner_) {
    std::vector<Edge*> active = runner_->GetActiveEdges();
    runner_->Abort();
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
    runner_.reset();
  }
  std::string err;
  if (disk_->Stat(lock_file_path_, &err) > 0) disk_->RemoveFile(lock_file_path_);
}

}  // namespace ronin
