// What --audit counts as the project, and how the manifest names a file.
//
// The project is, with everything below them:
//   - the build directory (where ninja runs, after -C);
//   - the directories of the manifest's own inputs: the source files the
//     edge that regenerates build.ninja reads (CMakeLists.txt, meson.build,
//     BUILD.gn, found through phony edges and its depfile), i.e. the
//     source tree. One under a system directory (/usr, /lib*, /bin, /sbin,
//     /etc, /opt, /proc, /sys, /dev, /run, /boot, /nix, /gnu, /snap; CMake's
//     own modules, say) is left out unless it holds the build directory;
//   - each --audit-root=DIR.
// Accesses outside the project (system headers, the compiler, /tmp when
// the project is elsewhere) are never findings.
#ifndef RONIN_AUDIT_PROJECT_DIRS_H_
#define RONIN_AUDIT_PROJECT_DIRS_H_

#include <string>
#include <string_view>
#include <vector>

namespace ronin {

class State;
struct Node;

class ProjectDirs {
 public:
  // `build_dir`: the absolute, canonical working directory of the build.
  explicit ProjectDirs(std::string build_dir);

  // Adds the directories of the source files that the manifest
  // (`manifest_path`, as the manifest names it) is made from.
  void AddManifestSources(const State& state, std::string_view manifest_path);
  // Adds `dir` (absolute or relative to the build directory) as it is.
  void AddRoot(std::string_view dir);

  // Whether the absolute, canonical `path` is in the project.
  bool Contains(std::string_view path) const;
  const std::vector<std::string>& roots() const { return roots_; }
  const std::string& build_dir() const { return build_dir_; }

  // The graph's node for the absolute `path`, under any name the manifest
  // may give it: relative to the build directory ("gen/x.h",
  // "../src/a.c") or absolute, preferring one that an edge makes. Null if
  // the graph has none.
  Node* FindNode(const State& state, std::string_view path) const;
  // How to show `path`: relative to the build directory when inside it.
  std::string Display(std::string_view path) const;

 private:
  // Adds a root derived from the manifest, unless it is a system directory.
  void AddDerived(std::string_view dir);
  void Insert(std::string dir);

  std::string build_dir_;
  std::vector<std::string> roots_;  // none below another
};

// Whether `path` is `dir` or below it (both absolute and canonical).
bool PathIsUnder(std::string_view path, std::string_view dir);

}  // namespace ronin

#endif  // RONIN_AUDIT_PROJECT_DIRS_H_
