// The build cache the builder calls (build_cache.h).
#include "cache/build_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "base/background_thread.h"
#include "base/file_io.h"
#include "base/sha256.h"
#include "base/util.h"
#include "cache/cache_policy.h"
#include "cache/discovered_deps_manifest.h"
#include "cache/program_identity.h"
#include "exec/command_runner.h"
#include "graph/graph.h"
#include "scan/depfile_parser.h"
#include "scan/msvc_deps.h"

namespace ronin {
namespace {

// Lookups at once on an HTTP store (each on a kept-alive connection).
constexpr size_t kLookupThreads = 4;

bool ReadWhole(const std::string& path, std::string* bytes, bool* executable) {
  int fd = OpenFile(path.c_str(), O_RDONLY);
  if (fd < 0) return false;
  FileStatus st;
  if (!StatDescriptor(fd, &st) || !st.is_file()) {
    close(fd);
    return false;
  }
  *executable = st.executable;
  bool whole = ReadFdExactly(fd, static_cast<int64_t>(st.size), bytes);
  close(fd);
  return whole;
}

// Writes beside `path` and renames over it: a reader (or an interrupted
// build) sees the old file or the whole new one, never a part.
bool WriteAtomically(const std::string& path, const std::string& bytes, bool executable) {
  static const std::string suffix = ".ronin-cache." + std::to_string(getpid());
  std::string tmp = path + suffix;
  int fd = OpenFile(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, executable ? 0777 : 0666);
  if (fd < 0) return false;
  bool wrote = WriteFully(fd, bytes.data(), bytes.size());
  bool ok = close(fd) == 0 && wrote;
  if (ok && RenameReplacing(tmp.c_str(), path.c_str())) return true;
  unlink(tmp.c_str());
  return false;
}

// The name of the empty blob, which is never stored (BuildCache::GetBlob).
const std::string& EmptyBlobDigest() {
  static const std::string digest = Sha256Hex("");
  return digest;
}

// A path as a depfile writes it (space, '#' and '$' escaped).
std::string DepfileEscape(const std::string& path) {
  std::string escaped;
  for (char c : path) {
    if (c == ' ' || c == '#' || c == '\\') escaped += '\\';
    if (c == '$') escaped += '$';
    escaped += c;
  }
  return escaped;
}

// Worker threads that fetch restores (BuildCache::Fetch) handed to them,
// several at a time; the build loop collects them when they are done.
class LookupPool {
 public:
  using Restore = BuildCache::Restore;
  LookupPool(BuildCache* cache, size_t threads) : cache_(cache), max_threads_(threads) {}
  ~LookupPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    for (std::thread& thread : threads_) thread.join();
  }

  void Submit(std::unique_ptr<Restore> restore) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      edges_.push_back(restore->edge);
      todo_.push_back(std::move(restore));
      ++in_flight_;
      if (threads_.size() < max_threads_ && threads_.size() < in_flight_)
        threads_.push_back(StartBackgroundThread(&LookupPool::Loop, this));
    }
    changed_.notify_all();
  }
  // Submitted and not yet handed back by WaitForOne.
  size_t in_flight() const { return in_flight_; }
  std::vector<Edge*> Edges() {
    std::lock_guard<std::mutex> lock(mutex_);
    return edges_;
  }
  // The next fetched restore (in_flight() must be > 0); null if `deadline`
  // (a MonotonicMillis() time, -1: none) passes first.
  std::unique_ptr<Restore> WaitForOne(int64_t deadline = -1) {
    std::unique_lock<std::mutex> lock(mutex_);
    auto fetched = [this] { return !done_.empty(); };
    if (deadline < 0)
      changed_.wait(lock, fetched);
    else if (!changed_.wait_for(lock, std::chrono::milliseconds(deadline - MonotonicMillis()), fetched))
      return nullptr;
    std::unique_ptr<Restore> restore = std::move(done_.front());
    done_.pop_front();
    --in_flight_;
    edges_.erase(std::find(edges_.begin(), edges_.end(), restore->edge));
    return restore;
  }

 private:
  void Loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      changed_.wait(lock, [this] { return stopping_ || !todo_.empty(); });
      if (todo_.empty()) return;  // stopping, nothing left
      std::unique_ptr<Restore> restore = std::move(todo_.front());
      todo_.pop_front();
      lock.unlock();
      cache_->Fetch(restore.get());
      lock.lock();
      done_.push_back(std::move(restore));
      changed_.notify_all();
    }
  }

  BuildCache* cache_;
  size_t max_threads_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::unique_ptr<Restore>> todo_, done_;
  std::vector<Edge*> edges_;  // submitted, not yet collected
  size_t in_flight_ = 0;      // only the build loop changes it
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// Serves hits itself; runs misses through `inner` and stores their results.
class CachingCommandRunner : public CommandRunner {
 public:
  // `lookups` null: each lookup is done when the edge starts.
  CachingCommandRunner(std::unique_ptr<CommandRunner> inner, BuildCache* cache, std::unique_ptr<LookupPool> lookups)
      : inner_(std::move(inner)), cache_(cache), lookups_(std::move(lookups)) {}

