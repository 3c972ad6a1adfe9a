// --audit in a build: told of each command that ends well, it compares what
// the command did with its edge (edge_audit.h), keeps the findings in
// .ronin_state for `-t audit` (audit_records.h), and at the end prints each
// finding and a summary (audit_report.h).
#ifndef RONIN_AUDIT_AUDIT_RECORDER_H_
#define RONIN_AUDIT_AUDIT_RECORDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "audit/audit_records.h"
#include "audit/audit_report.h"
#include "audit/edge_audit.h"

namespace ronin {

class DiskInterface;
class StateFile;
struct Edge;
struct Node;

class AuditRecorder {
 public:
  // `build`: wall-clock milliseconds at the start, tagging the records.
  AuditRecorder(State* state, ProjectDirs dirs, std::string log_dir, DiskInterface* disk, StateFile* file,
                int64_t build);

  // `discovered`: the deps its run reported, for an edge with `deps`;
  // null reads the edge's depfile (left for the next build to load).
  void CommandFinished(const Edge* edge, const FileAccesses& accesses, const std::vector<Node*>* discovered);

  const AuditReport& report() const { return report_; }
  // Each finding, then the summary, on stdout as "ninja: audit: ...".
  void PrintSummary() const;

 private:
  // The inputs the edge's depfile lists (none if it has none).
  std::vector<Node*> DepfileInputs(const Edge* edge);

  State* state_;
  EdgeAuditor auditor_;
  DiskInterface* disk_;
  AuditRecords records_;
  AuditReport report_;
  bool write_failed_ = false;
};

}  // namespace ronin

#endif  // RONIN_AUDIT_AUDIT_RECORDER_H_
