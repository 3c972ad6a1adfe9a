// --audit's records in .ronin_state (formats: audit_findings.h): each
// audited command's findings as the build goes, and the last audited
// build read back for `-t audit`.
#ifndef RONIN_AUDIT_AUDIT_RECORDS_H_
#define RONIN_AUDIT_AUDIT_RECORDS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "audit/audit_findings.h"

namespace ronin {

class AuditReport;
class StateFile;

class AuditRecords {
 public:
  // Tags what it records with `build` (wall-clock milliseconds at start).
  AuditRecords(StateFile* file, int64_t build) : file_(file), build_(build) {}

  // The findings of one audited command (none: it was clean). The first
  // one also marks this build as the last audited one.
  bool RecordEdge(const std::string& first_output, const std::vector<AuditFinding>& findings, std::string* err);

 private:
  StateFile* file_;
  int64_t build_;
  bool build_recorded_ = false;
};

// The last audited build's commands and findings; false if no build has
// audited a command (or its record cannot be read).
bool ReadLastAudit(const StateFile& file, AuditReport* report);

}  // namespace ronin

#endif  // RONIN_AUDIT_AUDIT_RECORDS_H_
