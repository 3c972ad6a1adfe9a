// scan/prefetch_stats.h on Windows: the scan's stat cache lists each
// directory once (ninja.exe's way), so the threads share one set of
// listings, each directory listed by the first thread that needs it, with
// no lock held while it lists. The scan keeps its own listings
// (base/disk_win.cc) and reports the errors, which are left to it here.
#include "scan/prefetch_stats.h"

#include <condition_variable>
#include <mutex>
#include <string>
#include <unordered_map>

#include "base/directory_listing.h"
#include "graph/graph.h"

namespace ronin {

namespace {

// Directory listings for several threads at once.
class SharedListings {
 public:
  // What the scan's stat cache would answer for `path`: its time, 0 if
  // missing, -1 if its directory could not be listed.
  TimeStamp Stat(const std::string& path) {
    DirectoryListing::Place place = DirectoryListing::PlaceOf(path);
    const Entry* entry = Listed(place);
    return entry->listed ? entry->listing.Find(place.name_key) : -1;
  }

 private:
  struct Entry {
    bool done = false;    // listing finished (read under the lock)
    bool listed = false;  // and it succeeded
    DirectoryListing listing;  // unchanged once done
  };

  // The entry of `place`'s directory, listed by this thread unless another
  // one has listed it or is listing it (then this one waits for it).
  const Entry* Listed(const DirectoryListing::Place& place) {
    std::unique_lock<std::mutex> lock(mutex_);
    auto found = directories_.find(place.dir_key);
    if (found != directories_.end()) {
      Entry* entry = found->second.get();
      listed_.wait(lock, [entry] { return entry->done; });
      return entry;
    }
    Entry* entry = directories_.emplace(place.dir_key, std::make_unique<Entry>()).first->second.get();
    lock.unlock();
    std::string err;
    bool listed = entry->listing.List(place.dir, &err);
    lock.lock();
    entry->listed = listed;
    entry->done = true;
    listed_.notify_all();
    return entry;
  }

  std::mutex mutex_;
  std::condition_variable listed_;
  // By directory key; an entry's address stays put while the map grows.
  std::unordered_map<std::string, std::unique_ptr<Entry>> directories_;
};

}  // namespace

struct PrefetchStats::Shared {
  explicit Shared(bool list_directories) : list_directories(list_directories) {}
  bool list_directories;
  SharedListings listings;
};

PrefetchStats::PrefetchStats(int, bool list_directories) : shared_(new Shared(list_directories)) {}

PrefetchStats::~PrefetchStats() = default;

PrefetchStats::Thread::Thread(PrefetchStats* shared) : shared_(shared), dirs_(0) {}

void PrefetchStats::Thread::StatAll(Node* first, size_t count) {
  Shared& shared = *shared_->shared_;
  std::string path, err;
  for (Node* node = first; node != first + count; ++node) {
    path.assign(node->path);
    TimeStamp mtime = shared.list_directories ? shared.listings.Stat(path) : FileAttributesTime(path, &err);
    if (mtime < 0) continue;  // left to the scan, which reports errors
    if (mtime == 0) {
      node->MarkMissing();
    } else {
      node->mtime = mtime;
      node->existence = Node::Existence::kExists;
    }
  }
}

}  // namespace ronin
