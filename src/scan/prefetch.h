// Work done on the other cores while the main thread parses the manifest
// (or loads its image) and the logs, for a build of the default targets:
// stat every file the manifest (and the deps log) names, and hash every
// edge's command line. The dirty scan then finds all of it done. Nothing
// here changes what the scan decides; it only moves work it would have done
// anyway.
//
// A small pool of workers (one fewer than the cores) takes batches of nodes
// and ranges of edges from one queue; while Join() waits, the main thread
// takes batches too. Each node and edge is in exactly one batch, so no two
// threads ever write the same object. Everything is joined before the scan
// starts, so the scan and the build never run concurrently with it.
#ifndef RONIN_SCAN_PREFETCH_H_
#define RONIN_SCAN_PREFETCH_H_

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "graph/state.h"
#include "scan/prefetch_stats.h"

namespace ronin {

class Prefetcher : public NodeObserver {
 public:
  // `list_directories`: on Windows, stat as the scan's stat cache does
  // (false: `-d nostatcache`, file by file); see scan/prefetch_stats.h.
  explicit Prefetcher(State* state, bool list_directories = true);
  // Stops the workers without finishing their work (an error path).
  ~Prefetcher() override;

  // NodeObserver: queues a newly interned node for a stat.
  void NodeCreated(Node* node) override;
  // Starts the workers at once for a large graph, rather than once its
  // first nodes have been created: a new thread can take milliseconds to
  // run on a virtual machine whose other cores are idle.
  void NodesExpected(size_t count) override;
  // The manifest is complete: edges may now be hashed.
  void ParsingDone();
  // Helps until everything queued is done and stops the workers.
  void Join();

 private:
  // A batch of nodes to stat: `count` nodes adjacent in memory from
  // `first` (the graph's nodes are created in order in chunks, so the
  // batches need no list of their own), or (count 0) edges to hash.
  struct Work {
    Node* first = nullptr;
    size_t count = 0;
    size_t edge_begin = 0;
    size_t edge_end = 0;
  };

  void StartWorkers();
  // The queue's lock, taken by spinning briefly before sleeping.
  std::unique_lock<std::mutex> LockQueue();
  // Spins (for a bounded time) until the first work is queued.
  void AwaitFirstWork();
  // Takes work until the queue is empty and (unless `help_only`) stopping.
  void Drain(bool help_only);
  void HashCommands(size_t begin, size_t end);
  void Publish();

  State* state_;
  bool list_directories_;
  std::unique_ptr<PrefetchStats> stats_;  // made when the workers start
  // The main thread's batches, not yet published (one batch ends where the
  // next node is not adjacent to its last, or at kBatch nodes).
  std::vector<Work> pending_;
  size_t pending_nodes_ = 0;
  std::mutex mutex_;
  std::condition_variable wake_;
  // Work in the order posted; [next_, size) not taken yet. Kept until the
  // end, so taking work frees nothing.
  std::vector<Work> queue_;
  size_t next_ = 0;
  bool stopping_ = false;
  // Set once work (or the stop) was first posted; read without the lock.
  std::atomic<bool> posted_{false};
  std::atomic<bool> abandon_{false};
  bool joined_ = false;
  std::vector<std::thread> workers_;
};

// Computes the hash of EvaluateCommand(true) into the edge, as the scan
// would (unless known already, or the edge is phony). `scratch` holds the
// command meanwhile: reused from edge to edge, it grows a few times per
// thread instead of a few times per command.
void HashCommandAhead(Edge* edge, std::string* scratch);

// False when RONIN_PREFETCH=0 (read once): the scan then does everything.
bool PrefetchEnabled();
// How many threads stat (the main thread, once it waits, included): the
// machine's cores, at most 16; 1 worker when RONIN_PARALLEL_STAT=0 (read
// once), as before stats went to every core.
size_t PrefetchThreads();

}  // namespace ronin

#endif  // RONIN_SCAN_PREFETCH_H_
