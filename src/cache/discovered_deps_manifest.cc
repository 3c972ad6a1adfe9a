// The build cache's action entry (cache/discovered_deps_manifest.h).
#include "cache/discovered_deps_manifest.h"

#include <algorithm>

#include "base/sha256.h"
#include "cache/checksummed_text.h"

namespace ronin {
namespace {

const char kHeader[] = "ronin-cache-manifest 2\n";

bool TakeWord(std::string_view* rest, std::string_view word) {
  if (rest->substr(0, word.size()) != word) return false;
  rest->remove_prefix(word.size());
  return true;
}

// A decimal number as SerializeDepsManifest writes it (no leading zero, at
// most 18 digits), so that whatever parses writes back the same bytes.
bool TakeNumber(std::string_view* rest, int64_t* value) {
  size_t digits = 0;
  while (digits < rest->size() && digits <= 18 && (*rest)[digits] >= '0' && (*rest)[digits] <= '9') ++digits;
  if (digits == 0 || digits > 18 || (digits > 1 && (*rest)[0] == '0')) return false;
  int64_t number = 0;
  for (size_t i = 0; i < digits; ++i) number = number * 10 + ((*rest)[i] - '0');
  *value = number;
  rest->remove_prefix(digits);
  return true;
}

bool TakeDigest(std::string_view* rest, std::string* digest) {
  if (rest->size() < 64 || !IsSha256Hex(rest->substr(0, 64))) return false;
  digest->assign(rest->substr(0, 64));
  rest->remove_prefix(64);
  return true;
}

// The rest of the line (not empty) and its newline.
bool TakePath(std::string_view* rest, std::string* path) {
  size_t newline = rest->find('\n');
  if (newline == std::string_view::npos || newline == 0) return false;
  path->assign(rest->substr(0, newline));
  rest->remove_prefix(newline + 1);
  return true;
}

bool TakeRun(std::string_view* rest, DepsManifest::Run* run, std::string* err) {
  int64_t count;
  if (!TakeWord(rest, "run ") || !TakeNumber(rest, &count) || !TakeWord(rest, "\n")) {
    *err = "bad run line in cache manifest";
    return false;
  }
  for (int64_t i = 0; i < count; ++i) {
    FileHash file;
    if (!TakeWord(rest, "dep ") || !TakeDigest(rest, &file.second) || !TakeWord(rest, " ") ||
        !TakePath(rest, &file.first)) {
      *err = "bad dep line in cache manifest";
      return false;
    }
    run->deps.push_back(std::move(file));
  }
  CacheEntry& entry = run->entry;
  for (;;) {
    CacheEntry::Output output;
    if (TakeWord(rest, "exe ")) {
      output.executable = true;
    } else if (!TakeWord(rest, "out ")) {
      break;
    }
    if (!TakeDigest(rest, &output.digest) || !TakeWord(rest, " ") || !TakeNumber(rest, &output.size) ||
        !TakeWord(rest, " ") || !TakePath(rest, &output.path)) {
      *err = "bad output line in cache manifest";
      return false;
    }
    entry.outputs.push_back(std::move(output));
  }
  if (!TakeWord(rest, "log ") || !TakeDigest(rest, &entry.output_digest) || !TakeWord(rest, " ") ||
      !TakeNumber(rest, &entry.output_size) || !TakeWord(rest, "\n")) {
    *err = "bad log line in cache manifest";
    return false;
  }
  return true;
}

}  // namespace

void DepsManifest::AddRun(Run run) {
  auto same = std::find_if(runs.begin(), runs.end(), [&](const Run& old) { return old.deps == run.deps; });
  if (same != runs.end()) runs.erase(same);
  runs.insert(runs.begin(), std::move(run));
  if (runs.size() > kMaxRuns) runs.resize(kMaxRuns);
}

std::string SerializeDepsManifest(const DepsManifest& manifest) {
  std::string body;
  for (const DepsManifest::Run& run : manifest.runs) {
    body.append("run ").append(std::to_string(run.deps.size())).push_back('\n');
    for (const FileHash& file : run.deps)
      body.append("dep ").append(file.second).append(" ").append(file.first).push_back('\n');
    for (const CacheEntry::Output& output : run.entry.outputs) {
      body.append(output.executable ? "exe " : "out ").append(output.digest).append(" ");
      body.append(std::to_string(output.size)).append(" ").append(output.path).push_back('\n');
    }
    body.append("log ").append(run.entry.output_digest).append(" ");
    body.append(std::to_string(run.entry.output_size)).push_back('\n');
  }
  return WithChecksum(kHeader, body);
}

bool ParseDepsManifest(std::string_view text, DepsManifest* manifest, std::string* err) {
  std::string_view rest;
  if (!ChecksummedBody(text, kHeader, &rest)) {
    *err = "damaged cache manifest";
    return false;
  }
  DepsManifest parsed;
  while (!rest.empty()) {
    parsed.runs.emplace_back();
    if (!TakeRun(&rest, &parsed.runs.back(), err)) return false;
  }
  *manifest = std::move(parsed);
  return true;
}

}  // namespace ronin
