// The first-level cache entry (discovered_deps_manifest.h).
#include "discovered_deps_manifest.h"

#include <algorithm>

#include "checksummed_text.h"
#include "sha256.h"

namespace ronin {
namespace {

const char kHeader[] = "ronin-cache-manifest 1\n";

// The next line of *rest without its newline; false if none is complete.
bool TakeLine(std::string_view* rest, std::string_view* line) {
  size_t newline = rest->find('\n');
  if (newline == std::string_view::npos) return false;
  *line = rest->substr(0, newline);
  rest->remove_prefix(newline + 1);
  return true;
}

}  // namespace

void DepsManifest::AddRun(const std::vector<FileHash>& run) {
  auto same = std::find(runs.begin(), runs.end(), run);
  if (same != runs.end()) runs.erase(same);
  runs.insert(runs.begin(), run);
  if (runs.size() > kMaxRuns) runs.resize(kMaxRuns);
}

std::string SerializeDepsManifest(const DepsManifest& manifest) {
  std::string body;
  for (const std::vector<FileHash>& run : manifest.runs) {
    body += "run " + std::to_string(run.size()) + "\n";
    for (const FileHash& file : run) body += "dep " + file.second + " " + file.first + "\n";
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
  std::string_view line;
  while (TakeLine(&rest, &line)) {
    size_t count = 0;
    std::string_view digits = line.substr(line.size() < 4 ? line.size() : 4);
    if (line.substr(0, 4) != "run " || digits.empty() || digits.size() > 6 ||
        digits.find_first_not_of("0123456789") != std::string_view::npos ||
        (digits.size() > 1 && digits[0] == '0')) {
      *err = "bad run line in cache manifest";
      return false;
    }
    for (char c : digits) count = count * 10 + static_cast<size_t>(c - '0');
    std::vector<FileHash> run;
    for (size_t i = 0; i < count; ++i) {
      if (!TakeLine(&rest, &line) || line.size() < 4 + 64 + 2 || line.substr(0, 4) != "dep " ||
          !IsSha256Hex(line.substr(4, 64)) || line[68] != ' ') {
        *err = "bad dep line in cache manifest";
        return false;
      }
      run.emplace_back(std::string(line.substr(69)), std::string(line.substr(4, 64)));
    }
    parsed.runs.push_back(std::move(run));
  }
  if (!rest.empty()) {
    *err = "bad line in cache manifest";
    return false;
  }
  *manifest = std::move(parsed);
  return true;
}

}  // namespace ronin
