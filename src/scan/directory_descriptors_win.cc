// directory_descriptors.h on Windows: no descriptors to give. The
// prefetcher's threads list each directory once instead
// (scan/prefetch_stats_win.cc), as the scan's stat cache does.
#include "scan/directory_descriptors.h"

namespace ronin {

const int DirectoryDescriptors::kWorkingDirectory = -100;

DirectoryDescriptors::Found DirectoryDescriptors::StatAt(int, const char*, TimeStamp*) { return Found::kUnknown; }

int DirectoryDescriptors::Get(std::string_view) { return -1; }

void DirectoryDescriptors::Clear() {}

int DirectoryDescriptors::OpenPerThread(int, int) { return 0; }

void ReserveDescriptorRoom(int) {}

}  // namespace ronin
