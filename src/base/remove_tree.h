// Emptying a directory that is a build output, for `-t clean` (Ninja 1.13.2
// fails on one with `remove(DIR): Directory not empty`). Symbolic links are
// removed as links, never followed, and no other file system is entered, so
// nothing outside the directory is touched.
#ifndef RONIN_BASE_REMOVE_TREE_H_
#define RONIN_BASE_REMOVE_TREE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace ronin {

// Whether `path` is a directory itself (not a link to one).
bool IsRealDirectory(const std::string& path);

// Removes everything inside the directory `path`, leaving it empty. False
// with *err ("remove(PATH): REASON", Ninja's words) at the first entry that
// cannot be removed; what was removed before stays removed.
bool EmptyDirectory(const std::string& path, std::string* err);

// The parts of EmptyDirectory each platform has (remove_tree_posix.cc,
// remove_tree_win.cc); on failure *err is "remove(PATH): REASON".
// Checks that `path` can be emptied; *device is the file system it is on.
bool TreeRoot(const std::string& path, uint64_t* device, std::string* err);
// Removes the entries of `dir` that are not directories themselves;
// appends those (when on `device`) to *subdirs.
bool RemoveFilesIn(const std::string& dir, uint64_t device, std::vector<std::string>* subdirs, std::string* err);
// Removes the directory `dir`, emptied.
bool RemoveEmptyDirectory(const std::string& dir, std::string* err);

}  // namespace ronin

#endif  // RONIN_BASE_REMOVE_TREE_H_