  // A hit not yet handed over stops more starts, so that hits (each with
  // its depfile's text) never pile up: the builder would otherwise start
  // every ready edge before collecting one. (An edge being looked up
  // holds the slot it was started on: if it misses it runs on it.)
  bool HasRoom() const override { return restored_.empty() && inner_->HasRoom(); }
  bool StartCommand(Edge* edge) override {
    auto restore = std::make_unique<BuildCache::Restore>();
    if (!cache_->Prepare(edge, restore.get())) return inner_->StartCommand(edge);
    if (lookups_) {
      lookups_->Submit(std::move(restore));
      return true;
    }
    cache_->Fetch(restore.get());
    return Collect(restore.get());
  }
  bool WaitForCommand(Result* result, int64_t deadline, int64_t now, int wake_fd) override {
    // Lookups first: each ends in a result (a hit) or a start (a miss).
    while (restored_.empty() && lookups_ && lookups_->in_flight() > 0) {
      std::unique_ptr<BuildCache::Restore> done = lookups_->WaitForOne(deadline);
      if (!done) return true;  // the deadline passed: no result yet
      if (!Collect(done.get())) {
        result->edge = done->edge;  // the miss could not start (the runner said why)
        result->status = kExitFailure;
        return true;
      }
    }
    if (!restored_.empty()) {
      *result = std::move(restored_.front());
      restored_.pop_front();
      return true;
    }
    if (!inner_->WaitForCommand(result, deadline, now, wake_fd)) return false;
    if (result->edge && result->success()) cache_->Store(result->edge, result->output, &result->discovered);
    return true;
  }
  std::vector<Edge*> GetActiveEdges() override {
    std::vector<Edge*> edges = inner_->GetActiveEdges();
    if (lookups_)
      for (Edge* edge : lookups_->Edges()) edges.push_back(edge);
    return edges;
  }
  pid_t ProcessGroupOf(const Edge* edge) const override { return inner_->ProcessGroupOf(edge); }
  void ReportRunningOutput(Status* status) const override { inner_->ReportRunningOutput(status); }
  void Abort() override {
    // No output is written behind the builder's cleanup.
    while (lookups_ && lookups_->in_flight() > 0) lookups_->WaitForOne();
    restored_.clear();
    inner_->Abort();
  }

 private:
  // A fetched restore: a hit's result is queued, a miss starts.
  bool Collect(BuildCache::Restore* restore) {
    if (!cache_->Finish(restore)) return inner_->StartCommand(restore->edge);
    Result hit;
    hit.output = std::move(restore->output);
    if (restore->gcc && !restore->depfile.empty()) {
      hit.discovered = std::move(restore->discovered);
      hit.depfile_on_disk = false;
    }
    hit.edge = restore->edge;
    hit.status = kExitSuccess;
    hit.cached = true;
    restored_.push_back(std::move(hit));
    return true;
  }

