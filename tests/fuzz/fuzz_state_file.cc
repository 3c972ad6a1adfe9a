// Fuzz target: the .ronin_state loader, appends after a recovery, and a
// recompaction checked by loading the rewritten file.
//
// Input: the state file's bytes, written to a scratch file (StateFile::Load
// reads a path) under $RONIN_FUZZ_TMPDIR, /dev/shm or /tmp.
// Checks: every payload that parses as an edge outcome or audit record
// re-encodes the same;
// loading never fails on a writable file; whatever the damage, a
// record appended afterwards and everything loaded come back from a second
// load; the recompacted file loads to exactly the same live records, with
// no warning; an Append to the file unread leaves it loading to what a
// load and a Put would have.
#include <stddef.h>
#include <stdint.h>

#include <map>
#include <string>
#include <utility>

#include "fuzz_support.h"
#include "audit/audit_findings.h"
#include "log/edge_outcome.h"
#include "log/state_file.h"

using namespace ronin;

namespace {

fuzz::ScratchInput scratch_input("state_file", {".recompact"});

// An outcome or audit payload that parses encodes to one that parses the same.
void CheckPayload(std::string_view payload) {
  EdgeOutcome outcome, again;
  if (EdgeOutcome::Parse(payload, &outcome)) {
    FUZZ_CHECK(EdgeOutcome::Parse(outcome.Encode(), &again));
    FUZZ_CHECK(again.Encode() == outcome.Encode());
  }
  AuditedEdge audited, reread;
  if (AuditedEdge::Parse(payload, &audited)) {
    FUZZ_CHECK(AuditedEdge::Parse(audited.Encode(), &reread));
    FUZZ_CHECK(reread.Encode() == audited.Encode());
  }
}

using Snapshot = std::map<std::pair<int, std::string>, std::string>;

Snapshot Contents(const StateFile& state) {
  Snapshot snapshot;
  for (int kind = 1; kind <= static_cast<int>(StateFile::Kind::kAuditedBuild); ++kind) {
    state.ForEach(static_cast<StateFile::Kind>(kind), [&](std::string_view key, std::string_view payload) {
      FUZZ_CHECK(state.Find(static_cast<StateFile::Kind>(kind), key).has_value());
      snapshot[{kind, std::string(key)}] = std::string(payload);
      CheckPayload(payload);
    });
  }
  return snapshot;
}

Snapshot LoadCleanly(const std::string& path) {
  StateFile state;
  std::string err;
  FUZZ_CHECK(state.Load(path, &err));
  FUZZ_CHECK(err.empty());
  return Contents(state);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = scratch_input.Write(data, size);
  Snapshot expected;
  {
    StateFile state;
    std::string err;
    FUZZ_CHECK(state.Load(path, &err));
    FUZZ_CHECK(state.live_count() <= state.loaded_record_count());
    err.clear();
    FUZZ_CHECK(state.Put(StateFile::Kind::kFileDigest, "appended", "after load", &err));
    expected = Contents(state);
  }
  FUZZ_CHECK(LoadCleanly(path) == expected);
  {
    StateFile state;
    std::string err;
    FUZZ_CHECK(state.Load(path, &err));
    FUZZ_CHECK(state.Recompact(&err));
    FUZZ_CHECK(state.loaded_record_count() == expected.size());
  }
  FUZZ_CHECK(LoadCleanly(path) == expected);

  // Append to the unread file: the same file contents as a load and a Put.
  scratch_input.Write(data, size);
  {
    StateFile state;
    std::string err;
    FUZZ_CHECK(state.Load(path, &err));
    err.clear();
    FUZZ_CHECK(state.Put(StateFile::Kind::kEdgeOutcome, "appended", "unread", &err));
    expected = Contents(state);
  }
  scratch_input.Write(data, size);
  {
    StateFile state;
    std::string err;
    state.LoadOnFirstUse(path);
    FUZZ_CHECK(state.Append(StateFile::Kind::kEdgeOutcome, "appended", "unread", &err));
    FUZZ_CHECK(state.live_count() == 0);
  }
  FUZZ_CHECK(LoadCleanly(path) == expected);
  return 0;
}
