// The build cache the builder calls (build_cache.h).
#include "build_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <deque>

#include "builder.h"
#include "cache_policy.h"
#include "depfile_parser.h"
#include "discovered_deps_manifest.h"
#include "graph.h"
#include "msvc_deps.h"
#include "program_identity.h"
#include "sha256.h"
#include "state_file.h"
#include "util.h"

namespace ronin {
namespace {

bool ReadWhole(const std::string& path, std::string* bytes, bool* executable) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return false;
  }
  *executable = (st.st_mode & S_IXUSR) != 0;
  bytes->clear();
  bool whole = ReadRestOfFd(fd, bytes);
  close(fd);
  return whole;
}

// Writes beside `path` and renames over it: a reader (or an interrupted
// build) sees the old file or the whole new one, never a part.
bool WriteAtomically(const std::string& path, const std::string& bytes, bool executable) {
  std::string tmp = path + ".ronin-cache." + std::to_string(getpid());
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, executable ? 0777 : 0666);
  if (fd < 0) return false;
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t wrote = write(fd, bytes.data() + done, bytes.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) break;
    done += static_cast<size_t>(wrote);
  }
  bool ok = close(fd) == 0 && done == bytes.size();
  if (ok && rename(tmp.c_str(), path.c_str()) == 0) return true;
  unlink(tmp.c_str());
  return false;
}

int64_t NowNanos() {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return int64_t{now.tv_sec} * 1000000000 + now.tv_nsec;
}

// Whether the file was modified after `start_ns` (the command may have read
// either version: its result is not stored).
bool WrittenSince(const std::string& path, int64_t start_ns) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec > start_ns;
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

// Serves hits at once; runs misses through `inner` and stores their results.
class CachingCommandRunner : public CommandRunner {
 public:
  CachingCommandRunner(std::unique_ptr<CommandRunner> inner, BuildCache* cache)
      : inner_(std::move(inner)), cache_(cache) {}

  size_t CanRunMore() const override { return inner_->CanRunMore(); }
  bool StartCommand(Edge* edge) override {
    Result hit;
    if (!cache_->TryRestore(edge, &hit.output)) return inner_->StartCommand(edge);
    hit.edge = edge;
    hit.status = kExitSuccess;
    restored_.push_back(std::move(hit));
    return true;
  }
  bool WaitForCommand(Result* result) override {
    if (!restored_.empty()) {
      *result = std::move(restored_.front());
      restored_.pop_front();
      return true;
    }
    if (!inner_->WaitForCommand(result)) return false;
    if (result->edge && result->success()) cache_->Store(result->edge, result->output);
    return true;
  }
  std::vector<Edge*> GetActiveEdges() override { return inner_->GetActiveEdges(); }
  pid_t ProcessGroupOf(const Edge* edge) const override { return inner_->ProcessGroupOf(edge); }
  void Abort() override {
    restored_.clear();
    inner_->Abort();
  }

 private:
  std::unique_ptr<CommandRunner> inner_;
  BuildCache* cache_;
  std::deque<Result> restored_;  // hits not yet handed to the builder
};

}  // namespace

BuildCache::BuildCache(std::unique_ptr<CacheStore> store, const RoninOptions& options, StateFile* state_file)
    : store_(std::move(store)), options_(options), mapper_(options.cache_base_dir), state_file_(state_file) {}

BuildCache::~BuildCache() {
  // The size limit is kept by the build that added bytes.
  if (bytes_stored_ > 0)
    if (auto* directory = dynamic_cast<DirectoryCacheStore*>(store_.get())) directory->Trim();
}

std::unique_ptr<CommandRunner> BuildCache::Wrap(std::unique_ptr<CommandRunner> inner) {
  return std::unique_ptr<CommandRunner>(new CachingCommandRunner(std::move(inner), this));
}

