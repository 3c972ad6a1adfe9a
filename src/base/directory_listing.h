// How ninja.exe learns a file's time, for every part of ronin that stats on
// Windows: the scan (base/disk_win.cc) and the prefetcher's threads
// (scan/prefetch_stats_win.cc) then give one answer for one file. Nothing
// here is kept between calls: each caller keeps its listings its own way
// (the scan in one thread, the prefetcher shared by all of its threads).
// Windows only (base/directory_listing_win.cc), like base/wide_path.h.
#ifndef RONIN_BASE_DIRECTORY_LISTING_H_
#define RONIN_BASE_DIRECTORY_LISTING_H_

#include <string>
#include <unordered_map>

#include "base/util.h"

namespace ronin {

// `path`'s time by GetFileAttributesEx (what `-d nostatcache` asks for): 0
// if it is missing, -1 with *err on another error.
TimeStamp FileAttributesTime(const std::string& path, std::string* err);

// One directory's entries, by name ignoring case (as Windows' names do),
// listed with FindFirstFileEx: ninja.exe's stat cache lists each directory
// once this way instead of asking for each file.
class DirectoryListing {
 public:
  // Where a path is looked up: the directory to list, and the keys (names
  // folded to lowercase) of that directory and of the entry.
  struct Place {
    std::string dir;
    std::string dir_key;
    std::string name_key;
  };
  static Place PlaceOf(const std::string& path);

  // Lists `dir` ("" is the working directory). A directory that does not
  // exist lists as empty; false with *err on another error.
  bool List(const std::string& dir, std::string* err);
  // The entry's time, or 0 if it is not there.
  TimeStamp Find(const std::string& name_key) const {
    auto entry = entries_.find(name_key);
    return entry == entries_.end() ? 0 : entry->second;
  }

 private:
  std::unordered_map<std::string, TimeStamp> entries_;
};

}  // namespace ronin

#endif  // RONIN_BASE_DIRECTORY_LISTING_H_
