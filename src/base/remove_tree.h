// Emptying a directory that is a build output, for `-t clean` (Ninja 1.13.2
// fails on one with `remove(DIR): Directory not empty`). Symbolic links are
// removed as links, never followed, and no other file system is entered, so
// nothing outside the directory is touched.
#ifndef RONIN_BASE_REMOVE_TREE_H_
#define RONIN_BASE_REMOVE_TREE_H_

#include <string>

namespace ronin {

// Whether `path` is a directory itself (not a link to one).
bool IsRealDirectory(const std::string& path);

// Removes everything inside the directory `path`, leaving it empty. False
// with *err ("remove(PATH): REASON", Ninja's words) at the first entry that
// cannot be removed; what was removed before stays removed.
bool EmptyDirectory(const std::string& path, std::string* err);

}  // namespace ronin

#endif  // RONIN_BASE_REMOVE_TREE_H_
