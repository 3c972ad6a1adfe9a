// `ninja -t audit [-json]`: the findings of the last build run with
// --audit, as .ronin_state recorded them (audit_records.h): one line per
// finding and a summary, or one JSON document for CI.
#include <stdio.h>
#include <string.h>

#include <string>

#include "audit/audit_records.h"
#include "audit/audit_report.h"
#include "base/util.h"
#include "driver/ninja_main.h"
#include "log/state_file.h"
#include "tools/tool_common.h"

namespace ronin {

namespace {

int AuditUsage() {
  printf(
      "usage: ninja -t audit [options]\n"
      "\n"
      "Prints what the last build run with --audit found: commands that read files\n"
      "they do not declare, or write files that are not their outputs.\n"
      "\n"
      "options:\n"
      "  -json  one JSON document instead of lines\n"
      "  -h     print this message\n");
  return 1;
}

}  // namespace

int ToolAudit(NinjaMain* ninja, const Options*, int argc, char** argv) {
  bool json = false;
  for (int i = 0; i < argc; ++i) {
    if (strcmp(argv[i], "-json") != 0 && strcmp(argv[i], "--json") != 0) return AuditUsage();
    json = true;
  }
  // Where .ronin_state is ($builddir), without creating it.
  ninja->build_dir_ = std::string(ninja->state_.root_scope()->LookupVariable("builddir"));
  StateFile state_file;
  std::string err;
  state_file.LoadReadOnly(ninja->StateFilePath(), &err);  // a damaged tail: read as far as it is whole
  AuditReport report;
  if (!ReadLastAudit(state_file, &report)) {
    Error("no audited build in %s (build with --audit first)", ninja->StateFilePath().c_str());
    return 1;
  }
  PrintRaw(json ? report.Json() : report.FindingLines("") + report.Summary() + "\n");
  return 0;
}

}  // namespace ronin