  std::unique_ptr<CommandRunner> inner_;
  BuildCache* cache_;
  std::unique_ptr<LookupPool> lookups_;
  std::deque<Result> restored_;  // hits not yet handed to the builder
};

}  // namespace

BuildCache::BuildCache(std::unique_ptr<CacheStore> store, const RoninOptions& options, bool keep_depfile)
    : store_(std::move(store)), options_(options), keep_depfile_(keep_depfile), mapper_(options.cache_base_dir) {}

BuildCache::~BuildCache() {
  // The size limit is kept by the build that added bytes.
  if (counts_.bytes_stored > 0) store_->Trim();
}

std::unique_ptr<CommandRunner> BuildCache::Wrap(std::unique_ptr<CommandRunner> inner, bool may_defer) {
  // A server's round trips are worth overlapping; a directory's reads are not.
  std::unique_ptr<LookupPool> lookups;
  if (may_defer && store_->LookupsAreRoundTrips())
    lookups.reset(new LookupPool(this, kLookupThreads));
  return std::unique_ptr<CommandRunner>(new CachingCommandRunner(std::move(inner), this, std::move(lookups)));
}

std::string BuildCache::FirstKey(const Edge* edge, std::vector<FileHash>* keyed_files) {
  std::string command = edge->EvaluateCommand(true);
  // Declared inputs only: dependencies loaded from the deps log sit at the
  // end of the implicit ones and belong to the second-level key.
  size_t declared = edge->inputs.size() - edge->order_only_deps - edge->discovered_deps;
  std::vector<FileHash> inputs;
  for (size_t i = 0; i < declared; ++i) {
    std::string path(edge->inputs[i]->path);
    std::string digest = hasher_.Digest(path);
    inputs.emplace_back(mapper_.ToKeyPath(path), digest);
    keyed_files->emplace_back(std::move(path), std::move(digest));
  }
  std::vector<std::string> outputs;
  for (const Node* output : edge->outputs) outputs.push_back(mapper_.ToKeyPath(output->path));
  return FirstLevelKey(mapper_.RelativizeCommand(command), inputs,
                       ProgramIdentities(command, mapper_, &hasher_, keyed_files), outputs);
}

bool BuildCache::Prepare(Edge* edge, Restore* restore) {
  if (failed_ || !IsCacheable(edge, options_.cache_rules)) return false;
  restore->edge = edge;
  restore->first_key = FirstKey(edge, &restore->keyed_files);
  for (const Node* node : edge->outputs) restore->outputs.emplace_back(node->path);
  restore->depfile = edge->GetUnescapedDepfile();
  std::string deps = edge->GetBinding(Rule::kDeps);
  restore->gcc = deps == "gcc";
  restore->msvc = deps == "msvc";
  if (restore->msvc) {
    restore->msvc_prefix = edge->GetBinding(Rule::kMsvcDepsPrefix);
    if (restore->msvc_prefix.empty()) restore->msvc_prefix = "Note: including file:";
  }
  return true;
}

void BuildCache::Fetch(Restore* restore) {
  const DepsManifest::Run* run = nullptr;
  std::vector<std::string> blobs;
  std::string log;
  if (!LookUp(restore->first_key, &restore->manifest, &run, &blobs, &log) ||
      !WriteOutputs(*restore, run->entry, blobs))
    return;
  if (restore->msvc) {
    restore->output = RestoredDepsText(*restore, run->deps) + log;  // /showIncludes lines first, as cl prints them
  } else {
    if (restore->gcc) {
      for (const FileHash& dep : run->deps) restore->discovered.push_back(mapper_.ToLocalPath(dep.first));
      // An empty list is an empty depfile, which the builder leaves alone.
      if (restore->discovered.empty()) restore->gcc = false;
    }
    // Without deps = gcc, the next build's scan reads the depfile.
    if ((!restore->gcc || keep_depfile_) && !restore->depfile.empty() &&
        !WriteAtomically(restore->depfile, RestoredDepsText(*restore, run->deps), false))
      return;
    restore->output = std::move(log);
  }
  restore->hit = true;
  for (const std::string& blob : blobs) restore->bytes += static_cast<int64_t>(blob.size());
}

