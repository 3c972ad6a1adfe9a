#include "audit/project_dirs.h"

#include <algorithm>
#include <unordered_set>

#include "log/file_accesses.h"
#include "graph/state.h"

namespace ronin {

namespace {

const char* const kSystemDirs[] = {"/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin",
                                   "/etc", "/opt", "/proc", "/sys", "/dev", "/run", "/boot",
                                   "/nix", "/gnu", "/snap"};

bool IsSystemDir(std::string_view dir) {
  if (dir == "/") return true;
  for (const char* system : kSystemDirs)
    if (PathIsUnder(dir, system)) return true;
  return false;
}

}  // namespace

bool PathIsUnder(std::string_view path, std::string_view dir) {
  if (dir == "/") return !path.empty() && path[0] == '/';
  return path.substr(0, dir.size()) == dir && (path.size() == dir.size() || path[dir.size()] == '/');
}

ProjectDirs::ProjectDirs(std::string build_dir) : build_dir_(std::move(build_dir)) { Insert(build_dir_); }

void ProjectDirs::AddManifestSources(const State& state, std::string_view manifest_path) {
  Node* manifest = state.LookupNode(manifest_path);
  if (!manifest) return;
  // Everything the manifest is made from, through phony edges and
  // generators alike; each edge once.
  std::vector<const Edge*> stack;
  std::unordered_set<const Edge*> seen;
  if (manifest->in_edge) stack.push_back(manifest->in_edge);
  while (!stack.empty()) {
    const Edge* edge = stack.back();
    stack.pop_back();
    if (!seen.insert(edge).second) continue;
    for (const Node* input : edge->inputs) {
      if (input->in_edge)
        stack.push_back(input->in_edge);
      else
        AddDerived(DirName(CanonicalAbsolutePath(build_dir_, input->path)));
    }
  }
}

void ProjectDirs::AddRoot(std::string_view dir) { Insert(CanonicalAbsolutePath(build_dir_, dir)); }

void ProjectDirs::AddDerived(std::string_view dir) {
  if (dir.empty()) return;
  if (IsSystemDir(dir) && !PathIsUnder(build_dir_, dir)) return;
  Insert(std::string(dir));
}

void ProjectDirs::Insert(std::string dir) {
  for (const std::string& root : roots_)
    if (PathIsUnder(dir, root)) return;
  roots_.erase(std::remove_if(roots_.begin(), roots_.end(),
                              [&](const std::string& root) { return PathIsUnder(root, dir); }),
               roots_.end());
  roots_.push_back(std::move(dir));
}

bool ProjectDirs::Contains(std::string_view path) const {
  for (const std::string& root : roots_)
    if (PathIsUnder(path, root)) return true;
  return false;
}

Node* ProjectDirs::FindNode(const State& state, std::string_view path) const {
  // Relative to the build directory, climbing out of it as far as needed.
  std::string_view dir = build_dir_;
  std::string ups;
  while (!PathIsUnder(path, dir)) {
    ups += "../";
    dir = DirName(dir);  // "/" at the top, under which every path is
  }
  std::string_view rest = path.substr(dir == "/" ? 1 : dir.size());
  if (!rest.empty() && rest[0] == '/') rest.remove_prefix(1);
  std::string relative = ups + std::string(rest);
  if (!relative.empty() && relative.back() == '/') relative.pop_back();
  if (relative.empty()) relative = ".";
  // A file can have a node under each name; the one an edge makes wins.
  Node* by_relative = state.LookupNode(relative);
  if (by_relative && by_relative->in_edge) return by_relative;
  Node* by_absolute = state.LookupNode(path);
  if (by_absolute && (by_absolute->in_edge || !by_relative)) return by_absolute;
  return by_relative;
}

std::string ProjectDirs::Display(std::string_view path) const {
  if (build_dir_ != "/" && path.size() > build_dir_.size() && PathIsUnder(path, build_dir_))
    return std::string(path.substr(build_dir_.size() + 1));
  return std::string(path);
}

}  // namespace ronin