std::string BuildCache::FirstKey(const Edge* edge) {
  std::string command = edge->EvaluateCommand(true);
  // Declared inputs only: dependencies loaded from the deps log sit at the
  // end of the implicit ones and belong to the second-level key.
  size_t declared = edge->inputs.size() - edge->order_only_deps - edge->discovered_deps;
  std::vector<FileHash> inputs;
  for (size_t i = 0; i < declared; ++i) {
    std::string path(edge->inputs[i]->path);
    inputs.emplace_back(mapper_.ToKeyPath(path), hasher_.Digest(path));
  }
  std::vector<std::string> outputs;
  for (const Node* output : edge->outputs) outputs.push_back(mapper_.ToKeyPath(output->path));
  return FirstLevelKey(mapper_.RelativizeCommand(command), inputs,
                       ProgramIdentities(command, mapper_, &hasher_), outputs);
}

bool BuildCache::TryRestore(Edge* edge, std::string* output) {
  if (failed_ || !IsCacheable(edge, options_.cache_rules)) return false;
  std::string first_key = FirstKey(edge);
  CacheEntry entry;
  std::vector<FileHash> deps;
  std::vector<std::string> blobs;
  std::string log;
  if (!LookUp(first_key, &entry, &deps, &blobs, &log) || !WriteOutputs(edge, entry, blobs)) {
    ++misses_;
    running_[edge] = Running{first_key, NowNanos()};
    RecordCached(edge, false);
    return false;
  }
  bool is_depfile = false;
  std::string deps_text = RestoredDepsText(edge, deps, &is_depfile);
  if (is_depfile) {
    if (!WriteAtomically(edge->GetUnescapedDepfile(), deps_text, false)) {
      ++misses_;
      running_[edge] = Running{first_key, NowNanos()};
      RecordCached(edge, false);
      return false;
    }
    *output = log;
  } else {
    *output = deps_text + log;  // /showIncludes lines first, as cl prints them
  }
  ++hits_;
  RecordCached(edge, true);
  for (const std::string& blob : blobs) bytes_restored_ += static_cast<int64_t>(blob.size());
  return true;
}

bool BuildCache::LookUp(const std::string& first_key, CacheEntry* entry, std::vector<FileHash>* deps,
                        std::vector<std::string>* blobs, std::string* log) {
  std::string text, err;
  DepsManifest manifest;
  if (!store_->GetAction(first_key, &text) || !ParseDepsManifest(text, &manifest, &err)) return false;
  for (const std::vector<FileHash>& run : manifest.runs) {
    bool matches = true;
    for (const FileHash& file : run) {
      if (hasher_.Digest(mapper_.ToLocalPath(file.first)) != file.second) {
        matches = false;
        break;
      }
    }
    if (!matches) continue;
    // The first run whose files match names the entry; a damaged or
    // incomplete one is a miss, and the rerun overwrites it.
    if (!store_->GetAction(SecondLevelKey(first_key, run), &text) || !ParseCacheEntry(text, entry, &err))
      return false;
    blobs->clear();
    for (const CacheEntry::Output& out : entry->outputs) {
      blobs->emplace_back();
      if (!store_->GetBlob(out.digest, &blobs->back())) return false;
    }
    log->clear();
    if (entry->output_size > 0 && !store_->GetBlob(entry->output_digest, log)) return false;
    *deps = run;
    return true;
  }
  return false;
}

bool BuildCache::WriteOutputs(Edge* edge, const CacheEntry& entry, const std::vector<std::string>& blobs) {
  if (entry.outputs.size() != edge->outputs.size()) return false;
  for (size_t i = 0; i < entry.outputs.size(); ++i)
    if (entry.outputs[i].path != mapper_.ToKeyPath(edge->outputs[i]->path)) return false;
  for (size_t i = 0; i < entry.outputs.size(); ++i) {
    if (!WriteAtomically(std::string(edge->outputs[i]->path), blobs[i], entry.outputs[i].executable))
      return false;
  }
  return true;
}

std::string BuildCache::RestoredDepsText(const Edge* edge, const std::vector<FileHash>& deps, bool* is_depfile) {
  std::string text;
  if (edge->GetBinding(Rule::kDeps) == "msvc") {
    std::string prefix = edge->GetBinding(Rule::kMsvcDepsPrefix);
    if (prefix.empty()) prefix = "Note: including file:";
    for (const FileHash& dep : deps) text += prefix + " " + mapper_.ToLocalPath(dep.first) + "\n";
    *is_depfile = false;
    return text;
  }
  *is_depfile = !edge->GetUnescapedDepfile().empty();
  text = DepfileEscape(std::string(edge->outputs[0]->path)) + ":";
  for (const FileHash& dep : deps) text += " " + DepfileEscape(mapper_.ToLocalPath(dep.first));
  return text + "\n";
}