bool BuildCache::Finish(Restore* restore) {
  if (!restore->hit) {
    ++counts_.misses;
    running_[restore->edge] = Running{std::move(restore->first_key), std::move(restore->keyed_files), FileTimeNow(),
                                      std::move(restore->manifest)};
    return false;
  }
  ++counts_.hits;
  counts_.bytes_restored += restore->bytes;
  return true;
}

bool BuildCache::LookUp(const std::string& first_key, DepsManifest* manifest, const DepsManifest::Run** found,
                        std::vector<std::string>* blobs, std::string* log) {
  std::string text, err;
  if (!store_->GetAction(first_key, &text)) return false;
  if (!ParseDepsManifest(text, manifest, &err)) {
    *manifest = DepsManifest();  // damaged: the next stored run replaces it
    return false;
  }
  for (const DepsManifest::Run& run : manifest->runs) {
    bool matches = true;
    for (const FileHash& file : run.deps) {
      if (hasher_.Digest(mapper_.ToLocalPath(file.first)) != file.second) {
        matches = false;
        break;
      }
    }
    if (!matches) continue;
    // The first run whose files match is the one; a missing or damaged
    // blob is a miss, and the rerun replaces it.
    blobs->clear();
    for (const CacheEntry::Output& out : run.entry.outputs) {
      blobs->emplace_back();
      if (!GetBlob(out.digest, out.size, &blobs->back())) return false;
    }
    if (!GetBlob(run.entry.output_digest, run.entry.output_size, log)) return false;
    *found = &run;
    return true;
  }
  return false;
}

bool BuildCache::GetBlob(const std::string& digest, int64_t size, std::string* bytes) {
  bytes->clear();
  if (size == 0) return digest == EmptyBlobDigest();
  return store_->GetBlob(digest, bytes) && static_cast<int64_t>(bytes->size()) == size;
}

bool BuildCache::PutBlob(std::string_view bytes, std::string* digest) {
  if (!bytes.empty()) return store_->PutBlob(bytes, digest);
  *digest = EmptyBlobDigest();
  return true;
}

bool BuildCache::WriteOutputs(const Restore& restore, const CacheEntry& entry,
                              const std::vector<std::string>& blobs) {
  if (entry.outputs.size() != restore.outputs.size()) return false;
  for (size_t i = 0; i < entry.outputs.size(); ++i)
    if (entry.outputs[i].path != mapper_.ToKeyPath(restore.outputs[i])) return false;
  for (size_t i = 0; i < entry.outputs.size(); ++i) {
    if (!WriteAtomically(restore.outputs[i], blobs[i], entry.outputs[i].executable)) return false;
  }
  return true;
}

std::string BuildCache::RestoredDepsText(const Restore& restore, const std::vector<FileHash>& deps) const {
  std::string text;
  if (restore.msvc) {
    for (const FileHash& dep : deps) text += restore.msvc_prefix + " " + mapper_.ToLocalPath(dep.first) + "\n";
    return text;
  }
  text = DepfileEscape(restore.outputs[0]) + ":";
  for (const FileHash& dep : deps) text += " " + DepfileEscape(mapper_.ToLocalPath(dep.first));
  return text + "\n";
}

