// Checksummed texts of the build cache (cache/checksummed_text.h).
#include "cache/checksummed_text.h"

#include "base/sha256.h"

namespace ronin {

namespace {
constexpr std::string_view kSum = "sum ";
constexpr size_t kSumLine = 4 + 64 + 1;  // "sum ", the digest, '\n'
}  // namespace

std::string WithChecksum(std::string_view header, std::string_view body) {
  std::string text;
  text.reserve(header.size() + body.size() + kSumLine);
  text.append(header).append(body);
  std::string digest = Sha256Hex(text);
  text.append(kSum).append(digest).push_back('\n');
  return text;
}

bool ChecksummedBody(std::string_view text, std::string_view header, std::string_view* body) {
  if (text.size() < header.size() + kSumLine || text.substr(0, header.size()) != header) return false;
  size_t sum_at = text.size() - kSumLine;
  if (text.substr(sum_at, kSum.size()) != kSum || text.back() != '\n' ||
      text.substr(sum_at + kSum.size(), 64) != Sha256Hex(text.substr(0, sum_at)))
    return false;
  *body = text.substr(header.size(), sum_at - header.size());
  return true;
}

}  // namespace ronin