bool BuildCache::DiscoveredDeps(const Edge* edge, const std::string& output, int64_t start_ns,
                                std::vector<FileHash>* deps, std::string* filtered_output) {
  std::vector<std::string> paths;
  *filtered_output = output;
  if (edge->GetBinding(Rule::kDeps) == "msvc") {
    *filtered_output = FilterShowIncludes(output, edge->GetBinding(Rule::kMsvcDepsPrefix), &paths, CanonicalizePath);
  } else if (!edge->GetUnescapedDepfile().empty()) {
    std::string content, err;
    bool executable;
    if (!ReadWhole(edge->GetUnescapedDepfile(), &content, &executable)) return false;
    DepfileParser parser;
    if (!parser.Parse(&content, &err)) return false;
    for (std::string_view in : parser.ins) {
      paths.emplace_back(in);
      CanonicalizePath(&paths.back());
    }
  }
  for (const std::string& path : paths) {
    std::string digest = hasher_.Digest(path);
    if (!IsSha256Hex(digest)) return false;  // a dependency that is gone: not reproducible
    if (WrittenSince(path, start_ns)) return false;
    deps->emplace_back(mapper_.ToKeyPath(path), digest);
  }
  return true;
}

void BuildCache::Store(Edge* edge, const std::string& output) {
  auto pending = running_.find(edge);
  if (pending == running_.end()) return;
  Running run = pending->second;
  running_.erase(pending);
  // An input edited while the command ran: the key and the outputs may
  // not match, so nothing is stored.
  if (failed_ || FirstKey(edge) != run.first_key) return;
  std::vector<FileHash> deps;
  std::string log;
  if (!DiscoveredDeps(edge, output, run.start_ns, &deps, &log)) return;
  CacheEntry entry;
  std::string digest, bytes;
  for (const Node* node : edge->outputs) {
    CacheEntry::Output out;
    out.path = mapper_.ToKeyPath(node->path);
    if (!ReadWhole(std::string(node->path), &bytes, &out.executable)) return;  // an output it did not write
    out.size = static_cast<int64_t>(bytes.size());
    if (!store_->PutBlob(bytes, &out.digest)) return Fail("storing " + out.path);
    bytes_stored_ += out.size;
    entry.outputs.push_back(out);
  }
  entry.output_size = static_cast<int64_t>(log.size());
  if (!store_->PutBlob(log, &entry.output_digest)) return Fail("storing a command's output");
  if (!store_->PutAction(SecondLevelKey(run.first_key, deps), SerializeCacheEntry(entry)))
    return Fail("storing an entry");
  // The manifest lists this run beside earlier ones (a concurrent build may
  // replace it with its own list: that costs a later miss, never a wrong hit).
  DepsManifest manifest;
  std::string text, err;
  if (store_->GetAction(run.first_key, &text)) ParseDepsManifest(text, &manifest, &err);
  manifest.AddRun(deps);
  if (!store_->PutAction(run.first_key, SerializeDepsManifest(manifest))) Fail("storing a manifest");
}

void BuildCache::RecordCached(const Edge* edge, bool cached) {
  if (!state_file_) return;
  std::string err;
  // A state file that cannot be written costs the trace's mark, nothing else.
  state_file_->Put(StateFile::Kind::kEdgeCached, edge->outputs[0]->path, cached ? "1" : "0", &err);
}

void BuildCache::Fail(const std::string& what) {
  failed_ = true;
  // The HTTP store warns about its server itself, once; the directory
  // store is silent, so its failure is told here.
  if (dynamic_cast<DirectoryCacheStore*>(store_.get()))
    Warning("build cache: %s failed; building without the cache from here on", what.c_str());
}

std::string BuildCache::StatsLine() const {
  return "build cache: " + std::to_string(hits_) + " hits, " + std::to_string(misses_) + " misses, " +
         std::to_string(bytes_restored_) + " bytes restored, " + std::to_string(bytes_stored_) +
         " bytes stored\n";
}

}  // namespace ronin
