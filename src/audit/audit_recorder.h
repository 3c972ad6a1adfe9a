// --audit in a build, one of its recorders (log/build_recorder.h): told of
// each command that ended well under the monitor, it compares what the
// command did with its edge (edge_audit.h), keeps the findings in
// .ronin_state for `-t audit` (audit_records.h), and at the end prints each
// finding and a summary (audit_report.h). It never stops the build.
#ifndef RONIN_AUDIT_AUDIT_RECORDER_H_
#define RONIN_AUDIT_AUDIT_RECORDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "audit/audit_records.h"
#include "audit/audit_report.h"
#include "audit/edge_audit.h"
#include "log/build_recorder.h"

namespace ronin {

class DiskInterface;
class StateFile;
struct Edge;
struct Node;

class AuditRecorder : public BuildRecorder {
 public:
  // `build`: wall-clock milliseconds at the start, tagging the records.
  AuditRecorder(State* state, ProjectDirs dirs, std::string log_dir, DiskInterface* disk, StateFile* file,
                int64_t build);

  // BuildRecorder: audits a command that succeeded and was watched (not
  // one restored from the cache). Its discovered inputs are the deps its
  // run reported, for an edge with `deps`, or else its depfile's (left
  // for the next build to load).
  bool Record(const FinishedCommand& command, std::string* err) override;

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
