// Fuzz target: the .ninja_log loader (versions 5, 6 and 7), then a
// recompaction and a restat, each checked by loading the rewritten file.
//
// Input: the log file's bytes, written to a scratch file (BuildLog::Load
// reads a path) under $RONIN_FUZZ_TMPDIR, /dev/shm or /tmp.
// Checks: every loaded entry is found by Lookup(); a recompacted log loads
// back to the same entries (skipped if an output holds a NUL byte: the log
// format cannot represent it); a restat against an empty disk keeps every
// entry with mtime 0.
#include <stddef.h>
#include <stdint.h>

#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "log/build_log.h"

using namespace ronin;

namespace {

class NoManifest : public BuildLogUser {
 public:
  bool IsPathDead(std::string_view) const override { return false; }
  bool CurrentCommand(std::string_view, std::string*) const override { return false; }
  std::string_view InternedPath(std::string_view, uint64_t, uint32_t*) const override { return {}; }
};

fuzz::ScratchInput scratch_input("build_log", {".recompact", ".restat"});

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = scratch_input.Write(data, size);
  NoManifest user;

  BuildLog log;
  std::string err;
  BuildLog::LoadStatus status = log.Load(path, &err, &user);
  if (status != BuildLog::LoadStatus::kSuccess) return 0;

  size_t live = 0;
  bool has_nul = false;
  for (const BuildLog::Entry& entry : log.entries()) {
    if (entry.dropped) continue;
    ++live;
    FUZZ_CHECK(log.Lookup(entry.output) == &entry);
    if (entry.output.find('\0') != std::string_view::npos) has_nul = true;
  }
  FUZZ_CHECK(live == log.entry_count());

  // Recompact and read back.
  FUZZ_CHECK(log.Recompact(path, user, &err));
  FUZZ_CHECK(!log.needs_upgrade());
  {
    BuildLog again;
    FUZZ_CHECK(again.Load(path, &err, nullptr) == BuildLog::LoadStatus::kSuccess);
    if (!has_nul) {
      FUZZ_CHECK(again.entry_count() == log.entry_count());
      for (const BuildLog::Entry& entry : log.entries()) {
        if (entry.dropped) continue;
        BuildLog::Entry* other = again.Lookup(entry.output);
        FUZZ_CHECK(other != nullptr);
        FUZZ_CHECK(other->command_hash == entry.command_hash);
        FUZZ_CHECK(other->start_time == entry.start_time);
        FUZZ_CHECK(other->end_time == entry.end_time);
        FUZZ_CHECK(other->mtime == entry.mtime);
        FUZZ_CHECK(!other->legacy_hash);
      }
    }
  }

  // Restat against a disk where nothing exists: every mtime becomes 0.
  fuzz::MemoryDisk disk;
  FUZZ_CHECK(log.Restat(path, disk, {}, &err));
  if (!has_nul) {
    BuildLog again;
    FUZZ_CHECK(again.Load(path, &err, nullptr) == BuildLog::LoadStatus::kSuccess);
    FUZZ_CHECK(again.entry_count() == log.entry_count());
    for (const BuildLog::Entry& entry : again.entries()) FUZZ_CHECK(entry.mtime == 0);
  }
  return 0;
}
