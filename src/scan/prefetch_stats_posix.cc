// scan/prefetch_stats.h on POSIX: fstatat relative to each thread's own
// directory descriptors, the file named in place (a node's path is
// NUL-terminated, so its last component is a C string): a worker allocates
// nothing.
#include "scan/prefetch_stats.h"

#include "graph/graph.h"

namespace ronin {

struct PrefetchStats::Shared {};

PrefetchStats::PrefetchStats(int threads, bool) {
  // Every stat thread keeps directories open while the build opens its
  // lock and logs: those keep their room.
  const int kSpareDescriptors = 64;
  dirs_per_thread_ = DirectoryDescriptors::OpenPerThread(threads, kSpareDescriptors);
  ReserveDescriptorRoom(threads * dirs_per_thread_);
}

PrefetchStats::~PrefetchStats() = default;

PrefetchStats::Thread::Thread(PrefetchStats* shared) : shared_(shared), dirs_(shared->dirs_per_thread_) {}

void PrefetchStats::Thread::StatAll(Node* first, size_t count) {
  for (Node* node = first; node != first + count; ++node) {
    std::string_view path = node->path;
    std::string_view dir = DirName(path);
    int dir_fd = dirs_.Get(dir);
    if (dir_fd == DirectoryDescriptors::kMissing) {
      node->MarkMissing();
      continue;
    }
    if (dir_fd == -1) continue;  // left to the scan, which reports errors
    // The name runs to the end of the path, which is NUL-terminated.
    const char* name = dir_fd == DirectoryDescriptors::kWorkingDirectory
                           ? path.data()
                           : path.data() + dir.size() + (dir == "/" ? 0 : 1);
    if (!*name) continue;
    TimeStamp mtime;
    switch (DirectoryDescriptors::StatAt(dir_fd, name, &mtime)) {
      case DirectoryDescriptors::Found::kExists:
        node->mtime = mtime;
        node->existence = Node::Existence::kExists;
        break;
      case DirectoryDescriptors::Found::kMissing:
        node->MarkMissing();
        break;
      case DirectoryDescriptors::Found::kUnknown:
        break;
    }
  }
}

}  // namespace ronin
