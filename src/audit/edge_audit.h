// The comparison at the heart of --audit: what a finished command did to
// files (log/file_accesses.h) against what its edge declares, in the graph's
// terms (audit_findings.h).
//
// Declared, for an edge: its explicit and implicit inputs, the inputs its
// dyndep file added, the deps its depfile or the deps log gave it, and
// this run's discovered deps (an order-only input orders the edge, but a
// change to it rebuilds nothing, so reading one is not declared); its
// outputs, depfile and rspfile.
// Paths are compared as absolute, canonical paths, so "../src/a.h" and
// "/p/src/a.h" are the same file. Only paths in the project
// (project_dirs.h) count, and never ninja's own files beside the logs.
//
// Per path, with the disk asked how things stand once the command ended:
//   - written or removed: another edge's output, or a source file named in
//     the manifest, is a clobber; anything else still there afterwards is
//     an undeclared output (a temporary file removed again is not; nor is
//     what a generator edge writes); a directory never counts;
//   - read, executed or probed before the command wrote it, and there
//     afterwards: produced by another edge (in the manifest, or as an
//     undeclared output earlier in this build) with no dependency path
//     from that edge through declared inputs (depfiles do not order a
//     clean build) is an undeclared input; otherwise, read or executed but
//     not declared, an input missing from the discovered deps, unless a new
//     version of it reruns the edge anyway: a file an input of the edge is
//     made from (a thin archive's members, read by the linker). A probe
//     alone (stat, access) is only ever an undeclared input.
#ifndef RONIN_AUDIT_EDGE_AUDIT_H_
#define RONIN_AUDIT_EDGE_AUDIT_H_

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "audit/audit_findings.h"
#include "log/file_accesses.h"
#include "audit/project_dirs.h"

namespace ronin {

class State;
struct Edge;
struct Node;

class EdgeAuditor {
 public:
  // `log_dir`: the absolute directory of .ninja_log and .ronin_state.
  EdgeAuditor(const State* state, ProjectDirs dirs, std::string log_dir);

  // The findings for one finished command, by kind and then path.
  // `discovered`: the deps its run reported (depfile, /showIncludes).
  std::vector<AuditFinding> Audit(const Edge* edge, const FileAccesses& accesses,
                                  const std::vector<Node*>& discovered);

  const ProjectDirs& dirs() const { return dirs_; }

 private:
  enum class OnDisk { kMissing, kDirectory, kFile };
  // What the edge declares, as absolute paths.
  struct Declared {
    std::unordered_set<std::string> inputs;
    std::unordered_set<std::string> own_files;  // outputs, depfile, rspfile
  };
  Declared DeclaredBy(const Edge* edge, const std::vector<Node*>& discovered) const;
  // The edge that makes `path`: its producer in the graph, or the edge
  // that wrote it undeclared earlier in this build; null for neither.
  const Edge* ProducerOf(const std::string& path, const Node** node) const;
  // Whether `consumer` waits for `producer` in a clean build: a path
  // through declared inputs, order-only ones included.
  bool OrderedBefore(const Edge* producer, const Edge* consumer);
  // Whether a new output of `producer` reruns `consumer`: a path through
  // inputs that are not order-only (discovered ones included).
  bool RebuiltAfter(const Edge* producer, const Edge* consumer);
  bool IsNinjaFile(const std::string& path) const;
  static OnDisk Look(const std::string& path);

  void CheckWrite(const Edge* edge, const std::string& path, const FileAccesses::Record& record, OnDisk on_disk,
                  std::vector<AuditFinding>* findings);
  void CheckRead(const Edge* edge, const Declared& declared, const std::string& path,
                 const FileAccesses::Record& record, std::vector<AuditFinding>* findings);

  const State* state_;
  ProjectDirs dirs_;
  std::string log_dir_;
  // Files an edge of this build wrote without declaring them.
  std::unordered_map<std::string, const Edge*> undeclared_writes_;
  // The edges a consumer comes after, by one kind of path: a memo for the
  // last consumer asked about.
  struct Ancestors {
    const Edge* of = nullptr;
    std::unordered_set<const Edge*> edges;
  };
  // Fills `ancestors` for `consumer`, following the inputs `follow` gives.
  template <typename Follow>
  static void Walk(const Edge* consumer, Ancestors* ancestors, Follow follow);
  Ancestors ordered_;
  Ancestors rebuilt_;
};

// The first output's path, how findings name an edge.
std::string EdgeName(const Edge* edge);

}  // namespace ronin

#endif  // RONIN_AUDIT_EDGE_AUDIT_H_