bool BuildCache::DiscoveredDeps(const Edge* edge, const std::string& output, TimeStamp started,
                                std::vector<FileHash>* deps, std::string* filtered_output,
                                std::optional<std::vector<std::string>>* discovered) {
  std::vector<std::string> paths;
  *filtered_output = output;
  if (edge->GetBinding(Rule::kDeps) == "msvc") {
    std::string err;
    if (!FilterShowIncludes(output, edge->GetBinding(Rule::kMsvcDepsPrefix), &paths, NormalizeIncludePath,
                            filtered_output, &err))
      return false;
  } else if (!edge->GetUnescapedDepfile().empty()) {
    std::string content, err;
    bool executable;
    if (!ReadWhole(edge->GetUnescapedDepfile(), &content, &executable)) return false;
    bool empty = content.empty();
    DepfileParser parser;
    if (!parser.Parse(&content, &err)) return false;
    for (std::string_view in : parser.ins) {
      paths.emplace_back(in);
      CanonicalizePath(&paths.back());
    }
    // The builder reads a gcc depfile next, exactly so: it takes this list
    // instead (an empty depfile it leaves alone, so that stays its own).
    if (!empty && edge->GetBinding(Rule::kDeps) == "gcc") *discovered = paths;
  }
  for (const std::string& path : paths) {
    int64_t mtime;
    std::string digest = hasher_.Digest(path, &mtime);
    if (!IsSha256Hex(digest)) return false;  // a dependency that is gone: not reproducible
    // Written after the command started: it may have read either version.
    if (mtime > started) return false;
    deps->emplace_back(mapper_.ToKeyPath(path), digest);
  }
  return true;
}

void BuildCache::Store(Edge* edge, const std::string& output, std::optional<std::vector<std::string>>* discovered) {
  auto pending = running_.find(edge);
  if (pending == running_.end()) return;
  Running run = std::move(pending->second);
  running_.erase(pending);
  // An input edited while the command ran: the key and the outputs may
  // not match, so nothing is stored. (The command line and the outputs'
  // names cannot change during a build: the files the key read are all
  // that needs checking, one stat each.)
  if (failed_) return;
  for (const FileHash& file : run.keyed_files)
    if (hasher_.Digest(file.first) != file.second) return;
  DepsManifest::Run stored;
  std::string log;
  if (!DiscoveredDeps(edge, output, run.started, &stored.deps, &log, discovered)) return;
  CacheEntry& entry = stored.entry;
  std::string bytes;
  for (const Node* node : edge->outputs) {
    CacheEntry::Output out;
    out.path = mapper_.ToKeyPath(node->path);
    if (!ReadWhole(std::string(node->path), &bytes, &out.executable)) return;  // an output it did not write
    out.size = static_cast<int64_t>(bytes.size());
    if (!PutBlob(bytes, &out.digest)) return Fail("the output " + std::string(node->path));
    counts_.bytes_stored += out.size;
    entry.outputs.push_back(std::move(out));
  }
  entry.output_size = static_cast<int64_t>(log.size());
  if (!PutBlob(log, &entry.output_digest)) return Fail("what the command for " + std::string(edge->outputs[0]->path) + " printed");
  // The runs found at the lookup stay listed after this one. A concurrent
  // build that stored another run meanwhile loses it here (a later miss,
  // never a wrong hit), as it would by writing after us.
  run.manifest.AddRun(std::move(stored));
  if (!store_->PutAction(run.first_key, SerializeDepsManifest(run.manifest)))
    Fail("the entry for " + std::string(edge->outputs[0]->path));
}

void BuildCache::Fail(const std::string& what) {
  failed_ = true;
  // A store that warns of its own failures (the HTTP store, once) has
  // told it already.
  if (store_->WarnsOfItsFailures()) return;
  std::string why = store_->WriteError();
  Warning("build cache: cannot store %s%s%s; building without the cache from here on", what.c_str(),
          why.empty() ? "" : ": ", why.c_str());
}

std::string BuildCache::StatsLine() const {
  return "build cache: " + Counted(counts_.hits, "hit", "hits") + ", " + Counted(counts_.misses, "miss", "misses") +
         ", " + Counted(counts_.bytes_restored, "byte", "bytes") + " restored, " +
         Counted(counts_.bytes_stored, "byte", "bytes") + " stored\n";
}

}  // namespace ronin
