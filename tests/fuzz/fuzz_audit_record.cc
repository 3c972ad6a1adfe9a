// Fuzz target: --audit's records in .ronin_state (audit_findings.h), the
// per-edge findings and the last audited build's mark.
//
// Input: a record's payload.
// Checks: parsing never crashes; whatever parses encodes to a payload that
// parses to the same findings and encodes to the same bytes again (so a
// record read back is the record written); every finding names a path of
// at most the payload's size.
#include <stddef.h>
#include <stdint.h>

#include <string>

#include "audit/audit_findings.h"
#include "fuzz_support.h"

using namespace ronin;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string payload(reinterpret_cast<const char*>(data), size);
  AuditedEdge edge, again;
  if (AuditedEdge::Parse(payload, &edge)) {
    std::string encoded = edge.Encode();
    FUZZ_CHECK(AuditedEdge::Parse(encoded, &again));
    FUZZ_CHECK(again.build == edge.build && again.findings == edge.findings);
    FUZZ_CHECK(again.Encode() == encoded);
    for (const AuditFinding& finding : edge.findings) FUZZ_CHECK(finding.path.size() <= size);
  }
  int64_t build;
  if (ParseAuditedBuild(payload, &build)) {
    int64_t reread = -1;
    FUZZ_CHECK(ParseAuditedBuild(EncodeAuditedBuild(build), &reread) && reread == build);
  }
  return 0;
}
