// Work done on another core while the main thread parses the manifest and
// loads the logs, for a build of the default targets: stat every file the
// manifest (and the deps log) names, and hash every edge's command line.
// The dirty scan then finds all of it done. Nothing here changes what the
// scan decides; it only moves work it would have done anyway.
//
// The worker is joined before the scan starts, so the scan and the build
// never run concurrently with it.
#ifndef RONIN_PREFETCH_H_
#define RONIN_PREFETCH_H_

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "state.h"

namespace ronin {

class Prefetcher : public NodeObserver {
 public:
  explicit Prefetcher(State* state);
  // Stops the worker without finishing its work (an error path).
  ~Prefetcher() override;

  // NodeObserver: queues a newly interned node for a stat.
  void NodeCreated(Node* node) override;
  // The manifest is complete: edges may now be hashed.
  void ParsingDone();
  // Waits until everything queued is done and stops the worker.
  void Join();

 private:
  void Run();
  void StatAll(const std::vector<Node*>& nodes);
  void HashCommands(size_t begin, size_t end);
  void Publish();

  State* state_;
  std::vector<Node*> pending_;  // main thread's batch, not yet published
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<std::vector<Node*>> queue_;
  bool parsing_done_ = false;
  bool stopping_ = false;
  std::atomic<bool> abandon_{false};
  bool joined_ = false;
  std::thread worker_;
};

// False when RONIN_PREFETCH=0 (read once): the scan then does everything.
bool PrefetchEnabled();

}  // namespace ronin

#endif  // RONIN_PREFETCH_H_
