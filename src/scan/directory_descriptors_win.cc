// directory_descriptors.h on Windows: no descriptors to give. The
// prefetcher, which would use them, is off there (prefetch.cc): the scan
// lists each directory once instead (disk_win.cc's stat cache).
#include "scan/directory_descriptors.h"

namespace ronin {

const int DirectoryDescriptors::kWorkingDirectory = -100;

DirectoryDescriptors::Found DirectoryDescriptors::StatAt(int, const char*, TimeStamp*) { return Found::kUnknown; }

int DirectoryDescriptors::Get(std::string_view) { return -1; }

void DirectoryDescriptors::Clear() {}

int DirectoryDescriptors::OpenPerThread(int, int) { return 0; }

void ReserveDescriptorRoom(int) {}

}  // namespace ronin
